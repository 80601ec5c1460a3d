// SPDX-License-Identifier: Apache-2.0
// A network's setup from its keys (systemc/network/net_setup.h): bad keys
// refused by name, PowerTCP's base RTT from the longest path.
#include <gtest/gtest.h>

#include <string>

#include "collateral.h"
#include "net_setup.h"

using namespace dsh;
using namespace dsh::net;

TEST(NetKeys, UnknownAndBadValuesAreRefusedByName) {
  KeyStore k;
  declare_collateral_keys(k);
  try {
    k.set("net.linkz", "x");
    FAIL() << "unknown key accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("net.linkz"), std::string::npos);
  }
  k.load_toml(DSH_SCENARIO_DIR "/collateral-damage.toml");
  k.set("dcqcn.kmax_kb", "100");  // below kmin 400
  try {
    build_setup(k);
    FAIL() << "kmax below kmin accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("dcqcn.kmax_kb"), std::string::npos);
  }
}

// tau for the S2 network: every host pair is 2 or 3 links of 2 us at
// 100 Gb/s; 3 links: 2 * 6 us + 3 * 1,500 B * 8 / 100 Gb/s = 12.36 us.
TEST(NetPowerTcp, BaseRttOfTheLongestPath) {
  KeyStore k;
  declare_collateral_keys(k);
  k.load_toml(DSH_SCENARIO_DIR "/collateral-damage.toml");
  NetSetup s = build_setup(k);
  EXPECT_NEAR(s.fp.powertcp_params.base_rtt_us, 12.36, 1e-9);
  k.set("powertcp.base_rtt_us", "20");
  EXPECT_DOUBLE_EQ(build_setup(k).fp.powertcp_params.base_rtt_us, 20);
}
