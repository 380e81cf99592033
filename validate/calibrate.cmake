# collsim calibrate: the unit test of the fits (validate/calibfit.c, GSL; built into
# collsim_analysis with validate/calibration.c) and two end-to-end tests. Included from CMakeLists.txt; the same file also runs
# as a CMake script (cmake -DMODE=... -P calibrate.cmake) for the end-to-end tests.

if(CMAKE_SCRIPT_MODE_FILE)
  # ---- script mode: the end-to-end tests ---------------------------------------------
  # Variables: MODE (quick | smpi), CLI (collsim-cli), SMPI_DRIVER (collsim-smpi), DIR.
  set(TEST_NAME "calibrate_${MODE}")
  include(${CMAKE_CURRENT_LIST_DIR}/../tests/script.cmake)
  # Compares a figure printed by calibrate ("NAME VALUE") with the expected one.
  function(expect_near text name want tol)
    if(NOT text MATCHES " ${name} ([0-9.eE+-]+)")
      fail("no '${name}' in the output")
    endif()
    set(got "${CMAKE_MATCH_1}")
    execute_process(COMMAND awk "BEGIN { d = (${got}) - (${want}); if (d < 0) d = -d; exit !(d <= ${tol} * (${want})) }"
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      fail("${name} = ${got}, expected ${want} within ${tol} (relative)")
    endif()
    message("ok: ${name} = ${got} (expected ${want}, tolerance ${tol})")
  endfunction()

  if(MODE STREQUAL "quick")
    # Bad usage: exit 2 with a message naming what is valid; nothing runs.
    foreach(case "--bogus;valid: --np, --hostfile, --backend" "--backend;foo;valid: mpi, smpi"
                 "--np;1;>= 2" "--out;p.txt;must end in .xml" "--backend;smpi;needs --platform")
      list(POP_BACK case pattern)
      execute_process(COMMAND "${CLI}" calibrate ${case} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
      string(FIND "${err}" "${pattern}" at)
      string(REPLACE ";" " " shown "${case}")
      if(NOT rc EQUAL 2 OR at EQUAL -1)
        fail("calibrate ${shown}: status ${rc} (want 2), stderr '${err}' (want '${pattern}')")
      endif()
      message("ok: calibrate ${shown} -> 2, '${pattern}'")
    endforeach()
    # This machine, 2 ranks, few sizes: the files exist, the front door's own
    # smpirun re-measurement passes, and an independent SMPI program runs on them.
    run("${CLI}" calibrate --np 2 --quick --out "${DIR}/p.xml")
    if(NOT OUT MATCHES "verify: ok")
      fail("the verification step did not report ok")
    endif()
    foreach(f p.xml p.hostfile p-samples.csv)
      if(NOT EXISTS "${DIR}/${f}")
        fail("${DIR}/${f} was not written")
      endif()
    endforeach()
    file(STRINGS "${DIR}/p.hostfile" hosts)
    list(LENGTH hosts np)
    run("${CLI}" platform --print-flags)
    string(STRIP "${OUT}" flags)
    separate_arguments(flags UNIX_COMMAND "${flags}")
    run(smpirun -np ${np} -platform "${DIR}/p.xml" -hostfile "${DIR}/p.hostfile" -no-privatize ${flags}
        --log=root.thres:warning "${SMPI_DRIVER}" check --coll allreduce --algo native --count 0,1,1009)
    if(NOT OUT MATCHES "RESULT p=${np} passed=[1-9][0-9]* failed=0")
      fail("MPI_Allreduce on the calibrated platform did not pass")
    endif()
    # validate on that platform, one launch of one size: the driver takes the drift
    # probes between the sizes (sim/calibrate.c through bench) into the launch's
    # probes file, and the report judges the machine's state from them.
    run("${CLI}" validate --platform "${DIR}/p.xml" --out "${DIR}/val" --coll allreduce
        --algos butterfly --np 2 --bytes 1024 --type double --launches 1 --reps 5)
    if(NOT OUT MATCHES "Machine state\\*\\* \\(drift[^;]*; ([0-9]+) probes\\): median drift")
      fail("the report does not judge the machine's state from drift probes")
    endif()
    set(nprobes "${CMAKE_MATCH_1}")
    file(STRINGS "${DIR}/val/probes-allreduce-p2-double-L1.csv" rows REGEX "^(xchg_intra|reduce|memcpy),")
    list(LENGTH rows nrows)
    math(EXPR want "${nprobes} * 12")
    if(NOT nrows EQUAL want)
      fail("${nrows} probe samples in the launch's file, expected ${nprobes} probes x 12")
    endif()
    message("ok: validate took ${nrows} samples of ${nprobes} drift probes and judged the state")
  elseif(MODE STREQUAL "smpi")
    # A simulated machine with known parameters (2 nodes x 3 ranks, RN binds from
    # k = 3; copies 3x cheaper than reductions): calibrate must find them again in
    # the platform it writes.
    run("${CLI}" platform maxrate --nodes 2 --ppn 3 --alpha 2e-6 --Rb 4e9 --RN 9e9 --alpha-l 5e-7
        --beta-l 1e-10 --gamma 3e-10 --gamma-copy 1e-10 --out "${DIR}/in.xml"
        --hostfile "${DIR}/in.hostfile")
    run("${CLI}" calibrate --backend smpi --platform "${DIR}/in.xml" --hostfile "${DIR}/in.hostfile"
        --np 6 --quick --out "${DIR}/out.xml")
    foreach(pair "alpha;2e-6" "alpha_l;5e-7" "beta_l;1e-10" "Rb;4e9" "RN;9e9" "gamma;3e-10")
      list(GET pair 0 name)
      list(GET pair 1 want)
      string(REGEX MATCH "written: [^\n]*\n[^\n]*" written "${OUT}")
      expect_near("${written}" ${name} ${want} 0.01)
    endforeach()
    # A maxrate platform prices copies with their own fit (per byte), not as reductions;
    # the verification re-measures them under smpirun.
    file(READ "${DIR}/out.xml" xml)
    string(REGEX MATCH "copy=0:0:[0-9.eE+-]+" copy "${xml}")
    string(REPLACE "copy=0:0:" " copy " copy "${copy}")
    expect_near("${copy}" copy 1e-10 0.01)
    if(NOT OUT MATCHES "copy     every size against the 1 segments")
      fail("the verification did not re-measure the copies")
    endif()
    if(NOT OUT MATCHES "verify: ok")
      fail("the verification step did not report ok")
    endif()
  else()
    fail("unknown MODE '${MODE}'")
  endif()
  file(REMOVE_RECURSE "${DIR}")
  return()
endif()

# ---- build rules -----------------------------------------------------------------------
add_executable(test_calibfit ${CMAKE_SOURCE_DIR}/tests/test_calibfit.c)
target_link_libraries(test_calibfit collsim_analysis m)

# Synthetic samples with known alpha, beta, gamma, Rb, RN, exact and noisy.
add_test(NAME calibfit COMMAND test_calibfit)
# The analysis of collsim validate (validate/validation.c): errors, unstable flags,
# medians, the report's figures (tests/test_validation.c).
add_executable(test_validation ${CMAKE_SOURCE_DIR}/tests/test_validation.c)
target_link_libraries(test_validation collsim_analysis m)
add_test(NAME validation COMMAND test_validation)
# Several launches (validate/launches.c): the median of the launches' medians
# and the launch-spread flag, on synthetic per-launch data (tests/test_launches.c).
add_executable(test_launches ${CMAKE_SOURCE_DIR}/tests/test_launches.c)
target_link_libraries(test_launches collsim_analysis m)
add_test(NAME launches COMMAND test_launches)
# Drift probes (validate/drift.c): synthetic calibration and probe files, unscaled
# and scaled by 0.5 (tests/test_drift.c).
add_executable(test_drift ${CMAKE_SOURCE_DIR}/tests/test_drift.c)
target_link_libraries(test_drift collsim_analysis m)
add_test(NAME drift COMMAND test_drift)
add_test(NAME validate_usage COMMAND bash ${CMAKE_SOURCE_DIR}/tests/validate_usage.sh
                                     $<TARGET_FILE:collsim-cli>)
# This machine, --quick: the platform is written, and smpirun runs on it.
add_test(NAME calibrate_quick
         COMMAND ${CMAKE_COMMAND} -DMODE=quick -DCLI=$<TARGET_FILE:collsim-cli>
                 -DSMPI_DRIVER=$<TARGET_FILE:collsim-smpi> -DDIR=${CMAKE_BINARY_DIR}/calibrate_quick
                 -P ${CMAKE_CURRENT_LIST_FILE})
set_tests_properties(calibrate_quick PROPERTIES TIMEOUT ${COLLSIM_HANG_GUARD} RUN_SERIAL TRUE)
# A simulated max-rate machine: calibrate recovers its parameters.
add_test(NAME calibrate_smpi
         COMMAND ${CMAKE_COMMAND} -DMODE=smpi -DCLI=$<TARGET_FILE:collsim-cli>
                 -DSMPI_DRIVER=$<TARGET_FILE:collsim-smpi> -DDIR=${CMAKE_BINARY_DIR}/calibrate_smpi
                 -P ${CMAKE_CURRENT_LIST_FILE})
set_tests_properties(calibrate_smpi PROPERTIES TIMEOUT ${COLLSIM_HANG_GUARD})
# A fit whose launch-to-launch spread exceeds its target: calibrate warns and
# validate's report flags it, on injected noisy samples (tests/test_calib_spread.c).
add_executable(test_calib_spread ${CMAKE_SOURCE_DIR}/tests/test_calib_spread.c)
target_link_libraries(test_calib_spread collsim_analysis m)
add_test(NAME calib_spread COMMAND test_calib_spread)
