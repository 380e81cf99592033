# plots/map.gp: the pictures of `collsim map` (plots/map_plot.c): every cell
# (p, m) of the grid a box, p on the y axis (every p of the grid), the size m
# on a log x axis, coloured by series: the fastest candidate (like Fig. 3 of
# Rabenseifner 2004) or the band of the ratio baseline / best of a set (like
# its Fig. 4).
# Variables (gnuplot -e): see common.gp (fmts, outpng, outsvg, dir, n, t<i>,
# s<i>, xmin, xmax), and
#   mt, mt2   the picture's title, two lines
#   ylo, yhi  the y range (the first and last p, half a step beyond)
# Data file s<i>.dat: x y xlo xhi ylo yhi per cell of series i.
# Styles 1..18 and 22..33 are common.gp's (cs_plot_style); 41..47 the ratio bands.
_d = ''; do for [_i=strlen(ARG0):1:-1] { if (_d eq '' && ARG0[_i:_i] eq '/') { _d = ARG0[1:_i] } }
load _d . 'common.gp'

# the ratio bands, from "the baseline is faster" (red) to "the set is 3x and
# more faster" (dark blue)
set style line 41 lc rgb '#d6604d'
set style line 42 lc rgb '#f4f4f4'
set style line 43 lc rgb '#d1e5f0'
set style line 44 lc rgb '#92c5de'
set style line 45 lc rgb '#4393c3'
set style line 46 lc rgb '#2166ac'
set style line 47 lc rgb '#053061'

set title mt . "\n" . mt2 noenhanced
set xlabel 'message size m (bytes)'
set ylabel 'processes p'
set yrange [ylo:yhi]
set ytics out nomirror
set mytics default
unset grid
set border 3 front
set key below center horizontal Left reverse noenhanced samplen 1.5 spacing 1.2 width 2 maxrows 4
set style fill solid 1.0 noborder
# room for the legend on the right
if (!exists('fsize')) { fsize = 12 }

do for [_f=1:words(fmts)] {
  eval TERM(word(fmts, _f))
  set output OUT(word(fmts, _f))
  plot for [i=1:n] F(i) using 1:2:3:4:5:6 with boxxy fs solid 1.0 noborder fc ls S(i) title T(i)
  set output
}
