# plots/time.gp: run time vs message size, one line+points per algorithm
# (log-log), from a bench CSV; `collsim plot --kind time` writes the data.
# Variables (gnuplot -e): see common.gp, and
#   eb    1: the data files have error bars (columns 3, 4), 0: not
#   ebl   what the bars show, for the key ('min..max' or '95% CI')
#   yfmt  format of the time tics ('%g' or '10^{%L}')
# Data file s<i>.dat: bytes, median time (µs), low (µs), high (µs).
_d = ''; do for [_i=strlen(ARG0):1:-1] { if (_d eq '' && ARG0[_i:_i] eq '/') { _d = ARG0[1:_i] } }
load _d . 'common.gp'

set xlabel 'message size m (bytes)'
set ylabel 'time (µs)'
set logscale y 10
set format y yfmt
set mytics 10
if (eb) { set label 99 sprintf('error bars: %s', ebl) at screen 0.99, screen 0.02 right tc rgb '#444444' }

do for [_f=1:words(fmts)] {
  eval TERM(word(fmts, _f))
  set output OUT(word(fmts, _f))
  if (eb) {
    plot for [i=1:n] F(i) using 1:2:3:4 with yerrorlines ls S(i) title T(i)
  } else {
    plot for [i=1:n] F(i) using 1:2 with linespoints ls S(i) title T(i)
  }
  set output
}
