# plots/lanes.gp: the multi-lane benchmarks as in Traff and Hunold 2020, Figs. 1-3:
# the time of one exchange (lane pattern) or one alltoall (multi) against the
# number of virtual lanes k, one line per count c, log y; and the speed-up
# t(k = 1) / t(k) (lane) or the slow-down t(k) / t(k = 1) (multi).
# `collsim lanes --plot DIR` runs it. Variables (gnuplot -e):
#   csv      the CSV of collsim lanes (docs/csv.md, "lanes")
#   pattern  k-lane or multi;  counts: the counts c, space-separated;  ttl: title
#   outpng   the time picture;  outratio: the ratio picture (png)
set encoding utf8
set datafile separator ','
set datafile commentschars '#'
pngterm = strstrt(GPVAL_TERMINALS, 'pngcairo') > 0 ? 'pngcairo' : 'png'
eval sprintf("set terminal %s size 900,600 enhanced font 'DejaVu Sans,12' background rgb 'white'", pngterm)
set key outside right top title 'count c (ints)'
set grid
set title ttl noenhanced
set xlabel 'virtual lanes k'
set logscale x 2
set format x '%g'
ROWS(c) = sprintf("< awk -F, '$1==\"%s\" && $6==%s {print $5 \",\" $9}' %s", pattern, c, csv)
BASE(c) = sprintf("< awk -F, '$1==\"%s\" && $6==%s {if ($5==1) b=$9; print $5 \",\" $9 \",\" b}' %s", pattern, c, csv)

set output outpng
set ylabel (pattern eq 'k-lane' ? 'time of one exchange (s)' : 'time of one alltoall (s)')
set logscale y 10
set format y '%.0e'
plot for [c in counts] ROWS(c) using 1:2 with linespoints lw 2 title c
set output

set output outratio
unset logscale y
set format y '%g'
if (pattern eq 'k-lane') {
  set ylabel 't(k = 1) / t(k): speed-up over one lane'
  plot for [c in counts] BASE(c) using 1:($3 / $2) with linespoints lw 2 title c, \
       2 with lines dt 2 lc rgb 'gray' title '2 (two physical lanes)'
} else {
  set ylabel 't(k) / t(k = 1): slow-down of k concurrent alltoalls'
  plot for [c in counts] BASE(c) using 1:($2 / $3) with linespoints lw 2 title c, \
       x / 2 with lines dt 2 lc rgb 'gray' title 'k / 2 (two lanes sustained)'
}
set output
