# What the end-to-end tests that run as CMake scripts (cmake -DMODE=... -P FILE.cmake)
# share: a fresh scratch directory DIR, fail(), which names the test (TEST_NAME), and
# run(), which runs a command, fails the test if it exits non-zero and leaves its
# output in OUT. Included in script mode by guidelines/guidelines.cmake and
# validate/calibrate.cmake.
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
function(fail msg)
  message(FATAL_ERROR "${TEST_NAME}: ${msg}")
endfunction()
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("$ ${ARGN}\n${out}${err}")
  if(NOT rc EQUAL 0)
    fail("exit status ${rc} from: ${ARGN}")
  endif()
  set(OUT "${out}" PARENT_SCOPE)
endfunction()
