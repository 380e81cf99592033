# Test-only kernels (tests/kernels/testk.c): never registered, so `collsim
# list` does not show them. Built twice, as the registered kernels are:
# against SMPI (collsim-testk-smpi, run by smpirun) and against the
# recording MPI of the models (collsim-testk-model, linked with the models).
# tests/model_nb.sh compares the two.
add_executable(collsim-testk-smpi tests/kernels/testk.c tests/kernels/testk_smpi.c)
target_include_directories(collsim-testk-smpi BEFORE PRIVATE ${SMPI_INCLUDE}/smpi)
target_compile_options(collsim-testk-smpi PRIVATE -include ${SMPI_INCLUDE}/smpi/smpi_helpers.h
                                                  -fPIC -D_GNU_SOURCE)
target_link_options(collsim-testk-smpi PRIVATE -shared -Wl,-z,defs)
target_link_libraries(collsim-testk-smpi ${SIMGRID_LIB})

add_executable(collsim-testk-model tests/kernels/testk.c tests/kernels/testk_model.c)
target_include_directories(collsim-testk-model BEFORE PRIVATE models/mpirec)
target_link_libraries(collsim-testk-model collsim)

# Nonblocking messages and library collectives on a node communicator,
# priced by the models and equal to SMPI to 1e-9 on abg (p = 5 and 12,
# virtual nodes of 4; a few sizes); calls the models cannot price fail with
# a message naming them. Larger: bash tests/model_nb.sh build "3-17,33" "0,1000,65536,1048576".
add_test(NAME model_nb COMMAND bash ${CMAKE_SOURCE_DIR}/tests/model_nb.sh ${CMAKE_BINARY_DIR}
                               "5,12" "0,1000,300000")
set_tests_properties(model_nb PROPERTIES TIMEOUT ${COLLSIM_HANG_GUARD})
