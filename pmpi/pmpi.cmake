# libcollsim-pmpi.so: the PMPI interposition library (pmpi/select.c + pmpi/pmpi.c,
# pmpi/README.md), built from the same kernel sources as collsim-mpi, compiled
# -fPIC into one shared object linked to the MPI library. Included from
# CMakeLists.txt after find_package(MPI).

if(NOT TARGET MPI::MPI_C)
  find_package(MPI REQUIRED COMPONENTS C)
endif()
find_package(Threads REQUIRED)

# COLLSIM_KERNELS: the one list of kernel sources (CMakeLists.txt), with the
# real-MPI backend (algos/backend.h).

# tuning/table.c: collsim's tuning table (COLLSIM_TUNING, docs/tuning.md).
add_library(collsim-pmpi SHARED ${CMAKE_SOURCE_DIR}/pmpi/pmpi.c ${CMAKE_SOURCE_DIR}/pmpi/select.c ${COLLSIM_KERNELS}
                                 ${CMAKE_SOURCE_DIR}/backends/mpi.c ${CMAKE_SOURCE_DIR}/tuning/table.c)
set_target_properties(collsim-pmpi PROPERTIES
  OUTPUT_NAME collsim-pmpi                      # libcollsim-pmpi.so
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}
  POSITION_INDEPENDENT_CODE ON
  C_VISIBILITY_PRESET hidden)                   # only the MPI_* wrappers are exported
# No algos/ on the include path: algos/sched.h would hide the system <sched.h>.
target_compile_definitions(collsim-pmpi PRIVATE _GNU_SOURCE)
target_link_libraries(collsim-pmpi PRIVATE MPI::MPI_C m Threads::Threads)
target_link_options(collsim-pmpi PRIVATE -Wl,-z,defs)

# The test application: an unmodified MPI program (not linked to collsim).
add_executable(pmpi_app ${CMAKE_SOURCE_DIR}/tests/pmpi/app.c)
target_link_libraries(pmpi_app MPI::MPI_C)

# run.sh APP LIB CLI NPS: every registered non-native algorithm against the
# library, byte for byte, plus fallback, unknown-name, threshold and
# inconsistent-setting cases. Split by process counts so ctest -j can overlap.
set(COLLSIM_PMPI_RUN bash ${CMAKE_SOURCE_DIR}/tests/pmpi/run.sh $<TARGET_FILE:pmpi_app>
    $<TARGET_FILE:collsim-pmpi> $<TARGET_FILE:collsim-cli>)
# Sampled rounds (PMPI_ROUNDS, tests/pmpi/registry.sh): one process runs the
# first 3 (every kernel's p = 1 case is held by check_smpi_p1_6 and check_mpi;
# here it is the library's p = 1 path); 2 and 3 processes run the odd and the
# even rounds, 4 and 5 the even and the odd ones (every algorithm at an even
# and at an odd count). All rounds at every count:
#   tests/pmpi/run.sh APP LIB CLI 1,2,3,4,5
add_test(NAME pmpi_np1 COMMAND ${COLLSIM_PMPI_RUN} 1)
set_tests_properties(pmpi_np1 PROPERTIES ENVIRONMENT PMPI_ROUNDS=3)
add_test(NAME pmpi_np2 COMMAND ${COLLSIM_PMPI_RUN} 2)
set_tests_properties(pmpi_np2 PROPERTIES ENVIRONMENT PMPI_ROUNDS=1/2)
add_test(NAME pmpi_np3 COMMAND ${COLLSIM_PMPI_RUN} 3)
set_tests_properties(pmpi_np3 PROPERTIES ENVIRONMENT PMPI_ROUNDS=0/2)
add_test(NAME pmpi_np4 COMMAND ${COLLSIM_PMPI_RUN} 4)
set_tests_properties(pmpi_np4 PROPERTIES ENVIRONMENT PMPI_ROUNDS=0/2)
add_test(NAME pmpi_np5 COMMAND ${COLLSIM_PMPI_RUN} 5)
set_tests_properties(pmpi_np5 PROPERTIES ENVIRONMENT PMPI_ROUNDS=1/2)
set_tests_properties(pmpi_np1 pmpi_np2 pmpi_np3 pmpi_np4 pmpi_np5 PROPERTIES TIMEOUT ${COLLSIM_HANG_GUARD})

