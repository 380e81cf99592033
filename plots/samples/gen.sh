#!/usr/bin/env bash
# Regenerates the SAMPLE CSVs in plots/samples/ (made-up numbers from simple
# alpha-beta-gamma formulas, NOT measurements) in the formats of docs/csv.md:
#   bench.csv, predict.csv, predict-nosim.csv, validate.csv, guidelines.csv
# Usage: plots/samples/gen.sh  (writes next to itself; deterministic)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
export LC_ALL=C

# Shared awk: costs of the algorithms for p processes and m bytes.
lib='
function q(p) { return p <= 1 ? 0 : int(log(p) / log(2) - 1e-9) + 1 }
function fl(p) { return int(log(p) / log(2) + 1e-9) }
function pw2(p) { return 2 ^ fl(p) == p }
function noise(i) { x = sin(i * 12.9898 + 78.233) * 43758.5453; return x - int(x) < 0 ? x - int(x) + 1 : x - int(x) }
function cost(coll, a, p, m,   Q, F, f) {
  if (p == 1) return 0
  Q = q(p); F = fl(p); f = (p - 1) / p
  if (coll == "allreduce") {
    if (a == "circulant") return Q * (A + m * B + m * G)
    if (a == "circulant_rsag") return 2 * Q * A + 2 * f * m * B + f * m * G
    if (a == "ceilhalf") return 2.3 * Q * A + 2 * f * m * B + f * m * G + 0.6 * m * G
    if (a == "butterfly") return (F + (pw2(p) ? 0 : 2)) * (A + m * B) + (F + (pw2(p) ? 0 : 1)) * m * G
    if (a == "native") return m <= 8192 ? 1.1 * cost(coll, "butterfly", p, m) : 1.15 * (2 * F * A + 2 * m * B + m * G) + 4 * A
    if (a == "lib:ompi") return m <= 65536 ? 1.2 * cost(coll, "butterfly", p, m) + A : 1.05 * (2 * Q * A + 2 * m * B + m * G) + 6 * A
  }
  if (coll == "reduce_scatter_block") {
    if (a == "circulant") return Q * A + f * m * (B + G)
    if (a == "ceilhalf") return Q * A + f * m * (B + G) + 0.25 * m * G
    if (a == "butterfly") return (F + (pw2(p) ? 0 : 1)) * A + f * m * (B + G) + (pw2(p) ? 0 : m * (B + G))
    if (a == "native") return 1.3 * (p - 1) * A + f * m * (B + G) * 1.1
  }
  if (coll == "allgather") {
    if (a == "circulant") return Q * A + f * m * B
    if (a == "ceilhalf") return Q * A + f * m * B + 0.1 * m * B
    if (a == "butterfly") return (F + (pw2(p) ? 0 : 2)) * A + f * m * B + (pw2(p) ? 0 : m * B)
    if (a == "bruck") return Q * A + f * m * B + m * B * 0.5
  }
  return -1
}
BEGIN { A = 1.5e-6; B = 1e-10; G = 2.5e-11 }
'

# ---- bench: time vs size per algorithm, 10 repetitions --------------------------
awk "$lib"'
BEGIN {
  print "# SAMPLE DATA for plots/ tests (made up by plots/samples/gen.sh from alpha-beta-gamma formulas; not a measurement)"
  print "# collsim bench backend=smpi platform=platforms/hydra.xml np=1,8,36 type=byte op=bor reps=10"
  print "coll,algo,p,bytes,reps,median_s,mean_s,min_s,max_s,ci_lo_s,ci_hi_s"
  n = split("allreduce|1|circulant,circulant_rsag,butterfly,native;allreduce|8|circulant,circulant_rsag,ceilhalf,butterfly,native,lib:ompi;allreduce|36|circulant,circulant_rsag,ceilhalf,butterfly,native,lib:ompi;reduce_scatter_block|36|circulant,ceilhalf,butterfly,native", grp, ";")
  i = 0
  for (g = 1; g <= n; g++) {
    split(grp[g], f, "|"); coll = f[1]; p = f[2] + 0; na = split(f[3], al, ",")
    for (j = 1; j <= na; j++) {
      # count 0 first (a row a log axis cannot show), then 8 B .. 8 MiB by 4x
      for (m = 0; m <= 8388608; m = (m == 0 ? 8 : m * 4)) {
        t = cost(coll, al[j], p, m); i++
        if (t < 0) continue
        if (m == 0) t = (p > 1) ? A * q(p) : 0
        lo = t * (1 - 0.04 * noise(i)); hi = t * (1 + 0.02 + 0.15 * noise(i + 7))
        mean = (lo + hi + 3 * t) / 5
        printf "%s,%s,%d,%d,10,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", coll, al[j], p, m, t, mean, lo, hi, t * (1 - 0.01 * noise(i + 3)), t * (1 + 0.03 * noise(i + 5))
      }
    }
  }
}' > bench.csv

