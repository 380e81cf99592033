# The example application (apps/sgd.c, apps/README.md), built from ONE source
# for both backends: with smpicc, linked with libcollsim-smpi.o (the one line
# an SMPI user adds), and with the MPI library (for libcollsim-pmpi.so under
# mpirun). Included from pmpi/pmpi.cmake.

set(COLLSIM_SGD_SMPI ${CMAKE_BINARY_DIR}/sgd-smpi)
add_custom_command(OUTPUT ${COLLSIM_SGD_SMPI}
  COMMAND ${SMPICC} -O2 -Wall -Wextra ${CMAKE_SOURCE_DIR}/apps/sgd.c ${COLLSIM_SMPI_OBJ} -lm
          -o ${COLLSIM_SGD_SMPI}
  DEPENDS ${CMAKE_SOURCE_DIR}/apps/sgd.c ${COLLSIM_SMPI_OBJ} collsim-smpi-lib
  COMMENT "smpicc apps/sgd.c build/libcollsim-smpi.o -o sgd-smpi" VERBATIM)
add_custom_target(sgd-smpi-app ALL DEPENDS ${COLLSIM_SGD_SMPI})

add_executable(sgd-mpi ${CMAKE_SOURCE_DIR}/apps/sgd.c)
target_link_libraries(sgd-mpi MPI::MPI_C m)

# sgd under smpirun with COLLSIM_ALLREDUCE=circulant and with the library:
# the application's own check, circulant serving every allreduce, each
# allreduce's time equal to bench's (1e-9), then under mpirun with
# libcollsim-pmpi.so and the same settings. About 4 s.
add_test(NAME app_sgd COMMAND bash ${CMAKE_SOURCE_DIR}/apps/test_sgd.sh ${COLLSIM_SGD_SMPI}
         $<TARGET_FILE:sgd-mpi> $<TARGET_FILE:collsim-pmpi> $<TARGET_FILE:collsim-cli>)
# COLLSIM_STRICT=1 aborts under mpirun (an unknown name; a call the algorithm
# refuses) and under smpirun (an unknown name). About 3 s.
add_test(NAME pmpi_strict COMMAND bash ${CMAKE_SOURCE_DIR}/apps/test_strict.sh
         ${COLLSIM_SGD_SMPI} $<TARGET_FILE:pmpi_app> $<TARGET_FILE:collsim-pmpi>
         $<TARGET_FILE:collsim-cli>)
set_tests_properties(app_sgd pmpi_strict PROPERTIES TIMEOUT ${COLLSIM_HANG_GUARD})
