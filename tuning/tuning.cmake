# Tests of the tuning files (tuning/, docs/tuning.md). Included from
# CMakeLists.txt after pmpi/pmpi.cmake (the PMPI test needs its library).

# Every emitted format read back as its library reads it, broken tables,
# ranges: no MPI library needed (MPICH is not installed here).
add_executable(test_tuning ${CMAKE_SOURCE_DIR}/tests/test_tuning.c)
target_link_libraries(test_tuning collsim)
target_compile_definitions(test_tuning PRIVATE TUNING_FIXTURES="${CMAKE_SOURCE_DIR}/tests/fixtures")
add_test(NAME tuning_formats COMMAND test_tuning)

# An ordinary MPI program (not linked to collsim) calling MPI_Allreduce at
# the sizes given, and the LD_PRELOAD spy that logs which of Open MPI's
# allreduce algorithms coll/tuned calls.
add_executable(tuning_sizes ${CMAKE_SOURCE_DIR}/tests/tuning/sizes.c)
target_link_libraries(tuning_sizes MPI::MPI_C)
add_library(tuning_ompi_spy SHARED ${CMAKE_SOURCE_DIR}/tests/tuning/ompi_spy.c)
target_compile_definitions(tuning_ompi_spy PRIVATE _GNU_SOURCE)
target_link_libraries(tuning_ompi_spy PRIVATE dl)

# COLLSIM_TUNING under mpirun: each size gets the algorithm the table names;
# an explicit COLLSIM_ALLREDUCE wins; broken or differing tables: one warning,
# the library serves (about 10 s).
add_test(NAME tuning_pmpi COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tuning/pmpi_tuning.sh
                                  $<TARGET_FILE:tuning_sizes> $<TARGET_FILE:collsim-pmpi>
                                  $<TARGET_FILE:collsim-cli>)
# Open MPI obeys an emitted rules file (about 3 s).
add_test(NAME tuning_ompi COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tuning/ompi_rules.sh
                                  $<TARGET_FILE:tuning_sizes> $<TARGET_FILE:tuning_ompi_spy>
                                  $<TARGET_FILE:collsim-cli>)
set_tests_properties(tuning_pmpi tuning_ompi PROPERTIES TIMEOUT ${COLLSIM_HANG_GUARD})
