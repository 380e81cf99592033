# plots/ratio.gp: a ratio vs message size per algorithm, with a line at 1.
# `collsim plot` uses it for
#   --kind normalized: time(algo) / time(baseline) at the same (p, bytes), as in
#                      Fig. 7 of Träff et al. 2023 (below 1: faster than the baseline)
#   --kind speedup:    time(library) / time(algo) (above 1: faster than the library)
# Variables (gnuplot -e): see common.gp, and
#   ylab    the y label;  reflab: the legend of the line at 1
#   ylog    1: log2 y axis (ratios spanning more than 16x), 0: linear
# Data file s<i>.dat: bytes, ratio.
_d = ''; do for [_i=strlen(ARG0):1:-1] { if (_d eq '' && ARG0[_i:_i] eq '/') { _d = ARG0[1:_i] } }
load _d . 'common.gp'

set xlabel 'message size m (bytes)'
set ylabel ylab noenhanced
if (ylog) {
  set logscale y 2
  set format y '%g'
} else {
  set format y '%g'
}
set offsets 0, 0, graph 0.05, graph 0.05

do for [_f=1:words(fmts)] {
  eval TERM(word(fmts, _f))
  set output OUT(word(fmts, _f))
  plot 1 with lines ls 20 title reflab, \
       for [i=1:n] F(i) using 1:2 with linespoints ls S(i) title T(i)
  set output
}
