# plots/common.gp: what every collsim picture shares. Loaded by the other
# scripts (never run alone). Expects, set with gnuplot -e by `collsim plot`:
#   fmts    'png svg' (or one of them)   outpng, outsvg: the output files
#   dir     the directory of the picture's data files s1.dat, s2.dat, ...
#   n       number of series;  t1..tn: their legend titles;  s1..sn: their
#           line styles (1..18, see below: one colour per algorithm)
#   ttl     the picture's title
#   xmin, xmax   (scripts with a bytes axis) smallest and largest size drawn
#   xk      (optional) exponents k of the sizes 2^k to label, e.g. '3 6 9';
#           without it every power of two, or every 2nd, 5th or 10th, is labelled
# and defines: F(i), T(i), S(i), TERM(fmt), OUT(fmt), and the byte-axis tics
# XT (labelled) and XTN (unlabelled) as commands to eval.

set encoding utf8
set datafile missing '?'
set datafile commentschars '#'

F(i) = sprintf('%s/s%d.dat', dir, i)
T(i) = value(sprintf('t%d', i))
S(i) = value(sprintf('s%d', i))

# ---- terminals: pngcairo (900x600) and svg, same size and fonts ----------------
pngterm = strstrt(GPVAL_TERMINALS, 'pngcairo') > 0 ? 'pngcairo' : 'png'
if (!exists('fsize')) fsize = 12
# The legend sits below the plot, one entry per line, left-aligned (a
# library's entry names what ran at each size: up to the picture's width), so
# the picture grows by a line's height per entry and the plot keeps its
# 600 pixels (gnuplot warned "difficulty fitting plot titles into key" and cut
# entries with the legend above, in rows).
ph = 600 + 21 * (exists('n') ? n : 0)
TERM(f) = f eq 'svg' ? \
  sprintf("set terminal svg size 900,%d dynamic enhanced font 'DejaVu Sans,%d' linewidth 1.2 background rgb 'white'", ph, fsize + 2) : \
  sprintf("set terminal %s size 900,%d enhanced font 'DejaVu Sans,%d' linewidth 1.2 background rgb 'white'", pngterm, ph, fsize)
OUT(f) = f eq 'svg' ? outsvg : outpng

# ---- one style per algorithm (collsim plot maps names to these numbers) -------
# 6 is native (the library's own); the names of the registry's other rows take
# 1..5 and 7..12 in registry order (plots/plot.c style_of); library variants
# (lib:*, native:*) and other names take the styles left over, in turn.
set style line 1  lc rgb '#0072B2' lw 2 pt 7  ps 1.1 dt 1
set style line 2  lc rgb '#56B4E9' lw 2 pt 5  ps 1.0 dt 1
set style line 3  lc rgb '#009E73' lw 2 pt 9  ps 1.3 dt 1
set style line 4  lc rgb '#D55E00' lw 2 pt 11 ps 1.3 dt 1
set style line 5  lc rgb '#CC79A7' lw 2 pt 13 ps 1.2 dt 1
set style line 6  lc rgb '#000000' lw 2 pt 6  ps 1.1 dt 2
set style line 7  lc rgb '#E69F00' lw 2 pt 4  ps 1.1 dt 1
set style line 8  lc rgb '#666666' lw 2 pt 8  ps 1.2 dt 4
set style line 9  lc rgb '#A6761D' lw 2 pt 10 ps 1.2 dt 1
set style line 10 lc rgb '#7570B3' lw 2 pt 12 ps 1.2 dt 5
set style line 11 lc rgb '#E7298A' lw 2 pt 14 ps 1.2 dt 1
set style line 12 lc rgb '#1B9E77' lw 2 pt 3  ps 1.2 dt 3
# 13..18: library variants (lib:*, native:*) and other names, in turn: dashed,
# colours of their own, so that two selectors never share a style.
set style line 13 lc rgb '#882255' lw 2 pt 6  ps 1.2 dt 2
set style line 14 lc rgb '#117733' lw 2 pt 4  ps 1.2 dt 3
set style line 15 lc rgb '#332288' lw 2 pt 8  ps 1.2 dt 4
set style line 16 lc rgb '#AA4499' lw 2 pt 10 ps 1.2 dt 5
set style line 17 lc rgb '#999933' lw 2 pt 12 ps 1.2 dt 2
set style line 18 lc rgb '#44AA99' lw 2 pt 14 ps 1.2 dt 3
set style line 20 lc rgb '#444444' lw 1.5 dt 2          # reference lines (y = 1, y = x)
set style line 21 lc rgb '#888888' lw 1.2 dt 3            # secondary reference lines
# more algorithm styles (plots/plot.c style_of: the registry's names beyond the first 11):
# the first palette again, with other points and dashes
set style line 22 lc rgb '#0072B2' lw 2 pt 4  ps 1.1 dt 4
set style line 23 lc rgb '#56B4E9' lw 2 pt 8  ps 1.1 dt 5
set style line 24 lc rgb '#009E73' lw 2 pt 12 ps 1.2 dt 2
set style line 25 lc rgb '#D55E00' lw 2 pt 2  ps 1.2 dt 3
set style line 26 lc rgb '#CC79A7' lw 2 pt 1  ps 1.2 dt 4
set style line 27 lc rgb '#E69F00' lw 2 pt 10 ps 1.2 dt 5
set style line 28 lc rgb '#A6761D' lw 2 pt 6  ps 1.2 dt 2
set style line 29 lc rgb '#7570B3' lw 2 pt 3  ps 1.2 dt 3
set style line 30 lc rgb '#E7298A' lw 2 pt 5  ps 1.2 dt 4
set style line 31 lc rgb '#1B9E77' lw 2 pt 7  ps 1.2 dt 5
set style line 32 lc rgb '#0072B2' lw 2 pt 9  ps 1.2 dt 2
set style line 33 lc rgb '#D55E00' lw 2 pt 13 ps 1.2 dt 4

