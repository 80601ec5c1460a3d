// SPDX-License-Identifier: Apache-2.0
// Debian's libsystemc.so defines main(), which calls sc_main, so every
// program linked with it must define sc_main, even one with a main() of its
// own. The project's programs (dsh-sim, the tests) have their own main() and
// start the kernel from their runners: this is never called. The libraries
// define no sc_main, so a user's program brings its own.
#include <cstdio>

extern "C" int sc_main(int, char**) {  // as <systemc> declares it
  std::fprintf(stderr, "sc_main is not used: this program has its own main()\n");
  return 1;
}
