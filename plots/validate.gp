# plots/validate.gp: predicted vs measured times, from a validate CSV
# (`collsim plot --kind validate`): log-log scatter, one colour per algorithm,
# open triangles for the analytic model (model_s), filled circles for the SMPI
# simulation (sim_s), horizontal bars for the measurement's 95% CI; points on the
# solid line y = x are exact, the dotted lines are off by a factor of 2.
# Variables (gnuplot -e): see common.gp, and
#   ml, sl   indices of the series that have model / simulated values
#   lo, hi   the range of both axes (µs);  xerr: 1 if columns 2, 3 hold the CI
#   yfmt     format of the tics
# Data file s<i>.dat: measured (µs), measured low, high (µs), model (µs), sim (µs); '?' = none.
_d = ''; do for [_i=strlen(ARG0):1:-1] { if (_d eq '' && ARG0[_i:_i] eq '/') { _d = ARG0[1:_i] } }
load _d . 'common.gp'

ML(j) = word(ml, j) + 0
SL(j) = word(sl, j) + 0

set xlabel 'measured time (µs)'
set ylabel 'predicted time (µs)'
set logscale xy 10
set format x yfmt
set format y yfmt
set mxtics 10
set mytics 10
set xrange [lo:hi]
set yrange [lo:hi]
set size ratio -1
set samples 200
set key outside right center vertical Left reverse title '' 
set title ttl noenhanced


do for [_f=1:words(fmts)] {
  eval TERM(word(fmts, _f))
  set output OUT(word(fmts, _f))
  # (an empty 'for' in a plot command still runs once: parts are added only when they have data)
  cmd = "plot x with lines ls 20 dt 1 title 'y = x', 2*x with lines ls 21 title 'factor 2', x/2 with lines ls 21 notitle"
  if (words(ml) > 0) { cmd = cmd . ", for [j=1:words(ml)] F(ML(j)) using 1:4:(xerr ? $2 : $1):(xerr ? $3 : $1) with xerrorbars ls S(ML(j)) pt 8 ps 1.3 notitle" }
  if (words(sl) > 0) { cmd = cmd . ", for [j=1:words(sl)] F(SL(j)) using 1:5:(xerr ? $2 : $1):(xerr ? $3 : $1) with xerrorbars ls S(SL(j)) pt 7 ps 1.1 notitle" }
  cmd = cmd . ", for [i=1:n] NaN with points ls S(i) pt 5 ps 1.4 title T(i)"
  if (words(ml) > 0) { cmd = cmd . ", NaN with points lc rgb '#444444' pt 8 ps 1.3 title 'model'" }
  if (words(sl) > 0) { cmd = cmd . ", NaN with points lc rgb '#444444' pt 7 title 'SMPI (simulated)'" }
  eval cmd
  set output
}
