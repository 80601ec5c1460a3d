// SPDX-License-Identifier: Apache-2.0
// The network scenarios' points for the run harness (harness.h): a point of
// S2 is (scheme, cc), a point of S3 is (scheme, cc, load, seed), each with an
// ID (collateral-damage,scheme=dsh,cc=none;
// deadlock,scheme=sih,cc=dcqcn,load=0.5,seed=3) and the parameters that
// decide its result; the scenario runners add how to run a point, its
// report line and the outputs.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "harness.h"
#include "net_setup.h"

namespace dsh::net {

using sc::KeyValues;

struct NetPoint {
  std::string id, scheme, cc;
  uint64_t seed = 0;  // S3 only
  std::string load;   // S3, benchmark: the load as its point text ("0.5")
  KeyValues extra;    // benchmark: further coordinates (workload, buffer_mb)
};

// A point's ID: <scenario.name>,scheme=S,cc=C[,extra...][,load=L][,seed=N].
std::string net_point_id(const std::string& name, const std::string& scheme, const std::string& cc,
                         const uint64_t* seed, const std::string& load = "", const KeyValues& extra = {});

// What decides every point's result: every key of the scenario but those in
// `drop` (the point's own coordinates, the lists that choose points,
// run.jobs) and with `set` replaced or added (S3's effective duration).
KeyValues net_point_params(const KeyStore& k, const std::vector<std::string>& drop, const KeyValues& set);

// A network scenario as the harness runs it (run_fixed_sweep, harness.h):
// its points with their coordinates, beside the harness's IDs.
struct NetSweep : sc::FixedSweep {
  std::vector<NetPoint> points;  // every point of this run, in output order
};

// dsh-sim's options of a network run: the harness's and the plot's.
struct NetSweepOptions : sc::HarnessOptions {
  bool plot = true, full = false;
  std::string python, plot_script;
};

// With --full, `full_key` gives the run what `key` gives a default run; a
// `key` given on the command line beside --full would be dropped without a
// word: refused, naming both.
void refuse_beside_full(const KeyStore& k, const NetSweepOptions& o, const std::string& key,
                        const std::string& full_key);

// run_fixed_sweep with the points' IDs.
int run_net_sweep(const NetSweep& sweep, const NetSweepOptions& o);

// Runs the network plot script (o.plot_script, or the installed
// plot_net.py) with `args` (already quoted) under o.python; a failure is
// reported on stderr and does not fail the run. True when it wrote the plot.
bool plot_net(const NetSweepOptions& o, const std::string& args);

}  // namespace dsh::net
