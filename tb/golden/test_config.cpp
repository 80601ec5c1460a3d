// SPDX-License-Identifier: Apache-2.0
// spec §1: configuration fields, partition of B, rejection of invalid
// configurations, Config::set, and the headroom helper.
#include "helpers.h"

using namespace dsh;
using tb::has;
using tb::reject;
using tb::small;

TEST(Config, DefaultsMatchContractTable) {
  Config c;
  EXPECT_EQ(c.n_ports, 32u);
  EXPECT_EQ(c.n_queues, 7u);
  EXPECT_EQ(c.buffer_cells, 65536u);   // 16 MiB / 256 B
  EXPECT_EQ(c.private_cells, 12u);     // 3 KiB / 256 B
  EXPECT_EQ(c.headroom_cells, 228u);   // 38 packets x 6 cells
  EXPECT_EQ(c.alpha_log2, -4);         // alpha = 1/16
  EXPECT_EQ(c.port_mult_log2, 3u);
  EXPECT_EQ(c.delta_q, 0u);
  EXPECT_EQ(c.delta_p, 0u);
  EXPECT_EQ(c.thresh_latency, 2u);
  EXPECT_NO_THROW(c.validate());
}

TEST(Config, DefaultPartition) {
  Config c;
  // private: 32*7*12 = 2688
  EXPECT_EQ(c.private_total_cells(), 2688);
  c.scheme = Scheme::DSH;  // insurance 32*228 = 7296; B_s = 65536-2688-7296 = 55552
  EXPECT_EQ(c.headroom_total_cells(), 7296);
  EXPECT_EQ(c.shared_cells(), 55552);
  c.scheme = Scheme::SIH;  // headroom 32*7*228 = 51072; B_s = 65536-2688-51072 = 11776
  EXPECT_EQ(c.headroom_total_cells(), 51072);
  EXPECT_EQ(c.shared_cells(), 11776);
}

TEST(Config, SmallPartition) {
  Config s = small(Scheme::SIH), d = small(Scheme::DSH);
  EXPECT_EQ(s.private_total_cells(), 8);    // 2*2*2
  EXPECT_EQ(s.headroom_total_cells(), 24);  // 2*2*6
  EXPECT_EQ(s.shared_cells(), 32);          // 64-8-24
  EXPECT_EQ(d.headroom_total_cells(), 12);  // 2*6
  EXPECT_EQ(d.shared_cells(), 44);          // 64-8-12
  EXPECT_EQ(Mmu(s).shared_cells(), 32u);
  EXPECT_EQ(Mmu(d).shared_cells(), 44u);
}

TEST(ConfigError, ZeroPortsOrQueues) {
  Config c = small(Scheme::DSH);
  c.n_ports = 0;
  std::string m = reject(c);
  EXPECT_TRUE(has(m, "n_ports") && has(m, "1")) << m;  // at least 1
  EXPECT_THROW(c.validate(), ConfigError);
  c = small(Scheme::DSH);
  c.n_queues = 0;
  m = reject(c);
  EXPECT_TRUE(has(m, "n_queues") && has(m, "1")) << m;
  c.n_ports = c.n_queues = 1;  // 1 x 1 is fine
  EXPECT_EQ(reject(c), "");
}

TEST(ConfigError, AlphaLog2OutOfRange) {
  Config c = small(Scheme::SIH);
  c.alpha_log2 = -11;
  std::string m = reject(c);
  EXPECT_TRUE(has(m, "alpha_log2") && has(m, "-10")) << m;
  c.alpha_log2 = 4;
  m = reject(c);
  EXPECT_TRUE(has(m, "alpha_log2") && has(m, "3")) << m;
  c.alpha_log2 = -10;
  EXPECT_EQ(reject(c), "");
  c.alpha_log2 = 3;
  EXPECT_EQ(reject(c), "");
}

TEST(ConfigError, PortMultLog2OutOfRange) {
  Config c = small(Scheme::DSH);
  c.port_mult_log2 = 6;
  const std::string m = reject(c);
  EXPECT_TRUE(has(m, "port_mult_log2") && has(m, "5")) << m;
  c.port_mult_log2 = 5;
  EXPECT_EQ(reject(c), "");
}

TEST(ConfigError, ThreshLatencyOutOfRange) {
  Config c = small(Scheme::DSH);
  c.thresh_latency = 0;
  std::string m = reject(c);
  EXPECT_TRUE(has(m, "thresh_latency") && has(m, "1")) << m;
  c.thresh_latency = 4;
  m = reject(c);
  EXPECT_TRUE(has(m, "thresh_latency") && has(m, "3")) << m;
  for (unsigned l = 1; l <= 3; ++l) {
    c.thresh_latency = l;
    EXPECT_EQ(reject(c), "") << "L=" << l;
  }
}

