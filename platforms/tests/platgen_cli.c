/*
 * platgen_cli.c: a stand-alone driver for the platform generator, used by the tests and by
 * regen.sh before the collsim CLI exists.  "platgen KIND [options]" behaves exactly like
 * "collsim platform KIND [options]".
 */
#include "../platgen.h"

int main(int argc, char **argv) {
  static char platform[] = "platform";
  argv[0] = platform;
  return cs_platform_main(argc, argv);
}
