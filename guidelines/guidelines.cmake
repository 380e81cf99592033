# collsim guidelines: the unit test of the analysis (guidelines/guidelines.c, GSL; built
# into collsim_analysis), an end-to-end run under SMPI, and the resume test of the bench CSVs it
# relies on. Included from CMakeLists.txt; the same file also runs as a CMake script
# (cmake -DMODE=smpi|resume -P guidelines.cmake) for the end-to-end tests.

if(CMAKE_SCRIPT_MODE_FILE)
  # Variables: MODE (smpi | resume), CLI (collsim-cli), DIR (scratch, removed).
  set(TEST_NAME "${MODE}")
  include(${CMAKE_CURRENT_LIST_DIR}/../tests/script.cmake)

  if(MODE STREQUAL "smpi")
    # abg, p = 8, the default library side (lib:ompi): the files exist, every row is
    # complete, and our side (circulant)
    # violates none of (2) rs<=ar, (4) ar<=rs+agv, (5) red<=ar.
    run("${CLI}" platform abg --np 8 --out "${DIR}/abg8.xml" --hostfile "${DIR}/abg8.hostfile")
    run("${CLI}" guidelines --platform "${DIR}/abg8.xml" --np 8 --bytes 1K,64K
        --out "${DIR}/gl" --quiet)
    foreach(f guidelines.csv violations.md)
      if(NOT EXISTS "${DIR}/gl/${f}")
        fail("${DIR}/gl/${f} was not written")
      endif()
    endforeach()
    file(STRINGS "${DIR}/gl/guidelines.csv" rows)
    set(ours 0)
    foreach(row IN LISTS rows)
      if(row MATCHES "^#" OR row MATCHES "^guideline,")
        continue()
      endif()
      string(REPLACE "," ";" f "${row}")
      list(LENGTH f nf)
      if(NOT nf EQUAL 11)
        fail("row with ${nf} columns (want 11): ${row}")
      endif()
      list(GET f 0 id)
      list(GET f 9 violated)
      list(GET f 10 side)
      if(side STREQUAL "circulant")
        math(EXPR ours "${ours} + 1")
        if(id MATCHES "^(rs<=ar|ar<=rs\\+agv|red<=ar)$" AND violated STREQUAL "1")
          fail("our side violates ${id}: ${row}")
        endif()
      endif()
    endforeach()
    if(ours LESS 20)
      fail("only ${ours} rows of the circulant side")
    endif()
    file(READ "${DIR}/gl/violations.md" md)
    if(NOT md MATCHES "^# Guideline violations" OR NOT OUT STREQUAL md)
      fail("violations.md is not what was printed")
    endif()
    # Without --lib the library side is Open MPI's selector, and the summary names it.
    if(NOT md MATCHES "side lib:ompi: [0-9]+ of [0-9]+ comparisons")
      fail("violations.md does not name the library side lib:ompi")
    endif()
    # A second run resumes: nothing to time, the same guidelines.csv.
    file(READ "${DIR}/gl/guidelines.csv" first)
    run("${CLI}" guidelines --platform "${DIR}/abg8.xml" --np 8 --bytes 1K,64K
        --out "${DIR}/gl" --quiet)
    file(READ "${DIR}/gl/guidelines.csv" second)
    if(NOT first STREQUAL second)
      fail("the second run changed guidelines.csv")
    endif()
  elseif(MODE STREQUAL "resume")
    # Kill a bench (its whole process group, SIGKILL) after the first rows, add a
    # half row, rerun: every (algo, bytes) once, no partial line, old rows intact.
    run("${CLI}" platform abg --np 8 --out "${DIR}/abg8.xml" --hostfile "${DIR}/abg8.hostfile")
    set(F "${DIR}/bench.csv")
    set(cmd "${CLI}" bench --platform "${DIR}/abg8.xml" --np 8 --coll allreduce
        --algos circulant,butterfly --bytes 8-4M:x4 --out "${F}" --quiet)
    string(REPLACE ";" " " cmdline "${cmd}")
    execute_process(COMMAND bash -c "
      setsid ${cmdline} & pid=$!
      for i in $(seq 1 600); do
        [ $(grep -c '^allreduce,' '${F}' 2>/dev/null || echo 0) -ge 2 ] && break
        sleep 0.05
      done
      kill -9 -$pid; wait $pid 2>/dev/null
      sleep 0.2
      exit 0" RESULT_VARIABLE rc)
    file(STRINGS "${F}" before REGEX "^allreduce,")
    list(LENGTH before nbefore)
    message("rows before the kill: ${nbefore}")
    if(nbefore LESS 1)
      fail("no row was written before the kill")
    endif()
    if(NOT nbefore LESS 20)
      fail("the bench finished before the kill: nothing to resume (make it longer)")
    endif()
    file(APPEND "${F}" "allreduce,circulant,8,409")
    run(${cmd})
    file(READ "${F}" all)
    if(NOT all MATCHES "\n$")
      fail("the file does not end with a newline")
    endif()
    file(STRINGS "${F}" after REGEX "^allreduce,")
    list(LENGTH after nafter)
    if(NOT nafter EQUAL 20)
      fail("${nafter} rows, want 20 (2 algorithms x 10 sizes): ${after}")
    endif()
    # A whole row has as many fields as the header (docs/csv.md).
    file(STRINGS "${F}" hdr REGEX "^coll,")
    string(REPLACE "," ";" hf "${hdr}")
    list(LENGTH hf nh)
    set(keys "")
    foreach(row IN LISTS after)
      string(REPLACE "," ";" f "${row}")
      list(LENGTH f nf)
      if(NOT nf EQUAL nh)
        fail("partial row (${nf} fields, the header has ${nh}): ${row}")
      endif()
      list(GET f 1 algo)
      list(GET f 3 bytes)
      list(FIND keys "${algo}/${bytes}" at)
      if(NOT at EQUAL -1)
        fail("${algo} ${bytes} twice")
      endif()
      list(APPEND keys "${algo}/${bytes}")
    endforeach()
    foreach(row IN LISTS before)
      list(FIND after "${row}" at)
      if(at EQUAL -1)
        fail("row from before the kill changed or vanished: ${row}")
      endif()
    endforeach()
    message("ok: ${nbefore} rows kept, ${nafter} rows in all, each once")
  else()
    fail("unknown MODE '${MODE}'")
  endif()
  file(REMOVE_RECURSE "${DIR}")
  return()
endif()

# ---- build rules -------------------------------------------------------------------------
add_executable(test_guidelines ${CMAKE_SOURCE_DIR}/tests/test_guidelines.c)
target_link_libraries(test_guidelines collsim_analysis m)

add_test(NAME guidelines_arith COMMAND test_guidelines)
add_test(NAME guidelines_smpi
         COMMAND ${CMAKE_COMMAND} -DMODE=smpi -DCLI=$<TARGET_FILE:collsim-cli>
                 -DDIR=${CMAKE_BINARY_DIR}/guidelines_smpi -P ${CMAKE_CURRENT_LIST_FILE})
set_tests_properties(guidelines_smpi PROPERTIES TIMEOUT ${COLLSIM_HANG_GUARD})
add_test(NAME bench_resume
         COMMAND ${CMAKE_COMMAND} -DMODE=resume -DCLI=$<TARGET_FILE:collsim-cli>
                 -DDIR=${CMAKE_BINARY_DIR}/bench_resume -P ${CMAKE_CURRENT_LIST_FILE})
set_tests_properties(bench_resume PROPERTIES TIMEOUT ${COLLSIM_HANG_GUARD})
# collsim demo --quick (demo/demo.c): every step, then a second run that reuses it all
# but a CSV of an older collsim, which it starts over (tests/demo_quick.sh).
add_test(NAME demo_quick
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/demo_quick.sh $<TARGET_FILE:collsim-cli>
                 ${CMAKE_BINARY_DIR}/demo_quick)
set_tests_properties(demo_quick PROPERTIES TIMEOUT ${COLLSIM_HANG_GUARD}
                     FIXTURES_SETUP demo_out) # its output: tests/demo_libs.sh
