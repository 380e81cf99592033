#!/usr/bin/env python3
"""How many mpirun launches validate needs (docs/calibrate.md, "Launches").

usage: benchmarks/launch_subsets.py VALDIR [VALDIR...]

Each VALDIR is the --out directory of one `collsim validate` run with several
launches (measured-COLL-pP-L<k>.csv beside validate-COLL-pP.csv). The measured
side does not depend on the platform, so the launches of all directories are
pooled; for every k and every subset of k pooled launches, each directory's model
prices the cases and the headline figure (median |error| over collsim's
algorithms, m >= 64 KiB and all sizes) is computed from the median of the k
launches' medians, as validate computes it. The table gives, per k, the median and
the range of that headline over the subsets: the range is how far a run of k
launches can land from another, the figure the default of --launches was chosen by.
"""
import csv
import glob
import itertools
import os
import re
import statistics
import sys


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(l for l in f if not l.startswith('#')))


def main(dirs):
    if not dirs:
        sys.exit(__doc__)
    colls = sorted({re.sub(r'^measured-(.*)-L\d+\.csv$', r'\1', os.path.basename(p))
                    for d in dirs for p in glob.glob(f'{d}/measured-*-L*.csv')})
    for cp in colls:  # e.g. allreduce-p2
        launches = [{(x['algo'], int(x['bytes'])): float(x['median_s']) for x in rows(p)}
                    for d in dirs for p in sorted(glob.glob(f'{d}/measured-{cp}-L*.csv'))]
        preds = [{(x['algo'], int(x['bytes'])): float(x['model_s'])
                  for x in rows(f'{d}/validate-{cp}.csv')
                  if x['algo'] != 'native' and x['model_s'] not in ('', 'nan')}
                 for d in dirs if os.path.exists(f'{d}/validate-{cp}.csv')]
        n = len(launches)
        print(f'## {cp}: {n} launches from {len(dirs)} runs, {len(preds)} platforms\n')
        print('| launches k | subsets x platforms | m >= 64 KiB: median (range) | '
              'all sizes: median (range) |')
        print('|---:|---:|---|---|')
        for k in range(1, n + 1):
            big, every = [], []
            for pred in preds:
                for S in itertools.combinations(range(n), k):
                    eb, ea = [], []
                    for key, m in pred.items():
                        v = [launches[i][key] for i in S if key in launches[i]]
                        if not v:
                            continue
                        meas = statistics.median(v)
                        e = abs(m - meas) / meas
                        ea.append(e)
                        if key[1] >= 65536:
                            eb.append(e)
                    if eb:
                        big.append(statistics.median(eb))
                    if ea:
                        every.append(statistics.median(ea))

            def fig(v):
                return (f'{100 * statistics.median(v):.1f}% '
                        f'({100 * min(v):.1f}..{100 * max(v):.1f}%)') if v else '-'
            print(f'| {k} | {len(big)} | {fig(big)} | {fig(every)} |')
        print()


if __name__ == '__main__':
    main(sys.argv[1:])
