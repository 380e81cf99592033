# The order ctest -j starts tests in: the longest first, so that the two
# workers of CI's 2-core machine finish together instead of one waiting on a
# long test started last. COST is ctest's own estimate of a test's time: it
# orders the tests and changes nothing else (a build directory that has run
# the suite uses the times it measured instead). Rough seconds, from the
# per-test times of `.ci/run` (docs/scale.md "The test suite"); a test that is
# not there (renamed, or its part not built) is skipped.
# Included last from CMakeLists.txt, after every add_test.
foreach(pair "registry_dummy 100" "demo_quick 90" "conformance_np4 40" "check_smpi_p64 25"
             "check_smpi_p100 20" "check_smpi_p29_33 90" "check_smpi_p12_17 61" "check_smpi_p24_27 60"
             "model_vs_sim_p2_11 53" "check_mpi 52" "check_smpi_p7_11 50" "check_smpi_p48 50"
             "check_smpi_p18_23 44" "platforms 42" "model_vs_sim_p21_40 40" "lib_copy 39"
             "conformance_optypes_np5 37" "model_vs_sim_p1152 36" "lib_selector 33")
  separate_arguments(pair)
  list(GET pair 0 name)
  list(GET pair 1 cost)
  if(TEST ${name})
    set_tests_properties(${name} PROPERTIES COST ${cost})
  endif()
endforeach()
