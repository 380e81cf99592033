# plots/nodeaware.gp: the NAP seed's Figs. 10-15 (Bienz, Olson, Gropp 2019) from
# the tables of `collsim nodeaware` (docs/csv.md, "nodeaware"), into dir/plots:
#   fig10.png  eqs. 4-6 (lines) and the exact models (points), one double vs p
#   fig11.png  the same against the size at pmodel processes
#   fig12.png  simulated, one double vs p (RD, SMP, NAP and SMPI's rows)
#   fig13.png  simulated speedup of NAP over RD and SMP vs p
#   fig14.png  simulated cost vs size at psize processes
#   fig15.png  simulated speedup of NAP vs size at psize processes
# Variables (gnuplot -e): dir; algos (the labels, space-separated); algos_size
# (those with rows at psize); psize (0: no
# simulation); pmodel (the equations' p of Fig. 11); pexact (its exact models' p).
set encoding utf8
set datafile separator ','
set datafile commentschars '#'
pngterm = strstrt(GPVAL_TERMINALS, 'pngcairo') > 0 ? 'pngcairo' : 'png'
eval sprintf("set terminal %s size 900,600 enhanced font 'DejaVu Sans,12' background rgb 'white'", pngterm)
set grid
set key top left
set logscale x 2
set format x '%g'
set logscale y 10
set format y '%g'
# rows of label l of table t: columns x (p or bytes) and y
ROWS(t, l, x, y) = sprintf("< awk -F, '$1==\"%s\" && $%d != \"\" {print $%d \",\" $%d}' %s/%s", l, y, x, y, dir, t)
# the same, of processes p only
ROWSP(t, l, p, x, y) = sprintf("< awk -F, '$1==\"%s\" && $3==%d && $%d != \"\" {print $%d \",\" $%d}' %s/%s", l, p, y, x, y, dir, t)
modelled = 'RD SMP NAP'

set output dir.'/plots/fig10.png'
set title 'Fig. 10: modelled allreduce of one double, 16 ppn (lines eqs. 4-6, points exact models)'
set xlabel 'processes p'
set ylabel 'time (s)'
plot for [i=1:3] ROWS('model-p.csv', word(modelled, i), 3, 6) using 1:2 with lines lw 2 lc i title 'eq. '.(3 + i).' '.word(modelled, i), \
     for [i=1:3] ROWS('model-p.csv', word(modelled, i), 3, 7) using 1:2 with points pt 7 lc i title word(modelled, i).' exact'
set output

set output dir.'/plots/fig11.png'
set title sprintf('Fig. 11: modelled allreduce: eqs. 4-6 at %d processes (lines), exact models at %d (dashed)', pmodel, pexact) noenhanced
set xlabel 'bytes'
plot for [i=1:3] ROWSP('model-size.csv', word(modelled, i), pmodel, 5, 6) using 1:2 with lines lw 2 lc i title 'eq. '.(3 + i).' '.word(modelled, i), \
     for [i=1:3] ROWSP('model-size.csv', word(modelled, i), pexact, 5, 7) using 1:2 with linespoints pt 7 dt 2 lc i title word(modelled, i).' exact'
set output

if (psize > 0) {
  set output dir.'/plots/fig12.png'
  set title 'Fig. 12: simulated allreduce of one double on bluewaters, 16 ppn'
  set xlabel 'processes p'
  plot for [l in algos] ROWS('sim-p.csv', l, 3, 6) using 1:2 with linespoints lw 2 pt 7 title l noenhanced
  set output

  set output dir.'/plots/fig13.png'
  set title 'Fig. 13: simulated speedup of NAP, one double'
  unset logscale y
  set ylabel 'speedup'
  plot ROWS('sim-p.csv', 'NAP', 3, 8) using 1:2 with linespoints lw 2 pt 7 title 'RD / NAP', \
       ROWS('sim-p.csv', 'NAP', 3, 9) using 1:2 with linespoints lw 2 pt 7 title 'SMP / NAP', \
       1 with lines dt 2 lc rgb 'gray' notitle
  set output

  set output dir.'/plots/fig14.png'
  set title sprintf('Fig. 14: simulated allreduce at %d processes', psize)
  set logscale y 10
  set ylabel 'time (s)'
  set xlabel 'bytes'
  plot for [l in algos_size] ROWS('sim-size.csv', l, 5, 6) using 1:2 with linespoints lw 2 pt 7 title l noenhanced
  set output

  set output dir.'/plots/fig15.png'
  set title sprintf('Fig. 15: simulated speedup of NAP at %d processes', psize)
  unset logscale y
  set ylabel 'speedup'
  plot ROWS('sim-size.csv', 'NAP', 5, 8) using 1:2 with linespoints lw 2 pt 7 title 'RD / NAP', \
       ROWS('sim-size.csv', 'NAP', 5, 9) using 1:2 with linespoints lw 2 pt 7 title 'SMP / NAP', \
       1 with lines dt 2 lc rgb 'gray' notitle
  set output
}
