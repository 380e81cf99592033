# The order ctest -j starts tests in: the longest first, so that the two
# workers of CI's 2-core machine finish together instead of one waiting on a
# long test started last. COST is ctest's own estimate of a test's time: it
# orders the tests and changes nothing else (a build directory that has run
# the suite uses the times it measured instead). Rough seconds, from the
# per-test times of `.ci/run` (docs/scale.md "The test suite"); a test that is
# not there (renamed, or its part not built) is skipped.
# Included last from CMakeLists.txt, after every add_test.
foreach(pair "demo_quick 120" "registry_dummy 95" "model_vs_sim_p2_20 80" "check_smpi_p64 88"
             "pmpi_np2 60" "check_smpi_p100 87" "conformance_np4 76" "conformance_overflow 76"
             "model_vs_sim_p21_40 72" "model_vs_sim_p2_11 70" "check_smpi_p48 60"
             "model_vs_sim_p1152 60" "nodeaware 60" "check_smpi_p7_11 55" "check_smpi_p24_27 55")
  separate_arguments(pair)
  list(GET pair 0 name)
  list(GET pair 1 cost)
  if(TEST ${name})
    set_tests_properties(${name} PROPERTIES COST ${cost})
  endif()
endforeach()
