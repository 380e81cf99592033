# The conformance run (tests/conformance/README.md): plain MPI programs
# written here, on the library alone and through libcollsim-pmpi.so with
# every registered algorithm of each collective, outputs compared byte for
# byte; and one-rank errors under MPI_ERRORS_ARE_FATAL, which must abort.
# Included from CMakeLists.txt after pmpi/pmpi.cmake.
if(TARGET collsim-pmpi)
  foreach(prog reductions movement errors overflow optypes)
    add_executable(conf_${prog} ${CMAKE_SOURCE_DIR}/tests/conformance/${prog}.c)
    target_link_libraries(conf_${prog} MPI::MPI_C m)
  endforeach()
  set(COLLSIM_CONF_RUN bash ${CMAKE_SOURCE_DIR}/tests/conformance/run.sh
      $<TARGET_FILE_DIR:conf_reductions> $<TARGET_FILE:collsim-pmpi> $<TARGET_FILE:collsim-cli>)
  # Sampled: the even rounds (PMPI_ROUNDS=0/2, tests/pmpi/registry.sh; every
  # algorithm is compared byte for byte with the library in the pmpi_np* tests
  # too) at p = 4 for reductions, movement and errors (the others below), and
  # 7 one-rank errors at p = 7. The full run:
  #   tests/conformance/run.sh BINDIR LIB CLI 1,2,3,4,5,6,7,8 all
  add_test(NAME conformance_np4 COMMAND ${COLLSIM_CONF_RUN} 4 none)
  set_tests_properties(conformance_np4 PROPERTIES ENVIRONMENT "CONF_PROGRAMS=reductions movement errors;PMPI_ROUNDS=0/2")
  add_test(NAME conformance_fatal_np7 COMMAND ${COLLSIM_CONF_RUN} none sample 7)
  # Issue 29, sampled: overflowing 8/16-bit sums and products (the same bits
  # on every process, every allreduce algorithm) at p = 5, and every
  # predefined type with every op MPI allows (the library's results, no
  # "erroneous call" warning) at p = 5. The full run, from the build
  # directory (op/avx on, Open MPI's default):
  #   CONF_PROGRAMS="overflow optypes optypes_valid" bash ../tests/conformance/run.sh \
  #     . ./libcollsim-pmpi.so ./collsim-cli 3,4,5,6,7,8,9,13 none
  add_test(NAME conformance_overflow COMMAND ${COLLSIM_CONF_RUN} 5 none)
  set_tests_properties(conformance_overflow PROPERTIES ENVIRONMENT "CONF_PROGRAMS=overflow;CONF_ITERS=1")
  add_test(NAME conformance_optypes_np5 COMMAND ${COLLSIM_CONF_RUN} 5 none)
  set_tests_properties(conformance_optypes_np5 PROPERTIES ENVIRONMENT "CONF_PROGRAMS=optypes_valid")
  set_tests_properties(conformance_np4 conformance_fatal_np7 conformance_overflow
                       conformance_optypes_np5 PROPERTIES TIMEOUT ${COLLSIM_HANG_GUARD})
endif()
