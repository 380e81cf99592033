# plots/: gnuplot scripts drawn by `collsim plot` (plots/plot.c, options in cli/plot.c), and their test.
# Included from the top-level CMakeLists.txt.

# Where `collsim plot` finds plots/*.gp (COLLSIM_PLOTS_DIR in the environment
# overrides it); only plots/plot.c and plots/map_plot.c are compiled with it.
set_property(SOURCE ${CMAKE_SOURCE_DIR}/plots/plot.c ${CMAKE_SOURCE_DIR}/plots/map_plot.c APPEND PROPERTY
             COMPILE_DEFINITIONS COLLSIM_PLOTS_DIR="${CMAKE_SOURCE_DIR}/plots")

# Every sample CSV x every picture kind, the files written, and the errors.
add_test(NAME plots COMMAND bash ${CMAKE_SOURCE_DIR}/tests/plots/run.sh $<TARGET_FILE:collsim-cli>)
set_tests_properties(plots PROPERTIES TIMEOUT ${COLLSIM_HANG_GUARD})
