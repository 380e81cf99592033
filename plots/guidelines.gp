# plots/guidelines.gp: self-consistent performance guidelines, from a guidelines
# CSV (`collsim plot --kind guidelines`): ratio = time(lhs) / time(rhs) vs message
# size, one line per pair of sides, the line at 1 (both sides equally fast), the
# tolerance line 1 + tolerance, and the rows the CSV marks violated (violated = 1)
# circled in red.
# Variables (gnuplot -e): see common.gp, and
#   tol    the tolerance of every row of the picture (< 0: rows differ, no line)
#   nviol  number of violated rows;  vl: indices of the series that have some
#   ylog   1 for a log2 y axis
# Data file s<i>.dat: bytes, ratio, violated (0/1).
_d = ''; do for [_i=strlen(ARG0):1:-1] { if (_d eq '' && ARG0[_i:_i] eq '/') { _d = ARG0[1:_i] } }
load _d . 'common.gp'
VL(j) = word(vl, j) + 0

set xlabel 'message size m (bytes)'
set ylabel 'time(lhs) / time(rhs)'
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
  # (an empty 'for' in a plot command still runs once: parts are added only when they have data)
  cmd = "plot 1 with lines ls 20 dt 1 title 'ratio 1'"
  if (tol >= 0) { cmd = cmd . sprintf(", %.17g with lines ls 20 dt 2 lc rgb '#C00000' title '1 + tolerance (%g)'", 1 + tol, tol) }
  cmd = cmd . ", for [i=1:n] F(i) using 1:2 with linespoints ls S(i) title T(i)"
  if (words(vl) > 0) {
    cmd = cmd . ", for [j=1:words(vl)] F(VL(j)) using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 2.6 lw 2 lc rgb '#C00000' notitle"
    cmd = cmd . sprintf(", NaN with points pt 6 ps 2.6 lw 2 lc rgb '#C00000' title 'violated (%d)'", nviol)
  }
  eval cmd
  set output
}