// Shared part <= 0. Np=3, Nq=5, phi=7, eta=11: private 3*5*7 = 105;
// SIH headroom 3*5*11 = 165 (limit 105+165 = 270); DSH insurance 3*11 = 33 (limit 138).
TEST(ConfigError, NoSharedBuffer) {
  Config c;
  c.n_ports = 3;
  c.n_queues = 5;
  c.private_cells = 7;
  c.headroom_cells = 11;
  c.scheme = Scheme::SIH;
  c.buffer_cells = 270;  // B_s = 0: rejected
  std::string m = reject(c);
  EXPECT_TRUE(has(m, "buffer_cells")) << m;
  EXPECT_TRUE(has(m, "270") || (has(m, "105") && has(m, "165"))) << "limit not named: " << m;
  c.buffer_cells = 271;  // B_s = 1
  EXPECT_EQ(reject(c), "");
  c.scheme = Scheme::DSH;
  c.buffer_cells = 138;  // B_s = 0
  m = reject(c);
  EXPECT_TRUE(has(m, "buffer_cells")) << m;
  EXPECT_TRUE(has(m, "138") || (has(m, "105") && has(m, "33"))) << "limit not named: " << m;
  c.buffer_cells = 139;
  EXPECT_EQ(reject(c), "");
  c.buffer_cells = 200;  // fine for DSH (B_s = 62), too small for SIH (B_s = -70)
  EXPECT_EQ(reject(c), "");
  c.scheme = Scheme::SIH;
  EXPECT_THROW(c.validate(), ConfigError);
}

// cell_w = 6: counters hold 0..63, so B = 64 does not fit.
TEST(ConfigError, BufferMustFitCellWidth) {
  RtlWidths w;
  w.cell_w = 6;
  Config c = small(Scheme::SIH);  // B = 64
  const std::string m = reject(c, w);
  EXPECT_TRUE(has(m, "buffer_cells") && has(m, "63")) << m;
  c.buffer_cells = 63;  // B_s = 63-32 = 31 > 0
  EXPECT_EQ(reject(c, w), "");
  c.buffer_cells = 64;
  EXPECT_EQ(reject(c), "");  // default cell_w = 20 holds 64
}

TEST(ConfigError, MmuRefusesRejectedConfig) {
  Config c = small(Scheme::SIH);
  c.buffer_cells = 32;  // B_s = 32-8-24 = 0
  EXPECT_THROW({ Mmu m(c); }, ConfigError);
  c = small(Scheme::SIH);
  RtlWidths w;
  w.cell_w = 6;
  EXPECT_THROW({ Mmu m(c, w); }, ConfigError);
}

TEST(ConfigSet, SetsEveryFieldByContractName) {
  Config c;
  c.set("n_ports", "4");
  c.set("n_queues", "3");
  c.set("buffer_cells", "1000");
  c.set("private_cells", "5");
  c.set("headroom_cells", "20");
  c.set("alpha_log2", "-3");
  c.set("port_mult_log2", "2");
  c.set("delta_q", "7");
  c.set("delta_p", "9");
  c.set("scheme", "sih");
  c.set("thresh_latency", "3");
  EXPECT_EQ(c.n_ports, 4u);
  EXPECT_EQ(c.n_queues, 3u);
  EXPECT_EQ(c.buffer_cells, 1000u);
  EXPECT_EQ(c.private_cells, 5u);
  EXPECT_EQ(c.headroom_cells, 20u);
  EXPECT_EQ(c.alpha_log2, -3);
  EXPECT_EQ(c.port_mult_log2, 2u);
  EXPECT_EQ(c.delta_q, 7u);
  EXPECT_EQ(c.delta_p, 9u);
  EXPECT_EQ(c.scheme, Scheme::SIH);
  EXPECT_EQ(c.thresh_latency, 3u);
  c.set("scheme", "DSH");
  EXPECT_EQ(c.scheme, Scheme::DSH);
}

TEST(ConfigSet, UnknownFieldThrows) {
  Config c;
  EXPECT_THROW(c.set("nports", "4"), ConfigError);
  EXPECT_THROW(c.set("", "4"), ConfigError);
  try {
    c.set("bogus_field", "1");
    ADD_FAILURE() << "no throw";
  } catch (const ConfigError& e) {
    EXPECT_TRUE(has(e.what(), "bogus_field")) << e.what();
  }
}

TEST(ConfigSet, BadValueThrows) {
  Config c;
  EXPECT_THROW(c.set("n_ports", "abc"), ConfigError);
  EXPECT_THROW(c.set("n_ports", "12x"), ConfigError);
  EXPECT_THROW(c.set("n_ports", ""), ConfigError);
  EXPECT_THROW(c.set("buffer_cells", "1.5"), ConfigError);
  EXPECT_THROW(c.set("buffer_cells", "-1"), ConfigError);  // sizes are unsigned
  EXPECT_THROW(c.set("scheme", "PFC"), ConfigError);
}