set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set border 3 lw 1
set tics nomirror out scale 0.8
set key below left vertical maxcols 1 Left reverse noenhanced samplen 2.5 spacing 1.1 width 1 font ',10'
set title noenhanced
if (exists('ttl')) { set title ttl noenhanced }



# ---- the bytes axis: log2, labelled 8 B, 1 KiB, 1 MiB, ... --------------------
blab(k) = k < 10 ? sprintf('%d B', 2**k) : k < 20 ? sprintf('%d KiB', 2**(k-10)) : \
          k < 30 ? sprintf('%d MiB', 2**(k-20)) : k < 40 ? sprintf('%d GiB', 2**(k-30)) : \
          sprintf('%d TiB', 2**(k-40))
if (exists('xmin')) {
  # a little room left and right so that the first and last points stay clear of
  # the axes; with one size only, an octave each side
  xlo = xmin < xmax ? xmin / 1.25 : xmin / 2.0
  xhi = xmin < xmax ? xmax * 1.25 : xmax * 2.0
  kmin = floor(log(xlo) / log(2) + 1e-9)
  kmax = ceil(log(xhi) / log(2) - 1e-9)
  kmin = kmin < 0 ? 0 : kmin
  nk = kmax - kmin + 1
  kstep = nk <= 12 ? 1 : nk <= 24 ? 2 : nk <= 45 ? 5 : 10
  XT = 'set xtics ('
  XTN = 'set xtics ('
  nxt = 0
  do for [k=kmin:kmax] {
    if (2.0**k >= xlo * 0.999 && 2.0**k <= xhi * 1.001) {
      nxt = nxt + 1
      if (exists('xk') ? strstrt(' ' . xk . ' ', sprintf(' %d ', k)) > 0 : k % kstep == 0) {
        XT = XT . sprintf('"%s" %.17g 0,', blab(k), 2.0**k)
        XTN = XTN . sprintf('"" %.17g 0,', 2.0**k)
      } else {
        XT = XT . sprintf('"" %.17g 1,', 2.0**k)
        XTN = XTN . sprintf('"" %.17g 1,', 2.0**k)
      }
    }
  }
  if (nxt > 0) {
    XT = XT[1:strlen(XT)-1] . ')'
    XTN = XTN[1:strlen(XTN)-1] . ')'
  } else {
    XT = 'set xtics autofreq format "%g B"'
    XTN = 'set xtics autofreq format ""'
  }
  set logscale x 2
  set xrange [xlo:xhi]
  eval XT
  set mxtics default
}
