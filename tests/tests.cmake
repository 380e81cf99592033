# The list of all tests (ctest). CLI is the built front door.
set(CLI $<TARGET_FILE:collsim-cli>)
set(T ${CMAKE_SOURCE_DIR}/tests)

# Schedules, without MPI, for p = 1 .. 1024.
add_test(NAME sched COMMAND test_sched 1024)

# The registry: every family the issue names, for the collectives named.
add_test(NAME registry_list COMMAND bash ${T}/registry_list.sh ${CLI})

# Bad input gets a clear error naming what is valid.
add_test(NAME bad_input COMMAND bash ${T}/bad_input.sh ${CLI})

# The full matrix under SMPI: every algorithm x p x counts {0,1,p-1,p,p+1,1009}
# x roots x in-place x types/ops. One simulation per p runs all its cases.
foreach(group "1-6" "7-11" "12-15" "16-19" "20-23" "24-27" "28-30" "31-33" "48" "64" "100")
  string(REPLACE "-" "_" gname "${group}")
  add_test(NAME check_smpi_p${gname} COMMAND ${CLI} check --np ${group} --jobs 1)
endforeach()

# A real-MPI subset under mpirun (Open MPI, oversubscribed), up to 8 ranks.
add_test(NAME check_mpi COMMAND ${CLI} check --backend mpi --np 1-8 --count 0,1,p-1,p+1,100)

# The platform generator: exact alpha-beta(m+16), gamma per byte, max-rate and
# two-lane behaviour in SMPI, named machines load, deterministic output.
add_test(NAME platforms COMMAND bash ${CMAKE_SOURCE_DIR}/platforms/tests/run.sh --quick)

# Option combinations: a layout list without "even" must still run the
# collectives that have no blocks (once), next to the v-collectives.
add_test(NAME check_options COMMAND ${CLI} check --np 5 --coll allgatherv,allreduce,reduce_scatter --layout rev,one --in-place)

# The models record the kernels themselves (models/record.c, models/mpirec/):
# model_table_*: every registered non-native algorithm, p 1..40, 48, 64, 100,
# 1152, sizes 0 .. 16M, roots 0 and p-1, in place on/off, under abg, two
# maxrate and a lanes model, equals to 1e-9 the table computed by the
# hand-written per-algorithm generators that the engine replaced
# (tests/expected/model_table.txt, tests/test_model_table.c).
set(MT test_model_table check ${T}/expected/model_table.txt)
add_test(NAME model_table_reducing COMMAND ${MT} allreduce,reduce_scatter_block,reduce_scatter)
add_test(NAME model_table_allgather COMMAND ${MT} allgather,allgatherv)
add_test(NAME model_table_rooted COMMAND ${MT} reduce,gather,gatherv,scatter,scatterv)
# mpirec: the recording MPI's communicators, attributes, host names and
# setup collectives (for kernel contexts), world ranks in records, loud
# failure of an unsupported call (tests/test_mpirec.c).
add_test(NAME mpirec COMMAND test_mpirec)
# model_breaks: a scratch copy whose ceilhalf reduce-scatter drops one block
# gives a different model_s (tests/model_breaks.sh; builds the CLI there).
add_test(NAME model_breaks COMMAND bash ${T}/model_breaks.sh ${CMAKE_SOURCE_DIR} ${CLI})

# The exact models against SMPI on abg platforms (tests/model_vs_sim.sh):
# every registered algorithm but native to 1e-9 relative, Table I bounds of
# the circulant algorithms, and the optimal ceilhalf reduce_scatter_block
# formula with gamma = 0.
set(MVS bash ${T}/model_vs_sim.sh ${CLI})
add_test(NAME model_vs_sim_p2_20 COMMAND ${MVS} 2-20 1,1000,4096,64K,1M)
add_test(NAME model_vs_sim_p21_40 COMMAND ${MVS} 21-40 1,1000,4096,64K,1M)
add_test(NAME model_vs_sim_16M COMMAND ${MVS} 7,33 16M)
add_test(NAME model_vs_sim_p64_100 COMMAND ${MVS} 64,100 1,1000,64K,1M)
add_test(NAME model_vs_sim_p1152 COMMAND ${MVS} 1152 1152,1M)
add_test(NAME model_vs_sim_in_place COMMAND ${MVS} 5,8,33 1000,64K --in-place)

# Two runs of the same simulation print identical CSV.
add_test(NAME determinism COMMAND bash ${T}/determinism.sh ${CLI})
