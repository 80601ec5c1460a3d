// SPDX-License-Identifier: Apache-2.0
// The exit statuses of every program of the project (docs/guide/tools.md, "Exit
// status"), defined once.
#pragma once

namespace dsh {

// Exit statuses shared by every tool (docs/guide/tools.md, "Exit status").
enum ExitCode : int {
  kExitOk = 0,
  kExitCheckFailed = 1,  // ran; drops, a lockstep mismatch or a differing --expect
  kExitBadInput = 2,     // refused before any work: option, field, file, output path
  kExitToolFailed = 3,   // a process or a write failed during the run
  kExitInvalidExperiment = 4,  // the stimulus did not happen as the scenario describes
  // Interrupted: 128 + the signal, 130 for Ctrl-C, 143 for SIGTERM
  // (install_interrupt_cleanup, pool_interrupted_status).
};

}  // namespace dsh
