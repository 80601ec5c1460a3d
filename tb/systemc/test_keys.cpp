// SPDX-License-Identifier: Apache-2.0
// The key registry's bindings: a key declared in one line is listed by
// help(), range-checked with a message naming the key, the value, the range
// and the origin, and fills the member it names, converted by its type.
#include <gtest/gtest.h>

#include "params.h"

namespace dsh::sc {
namespace {

enum class Colour { Red, Blue };

struct Probe {
  uint64_t mtu_bytes = 0;
  uint64_t quantum_bytes = 0;
  unsigned jobs = 0;
  int dst = 0;
  double rate_gbps = 0;
  bool lossy = false;
  std::string name;
  std::vector<std::string> hosts;
  Colour colour = Colour::Red;
};

Colour parse_colour(const std::string& v) {
  if (v == "blue") return Colour::Blue;
  if (v == "red") return Colour::Red;
  throw ConfigError("not a colour we paint with (red | blue)");
}

KeyStore probe_keys() {
  KeyStore k;
  k.bind(uint_key("link.mtu_bytes", 64, 9216, "1500", "MTU"), &Probe::mtu_bytes);
  k.bind(uint_key("switch.quantum_bytes", 1, 1 << 20, "1600", "DWRR quantum"), &Probe::quantum_bytes);
  k.bind(uint_key("run.jobs", 1, 256, "2", "parallel points"), &Probe::jobs);
  k.bind(int_key("traffic.dst", -64, 63, "-1", "destination"), &Probe::dst);
  k.bind(real_key("link.rate_gbps", 0, 1e5, true, "100", "link rate"), &Probe::rate_gbps);
  k.bind(bool_key("run.lossy", "false", "lossy"), &Probe::lossy);
  k.bind(text_key("scenario.name", "s1", "name"), &Probe::name);
  k.bind(list_key("net.hosts", "H0..H2", "hosts"), &Probe::hosts);
  k.bind(choice_key("paint.colour", {"red", "blue", "green"}, "red", "colour"), &Probe::colour, parse_colour);
  return k;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(Keys, BoundKeyIsListedWithRangeAndDefault) {
  const std::string help = probe_keys().help();
  const auto at = help.find("link.mtu_bytes");
  ASSERT_NE(at, std::string::npos) << help;
  const std::string line = help.substr(at, help.find('\n', at) - at);
  EXPECT_NE(line.find("MTU [64..9216] (default 1500)"), std::string::npos) << line;
}

TEST(Keys, DefaultsFillEveryMember) {
  Probe p;
  probe_keys().fill(p);
  EXPECT_EQ(p.mtu_bytes, 1500u);
  EXPECT_EQ(p.quantum_bytes, 1600u);
  EXPECT_EQ(p.jobs, 2u);
  EXPECT_EQ(p.dst, -1);
  EXPECT_EQ(p.rate_gbps, 100.0);
  EXPECT_FALSE(p.lossy);
  EXPECT_EQ(p.name, "s1");
  EXPECT_EQ(p.hosts, (std::vector<std::string>{"H0", "H1", "H2"}));
  EXPECT_EQ(p.colour, Colour::Red);
}

// Each key reaches its own member (two keys of one type set apart, so a
// binding to the other member fails).
TEST(Keys, GivenValuesFillTheirMembers) {
  KeyStore k = probe_keys();
  k.set("link.mtu_bytes", "9000", "--set");
  k.set("switch.quantum_bytes", "4242", "--set");
  k.set("traffic.dst", "-7", "--set");
  k.set("link.rate_gbps", "400", "--set");
  k.set("run.lossy", "true", "--set");
  k.set("net.hosts", "A1..A2,B", "--set");
  k.set("paint.colour", "blue", "--set");
  Probe p;
  k.fill(p);
  EXPECT_EQ(p.mtu_bytes, 9000u);
  EXPECT_EQ(p.quantum_bytes, 4242u);
  EXPECT_EQ(p.dst, -7);
  EXPECT_EQ(p.rate_gbps, 400.0);
  EXPECT_TRUE(p.lossy);
  EXPECT_EQ(p.hosts, (std::vector<std::string>{"A1", "A2", "B"}));
  EXPECT_EQ(p.colour, Colour::Blue);
}

TEST(Keys, OutOfRangeNamesKeyValueRangeAndOrigin) {
  KeyStore k = probe_keys();
  const std::string e = error_of([&] { k.set("link.mtu_bytes", "10000", "x.toml:3"); });
  EXPECT_NE(e.find("x.toml:3"), std::string::npos) << e;
  EXPECT_NE(e.find("link.mtu_bytes"), std::string::npos) << e;
  EXPECT_NE(e.find("10000"), std::string::npos) << e;
  EXPECT_NE(e.find("64..9216"), std::string::npos) << e;
  Probe p;
  k.fill(p);
  EXPECT_EQ(p.mtu_bytes, 1500u);  // the refused value reached nothing
}

// A parse function's refusal names the key, the value and where it came from.
TEST(Keys, ParseRefusalNamesTheKey) {
  KeyStore k = probe_keys();
  k.set("paint.colour", "green", "--set");
  Probe p;
  const std::string e = error_of([&] { k.fill(p); });
  EXPECT_EQ(e, "paint.colour = 'green' (--set): not a colour we paint with (red | blue)");
}

// A member that cannot hold the declared range or type is refused at the
// declaration, not at a run.
TEST(Keys, MemberMustHoldTheDeclaration) {
  struct Narrow {
    uint8_t small = 0;
    bool flag = false;
    unsigned count = 0;
  };
  KeyStore k;
  EXPECT_THROW(k.bind(uint_key("a.big", 0, 1000, "0", ""), &Narrow::small), std::logic_error);
  EXPECT_THROW(k.bind(real_key("a.real", 0, 1, false, "0", ""), &Narrow::flag), std::logic_error);
  EXPECT_THROW(k.bind(int_key("a.negative", -1, 1, "0", ""), &Narrow::count), std::logic_error);
  EXPECT_NO_THROW(k.bind(uint_key("a.fits", 0, 255, "0", ""), &Narrow::small));
}

// Per-switch chip values: chip.<SWITCH>.<field> fills that switch's struct.
TEST(Keys, PerSwitchChipValues) {
  KeyStore k;
  k.allow_per_switch_chip();
  k.bind(uint_key("chip.cell_bytes", 16, 65536, "256", "cell"), &Probe::mtu_bytes);
  k.set("chip.S1.cell_bytes", "128", "--set");
  Probe s0, s1;
  k.fill(s0, "S0");
  k.fill(s1, "S1");
  EXPECT_EQ(s0.mtu_bytes, 256u);
  EXPECT_EQ(s1.mtu_bytes, 128u);
}

// The single switch: keys reach Params and its chip (the field table).
TEST(Keys, ParamsFilledFromKeys) {
  Params p;
  p.set("link.mtu_bytes", "9000", "--set");
  p.set("traffic.packet_bytes", "4000", "--set");
  p.set("chip.n_ports", "48", "--set");
  p.set("chip.private_cells", "7", "--set");
  p.set("chip.headroom_cells", "321", "--set");
  p.set("traffic.fanin_srcs", "3..5", "--set");
  p.set("sweep.schemes", "SIH", "--set");
  EXPECT_EQ(p.mtu_bytes, 9000u);
  EXPECT_EQ(p.packet_bytes, 4000u);
  EXPECT_EQ(p.mmu.n_ports, 48u);
  EXPECT_EQ(p.mmu.private_cells, 7u);
  EXPECT_EQ(p.mmu.headroom_cells, 321u);
  EXPECT_FALSE(p.headroom_auto);
  EXPECT_EQ(p.fanin_srcs, (std::vector<int>{3, 4, 5}));
  EXPECT_EQ(p.schemes, (std::vector<std::string>{"sih"}));
  p.set("chip.headroom_cells", "auto");
  EXPECT_TRUE(p.headroom_auto);
  const std::string e = error_of([&] { p.set("scenario.kind", "deadlock", "x.toml:2"); });
  EXPECT_EQ(e, "scenario.kind = 'deadlock' (x.toml:2): not a single-switch scenario (pfc-avoidance | saturate)");
}

}  // namespace
}  // namespace dsh::sc