// The field table (golden/config.h) against spec §1.2's table, by hand: the
// names, the fixed ranges and the defaults.
TEST(ConfigFields, MatchSpecTable) {
  struct Row { const char* name; const char* range; const char* def; };
  const Row spec[] = {{"scheme", "SIH|DSH", "DSH"},       {"n_ports", "1..1024", "32"},
                      {"n_queues", "1..64", "7"},          {"buffer_cells", "1..1099511627775", "65536"},
                      {"private_cells", "0..1099511627775", "12"}, {"headroom_cells", "0..1099511627775", "228"},
                      {"alpha_log2", "-10..3", "-4"},      {"port_mult_log2", "0..5", "3"},
                      {"delta_q", "0..1099511627775", "0"}, {"delta_p", "0..1099511627775", "0"},
                      {"thresh_latency", "1..3", "2"},      {"lanes", "1..64", "1"},
                      {"deq_per_cycle", "1..64", "1"}};
  for (const Row& r : spec) {
    const ConfigField* f = find_config_field(r.name);
    ASSERT_NE(f, nullptr) << r.name;
    EXPECT_EQ(f->range(), r.range) << r.name;
    EXPECT_EQ(f->default_text(), r.def) << r.name;
  }
  EXPECT_NE(find_config_field("port_headroom_cells"), nullptr);
  EXPECT_EQ(config_fields().size(), std::size(spec) + 1);
  EXPECT_EQ(find_config_field("nports"), nullptr);
}

// set() refuses one past each end of an integer field's range, naming the
// field, the value and the range.
TEST(ConfigFields, SetRefusesBeyondEachEnd) {
  for (const ConfigField& f : config_fields()) {
    if (f.kind != ConfigField::Kind::Integer) continue;
    Config c;
    EXPECT_NO_THROW(c.set(f.name, std::to_string(f.lo))) << f.name;
    EXPECT_NO_THROW(c.set(f.name, std::to_string(f.hi))) << f.name;
    for (const std::string& v : {std::to_string(f.lo - 1), std::to_string(f.hi + 1)}) {
      try {
        c.set(f.name, v);
        ADD_FAILURE() << f.name << " = " << v << " accepted";
      } catch (const ConfigError& e) {
        EXPECT_TRUE(has(e.what(), f.name) && has(e.what(), v)) << e.what();
      }
    }
  }
}

TEST(ConfigFields, DescribeReadsBack) {
  Config c;
  c.set("scheme", "SIH");
  c.set("n_ports", "3");
  c.set("alpha_log2", "-7");
  c.set("delta_p", "5");
  c.set("port_headroom_cells", "2x40,17");
  EXPECT_EQ(c.describe(),
            "n_ports=3 n_queues=7 buffer_cells=65536 private_cells=12 headroom_cells=228 port_headroom_cells=2x40,17 "
            "alpha_log2=-7 port_mult_log2=3 delta_q=0 delta_p=5 scheme=SIH thresh_latency=2");
  const Config r = Config::from_text(c.describe());
  EXPECT_EQ(r.describe(), c.describe());
  EXPECT_EQ(r.port_headroom_cells, (std::vector<uint64_t>{40, 40, 17}));
  EXPECT_THROW(Config::from_text("n_ports=3 nonsense"), ConfigError);
  EXPECT_THROW(Config::from_text("n_ports=3000"), ConfigError);
}

// η = 2*(C*D_prop + L_MTU) + 3840 B = 2*(12.5 B/ns * 2000 ns + 1500) + 3840
//   = 2*(25000 + 1500) + 3840 = 53000 + 3840 = 56840 B
TEST(Headroom, DefaultLinkBytes) { EXPECT_EQ(headroom_bytes(LinkParams{}), 56840u); }

// cells = ceil(56840/1500) * ceil(1500/256) = 38 * 6 = 228   (37*1500 = 55500 < 56840 <= 57000)
// naive ceil(56840/256) = 223 (222*256 = 56832 < 56840) is smaller: it would lose packets.
TEST(Headroom, DefaultLinkCells) {
  EXPECT_EQ(headroom_cells(LinkParams{}), 228u);
  EXPECT_EQ(cells_of(56840, 256), 223u);
  EXPECT_LT(cells_of(56840, 256), headroom_cells(LinkParams{}));
  EXPECT_EQ(headroom_cells(LinkParams{}), Config{}.headroom_cells);
  EXPECT_EQ(cells_of(1500, 256), 6u);  // 5*256 = 1280 < 1500 <= 1536
  EXPECT_EQ(cells_of(256, 256), 1u);
  EXPECT_EQ(cells_of(257, 256), 2u);
}

TEST(Headroom, SmallerPacketsNeedMoreCells) {
  LinkParams p;
  p.pkt_bytes = 64;   // ceil(56840/64) = 889 (888*64 = 56832) packets x 1 cell
  EXPECT_EQ(headroom_cells(p), 889u);
  p.pkt_bytes = 257;  // ceil(56840/257) = 222 (221*257 = 56797) packets x 2 cells
  EXPECT_EQ(headroom_cells(p), 444u);
}

// 25 Gb/s, 1 us: 2*(3.125*1000 + 1500) + 3840 = 2*4625 + 3840 = 13090 B;
// ceil(13090/1500) = 9 packets (8*1500 = 12000) x 6 cells = 54.
TEST(Headroom, OtherLink) {
  LinkParams p;
  p.link_gbps = 25;
  p.prop_delay_ns = 1000;
  EXPECT_EQ(headroom_bytes(p), 13090u);
  EXPECT_EQ(headroom_cells(p), 54u);
}