# libcollsim-smpi.o: the same wrappers and selection (pmpi/select.c) with
# the SMPI part (pmpi/smpi.c) and the kernels compiled as collsim-smpi's are,
# charged by the SimGrid backend (backends/smpi.c), merged into ONE
# relocatable object that an SMPI application links (smpicc app.c
# build/libcollsim-smpi.o): SMPI's mpi.h declares MPI_* weak, so an archive
# member would never be pulled in, and a shared library's definitions are not
# the ones smpirun's dlopen binds (pmpi/README.md "Under SMPI"). Every symbol
# but the MPI_* wrappers is made local (objcopy --localize-hidden), so no
# name of collsim's can clash with the application's.
add_library(collsim-smpi-parts OBJECT ${CMAKE_SOURCE_DIR}/pmpi/select.c
            ${CMAKE_SOURCE_DIR}/pmpi/smpi.c ${COLLSIM_KERNELS} ${CMAKE_SOURCE_DIR}/backends/smpi.c
            ${CMAKE_SOURCE_DIR}/tuning/table.c)
target_include_directories(collsim-smpi-parts BEFORE PRIVATE ${SMPI_INCLUDE}/smpi)
target_compile_options(collsim-smpi-parts PRIVATE -include ${SMPI_INCLUDE}/smpi/smpi_helpers.h
                       -fPIC -D_GNU_SOURCE)
set_target_properties(collsim-smpi-parts PROPERTIES C_VISIBILITY_PRESET hidden)
set(COLLSIM_SMPI_OBJ ${CMAKE_BINARY_DIR}/libcollsim-smpi.o)
add_custom_command(OUTPUT ${COLLSIM_SMPI_OBJ}
  COMMAND ${CMAKE_LINKER} -r -o ${COLLSIM_SMPI_OBJ}.tmp $<TARGET_OBJECTS:collsim-smpi-parts>
  COMMAND ${CMAKE_OBJCOPY} --localize-hidden ${COLLSIM_SMPI_OBJ}.tmp ${COLLSIM_SMPI_OBJ}
  COMMAND ${CMAKE_COMMAND} -E remove ${COLLSIM_SMPI_OBJ}.tmp
  DEPENDS collsim-smpi-parts $<TARGET_OBJECTS:collsim-smpi-parts>
  COMMAND_EXPAND_LISTS VERBATIM
  COMMENT "Merging libcollsim-smpi.o")
add_custom_target(collsim-smpi-lib ALL DEPENDS ${COLLSIM_SMPI_OBJ})
find_program(SMPICC smpicc REQUIRED)
include(${CMAKE_SOURCE_DIR}/apps/apps.cmake)

# tests/pmpi/app.c under smpirun, alone and linked with libcollsim-smpi.o:
# every registered algorithm against SMPI's collectives, byte for byte
# (tests/pmpi/smpi.sh; about 4 s at np 5; the full matrix:
#   bash tests/pmpi/smpi.sh build/pmpi_app-smpi-plain build/pmpi_app-smpi build/collsim-cli 1,2,3,4,5,7,8
# ).
foreach(v plain lib)
  set(out ${CMAKE_BINARY_DIR}/pmpi_app-smpi)
  set(extra ${COLLSIM_SMPI_OBJ})
  if(v STREQUAL plain)
    set(out ${CMAKE_BINARY_DIR}/pmpi_app-smpi-plain)
    set(extra "")
  endif()
  add_custom_command(OUTPUT ${out}
    COMMAND ${SMPICC} -O2 ${CMAKE_SOURCE_DIR}/tests/pmpi/app.c ${extra} -lm -o ${out}
    DEPENDS ${CMAKE_SOURCE_DIR}/tests/pmpi/app.c ${COLLSIM_SMPI_OBJ} collsim-smpi-lib VERBATIM)
  list(APPEND COLLSIM_PMPI_SMPI_APPS ${out})
endforeach()
add_custom_target(pmpi-smpi-apps ALL DEPENDS ${COLLSIM_PMPI_SMPI_APPS})
add_test(NAME pmpi_smpi COMMAND bash ${CMAKE_SOURCE_DIR}/tests/pmpi/smpi.sh
         ${CMAKE_BINARY_DIR}/pmpi_app-smpi-plain ${CMAKE_BINARY_DIR}/pmpi_app-smpi
         $<TARGET_FILE:collsim-cli> 5)
set_tests_properties(pmpi_smpi PROPERTIES TIMEOUT ${COLLSIM_HANG_GUARD})
