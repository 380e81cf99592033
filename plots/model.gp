# plots/model.gp: analytic models against the simulation, from a predict CSV
# (`collsim plot --kind model`): per algorithm (one colour each) a solid line for
# collsim's exact round-by-round model (model_s), a dashed line for the paper's
# Table I expression (table1_s, where the paper has one) and points for SMPI's
# time (sim_s); below, a small panel with the relative error |sim - model| / model.
# Variables (gnuplot -e): see common.gp, and
#   tl    indices (e.g. '1 3') of the series that have Table I values
#   sl    indices of the series that have simulated times ('' = no sim panel)
#   yfmt  format of the time tics;  emax: the largest relative error (%)
# Data file s<i>.dat: bytes, table1 (µs), model (µs), sim (µs), rel_err (%); '?' = none.
_d = ''; do for [_i=strlen(ARG0):1:-1] { if (_d eq '' && ARG0[_i:_i] eq '/') { _d = ARG0[1:_i] } }
load _d . 'common.gp'

TL(j) = word(tl, j) + 0
SL(j) = word(sl, j) + 0
nsim = words(sl)
# a tic step of 1, 2 or 5 times a power of ten, about x
nicestep(x) = x <= 0 ? 1 : (_e = 10**floor(log10(x)), _r = x / _e, (_r < 1.5 ? 1 : _r < 3.5 ? 2 : _r < 7.5 ? 5 : 10) * _e)
if (!exists('emax')) emax = 1

do for [_f=1:words(fmts)] {
  eval TERM(word(fmts, _f))
  set output OUT(word(fmts, _f))
  if (nsim > 0) {
    set multiplot
    set lmargin at screen 0.14
    set rmargin at screen 0.97
    set tmargin at screen 0.83
    set bmargin at screen 0.41
    eval XTN
    set xlabel ''
  } else {
    eval XT
    set xlabel 'message size m (bytes)'
  }
  set ylabel 'time (µs)' offset 0, 0
  set logscale y 10
  set format y yfmt
  set mytics default
  set key above
  # (an empty 'for' in a plot command still runs once: parts are added only when they have data)
  cmd = "plot for [i=1:n] F(i) using 1:3 with lines ls S(i) dt 1 title T(i)"
  if (words(tl) > 0) { cmd = cmd . ", for [j=1:words(tl)] F(TL(j)) using 1:2 with lines ls S(TL(j)) dt 2 notitle" }
  if (nsim > 0) { cmd = cmd . ", for [j=1:nsim] F(SL(j)) using 1:4 with points ls S(SL(j)) notitle" }
  cmd = cmd . ", NaN with lines lc rgb '#444444' lw 2 dt 1 title 'model (exact)'"
  if (words(tl) > 0) { cmd = cmd . ", NaN with lines lc rgb '#444444' lw 2 dt 2 title 'Table I'" }
  if (nsim > 0) { cmd = cmd . ", NaN with points lc rgb '#444444' pt 7 title 'SMPI (simulated)'" }
  eval cmd
  if (nsim > 0) {
    set tmargin at screen 0.37
    set bmargin at screen 0.13
    unset key
    eval XT
    set xlabel 'message size m (bytes)'
    set ylabel "|sim − model|\n/ model (%)" offset 0, 0
    unset logscale y
    set format y '%g'
    set yrange [0:*]
    set ytics nicestep(emax / 3.0)
    set mytics 2
    plot for [j=1:nsim] F(SL(j)) using 1:5 with linespoints ls S(SL(j)) ps 0.8 notitle
    set yrange [*:*]
    set ytics autofreq
    unset multiplot
  }
  set output
}
