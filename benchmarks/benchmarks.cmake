# Programs of benchmarks/scale.sh (not tests).
# The engine's floor: a bare SMPI program replaying a kernel's recorded messages.
add_executable(collsim-floor benchmarks/floor.c algos/sched.c)
target_include_directories(collsim-floor BEFORE PRIVATE ${SMPI_INCLUDE}/smpi algos)
target_compile_options(collsim-floor PRIVATE -include ${SMPI_INCLUDE}/smpi/smpi_helpers.h -fPIC
                                             -D_GNU_SOURCE)
target_link_options(collsim-floor PRIVATE -shared -Wl,-z,defs)
target_link_libraries(collsim-floor ${SIMGRID_LIB})
# Messages of one call of a kernel, from its model (the kernel recorded).
add_executable(collsim-msgcount benchmarks/msgcount.c)
target_include_directories(collsim-msgcount BEFORE PRIVATE models/mpirec)
target_link_libraries(collsim-msgcount collsim)
