// dsh-sim's entry for the network scenarios (collateral-damage, deadlock):
// dsh-sim hands the command line over when the scenario file's
// [scenario] kind is one of them.
#pragma once

namespace dsh::net {

inline constexpr int kNotNetScenario = -1;

// Runs a network scenario and returns the exit status, or kNotNetScenario
// when the command line names no network scenario file.
int dispatch(int argc, char** argv);

}  // namespace dsh::net