# ---- predict: Table I, exact model, simulation -----------------------------------
predict() { # $1 = 1 with simulation, 0 without (--no-sim)
awk -v sim="$1" "$lib"'
function table1(coll, a, p, m,   Q, f) {
  Q = q(p); f = (p - 1) / p
  if (coll == "allreduce" && a == "circulant") return Q * (A + m * B + m * G)
  if (coll == "allreduce" && a == "circulant_rsag") return 2 * Q * A + 2 * f * m * B + f * m * G
  if (coll == "allreduce" && a == "butterfly") return (fl(p) + (pw2(p) ? 0 : 2)) * (A + m * (B + G))
  if (coll == "reduce_scatter_block" && a == "circulant") return Q * A + f * m * (B + G)
  if (coll == "reduce_scatter_block" && a == "butterfly") return (fl(p) + (pw2(p) ? 0 : 1)) * A + f * m * (B + G)
  if (coll == "allgather" && a != "ceilhalf") return Q * A + f * m * B
  return -1
}
BEGIN {
  print "# SAMPLE DATA for plots/ tests (made up by plots/samples/gen.sh from alpha-beta-gamma formulas; not a measurement)"
  print "# collsim predict platform=platforms/hydra.xml" (sim ? "" : " --no-sim")
  print "coll,algo,p,bytes,table1_s,model_s,sim_s,rel_err"
  if (sim) s = "allreduce:8:circulant,circulant_rsag,ceilhalf,butterfly;allreduce:36:circulant,circulant_rsag,ceilhalf,butterfly;reduce_scatter_block:36:circulant,ceilhalf,butterfly"
  else s = "allgather:17:circulant,ceilhalf,butterfly,bruck"
  n = split(s, grp, ";"); i = 0
  for (g = 1; g <= n; g++) {
    split(grp[g], f, ":"); coll = f[1]; p = f[2] + 0; na = split(f[3], al, ",")
    for (j = 1; j <= na; j++)
      for (m = 8; m <= 8388608; m *= 4) {
        i++
        # the exact model: headers of 16 bytes per message, one more copy
        model = cost(coll, al[j], p, m) + q(p) * (0.3 * A + 16 * B) + m * G * 0.05
        t1 = table1(coll, al[j], p, m)
        printf "%s,%s,%d,%d,%s,%.9g,", coll, al[j], p, m, t1 < 0 ? "" : sprintf("%.9g", t1), model
        if (sim) { st = model * (1 + 0.06 * (noise(i) - 0.3)); printf "%.9g,%.9g\n", st, (st > model ? st - model : model - st) / model }
        else printf ",\n"
      }
  }
}'
}
predict 1 > predict.csv
predict 0 > predict-nosim.csv

# ---- validate: model and simulation against a real MPI ----------------------------
awk "$lib"'
BEGIN {
  print "# SAMPLE DATA for plots/ tests (made up by plots/samples/gen.sh from alpha-beta-gamma formulas; not a measurement)"
  print "# collsim validate backend=mpi np=8,16 reps=20"
  print "coll,algo,p,bytes,model_s,sim_s,measured_s,measured_lo_s,measured_hi_s,err_model,err_sim"
  n = split("circulant,butterfly,native", al, ","); i = 0
  for (p = 8; p <= 16; p *= 2)
    for (j = 1; j <= n; j++)
      for (m = 8; m <= 4194304; m *= 8) {
        i++
        model = cost("allreduce", al[j], p, m); sim = model * (1.02 + 0.05 * noise(i))
        meas = model * (1.1 + 0.5 * noise(i + 11)) + 2e-6
        printf "allreduce,%s,%d,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", al[j], p, m, model, sim, meas, meas * 0.97, meas * 1.05, (model - meas) / meas, (sim - meas) / meas
      }
}' > validate.csv

# ---- guidelines: self-consistent performance guidelines of a library --------------
awk "$lib"'
BEGIN {
  print "# SAMPLE DATA for plots/ tests (made up by plots/samples/gen.sh from alpha-beta-gamma formulas; not a measurement)"
  print "# collsim guidelines backend=smpi platform=platforms/hydra.xml np=16,32 tolerance=0.05"
  print "guideline,lhs,rhs,p,bytes,lhs_s,rhs_s,ratio,tolerance,violated"
  i = 0
  for (p = 16; p <= 32; p *= 2)
    for (m = 8; m <= 8388608; m *= 4) {
      lg = log(m) / log(2)
      for (k = 1; k <= 3; k++) {
        i++
        if (k == 1) { id = "ar<=red+bc"; l = "allreduce:lib:ompi"; r = "reduce:lib:ompi+bcast:lib:ompi"; base = 0.85 + 0.3 * exp(-((lg - 12) ^ 2) / 8) }
        if (k == 2) { id = "ar<=red+bc"; l = "allreduce:lib:mpich"; r = "reduce:lib:mpich+bcast:lib:mpich"; base = 0.7 + 0.02 * lg }
        if (k == 3) { id = "rsb<=red+sc"; l = "reduce_scatter_block:lib:ompi"; r = "reduce:lib:ompi+scatter:lib:ompi"; base = 0.6 + 0.6 * (lg > 18) }
        rhs = cost("allreduce", "butterfly", p, m) * 1.3
        lhs = rhs * base * (1 + 0.03 * noise(i))
        printf "%s,%s,%s,%d,%d,%.9g,%.9g,%.9g,0.05,%d\n", id, l, r, p, m, lhs, rhs, lhs / rhs, (lhs / rhs > 1.05) ? 1 : 0
      }
    }
}' > guidelines.csv
