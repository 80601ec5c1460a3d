// SPDX-License-Identifier: Apache-2.0
// The shared validation layer (common/): strict numbers, tolerant line
// reading, output paths compared by device and inode, atomic outputs; the
// vector files' header block (cosim/vectors.h, vector format §2).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "input.h"
#include "output.h"
#include "vectors.h"

namespace dsh {
namespace {

namespace fs = std::filesystem;

std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(StrictNumbers, Integers) {
  EXPECT_EQ(parse_uint("-n", "42", 1, 100), 42u);
  EXPECT_EQ(parse_uint("-n", "007", 1, 100), 7u) << "decimal, not octal";
  EXPECT_EQ(parse_uint("-n", "18446744073709551615", 0, ~uint64_t(0)), ~uint64_t(0));
  EXPECT_EQ(refusal([] { parse_uint("-n", "18446744073709551616", 0, ~uint64_t(0)); }),
            "-n = 18446744073709551616 is out of range 0..18446744073709551615");
  EXPECT_EQ(refusal([] { parse_uint("--seed", "-1", 0, 10); }), "--seed = '-1': expected an integer in 0..10");
  for (const char* bad : {"", " 1", "1 ", "+1", "1.0", "1e3", "0x10", "true", "nan", "1,0"})
    EXPECT_NE(refusal([&] { parse_uint("x", bad, 0, 100); }), "") << bad;
  EXPECT_EQ(parse_int("a", "-10", -10, 3), -10);
  EXPECT_EQ(refusal([] { parse_int("a", "-11", -10, 3); }), "a = -11 is out of range -10..3");
  EXPECT_EQ(refusal([] { parse_int("a", "-9223372036854775809", INT64_MIN, INT64_MAX); }),
            "a = -9223372036854775809 is out of range -9223372036854775808..9223372036854775807");
  EXPECT_NE(refusal([] { parse_int("a", "-", -10, 3); }), "");
}

TEST(StrictNumbers, Reals) {
  EXPECT_DOUBLE_EQ(parse_real("r", "0.002", 0, 1), 0.002);
  EXPECT_DOUBLE_EQ(parse_real("r", "2e-3", 0, 1), 0.002);
  EXPECT_DOUBLE_EQ(parse_real("r", "1", 0, 1), 1.0);
  for (const char* bad : {"nan", "NaN", "inf", "-inf", "0x1p3", "", ".", "1e", "1..2", " 1", "1 "})
    EXPECT_NE(refusal([&] { parse_real("r", bad, -1e9, 1e9); }), "") << bad;
  EXPECT_EQ(refusal([] { parse_real("r", "1e999", 0, 1); }), "r = 1e999 is out of range [0, 1]");
  EXPECT_EQ(refusal([] { parse_real("r", "0", 0, 10, true); }), "r = 0 is out of range (0, 10]");
  EXPECT_EQ(parse_bool("b", "true"), true);
  EXPECT_NE(refusal([] { parse_bool("b", "1"); }), "");
}

TEST(Lines, BomAndCrlf) {
  std::istringstream in("\xEF\xBB\xBF" "a,b\r\nc\r\n\r\n");
  skip_bom(in);
  std::string l;
  ASSERT_TRUE(get_line(in, l));
  EXPECT_EQ(l, "a,b");
  ASSERT_TRUE(get_line(in, l));
  EXPECT_EQ(l, "c");
  std::istringstream plain("xyz\n");
  skip_bom(plain);
  ASSERT_TRUE(get_line(plain, l));
  EXPECT_EQ(l, "xyz") << "no mark: nothing skipped";
}

class OutputPaths : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("dsh-validation-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "in.csv") << "data\n";
  }
  void TearDown() override { fs::remove_all(dir); }
  std::string p(const char* name) const { return (dir / name).string(); }
  fs::path dir;
};

TEST_F(OutputPaths, SameFileByInodeNotSpelling) {
  fs::create_hard_link(dir / "in.csv", dir / "link.csv");
  fs::create_directories(dir / "sub");
  const std::string odd = (dir / "sub" / ".." / "in.csv").string();
  for (const std::string& out : {p("in.csv"), p("link.csv"), odd})
    EXPECT_NE(refusal([&] { check_output_file("-o", out, {p("in.csv")}); }).find("is the input"), std::string::npos)
        << out;
  EXPECT_EQ(refusal([&] { check_output_file("-o", p("new.csv"), {p("in.csv")}); }), "");
}

TEST_F(OutputPaths, RefusedBeforeAnyWrite) {
  EXPECT_NE(refusal([&] { check_output_file("-o", "", {}); }).find("expected a file name"), std::string::npos);
  EXPECT_NE(refusal([&] { check_output_file("-o", dir.string(), {}); }).find("is a directory"), std::string::npos);
  EXPECT_NE(refusal([&] { check_output_file("-o", p("in.csv/x.csv"), {}); }).find("is not a directory"),
            std::string::npos);
  EXPECT_NE(refusal([&] { check_output_file("-o", p("in.csv/a/b/x.csv"), {}); }).find("in.csv is not a directory"),
            std::string::npos);
  EXPECT_NE(refusal([&] { check_output_dir("-o", p("in.csv/sub")); }).find("exists and is not a directory"),
            std::string::npos);
  EXPECT_EQ(refusal([&] { check_output_dir("-o", p("a/b/c")); }), "");
  EXPECT_TRUE(fs::is_directory(dir / "a" / "b" / "c"));
}

// A missing directory is no refusal: the run creates it (docs/guide/tools.md).
TEST_F(OutputPaths, MissingDirectoryCreatedWhenTheRunWrites) {
  EXPECT_EQ(refusal([&] { check_output_file("-o", p("a/b/x.csv"), {}); }), "");
  EXPECT_FALSE(fs::exists(dir / "a")) << "the check creates nothing";
  write_file_atomically(p("a/b/x.csv"), "x\n");
  EXPECT_TRUE(fs::is_regular_file(dir / "a" / "b" / "x.csv"));
}

TEST_F(OutputPaths, StdoutAndDevicesAreOutputs) {
  EXPECT_EQ(refusal([&] { check_output_file("-o", "-", {}); }), "");
  EXPECT_EQ(refusal([&] { check_output_file("-o", "/dev/null", {}); }), "");
  write_file_atomically("/dev/null", "nothing\n");
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_NE(refusal([&] { check_distinct_outputs({{"-o", "-"}, {"--fst", "-"}}); }).find("--fst = -: stdout is already -o"),
            std::string::npos);
  EXPECT_NE(refusal([&] { check_distinct_outputs({{"-o", p("x")}, {"--fst", p("x")}}); }).find("is also the -o file"),
            std::string::npos);
  EXPECT_EQ(refusal([&] { check_distinct_outputs({{"-o", "/dev/null"}, {"--fst", "/dev/null"}, {"--s", "-"}}); }), "");
}

TEST_F(OutputPaths, AtomicFileLeavesNothingUnlessCommitted) {
  {
    AtomicFile f(p("out.csv"));
    f.out() << "half";
    EXPECT_TRUE(fs::exists(f.temp_path()));
    EXPECT_FALSE(fs::exists(p("out.csv"))) << "nothing under the final name before commit";
  }  // a failed run: no commit
  EXPECT_FALSE(fs::exists(p("out.csv")));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1) << "only in.csv is left";
  write_file_atomically(p("out.csv"), "whole\n");
  std::ifstream in(p("out.csv"));
  std::string s;
  std::getline(in, s);
  EXPECT_EQ(s, "whole");
}

// Every field of spec §1.2, each away from its default, through the header
// block and back: the same chip, and the text as written.
TEST(VectorHeader, RoundTripsEveryField) {
  Config c;
  for (const auto& [f, v] : std::vector<std::pair<std::string, std::string>>{
           {"n_ports", "3"}, {"n_queues", "2"}, {"buffer_cells", "900"}, {"private_cells", "5"},
           {"headroom_cells", "7"}, {"port_headroom_cells", "2x9,11"}, {"alpha_log2", "-2"},
           {"port_mult_log2", "1"}, {"delta_q", "3"}, {"delta_p", "4"}, {"scheme", "SIH"},
           {"thresh_latency", "3"}, {"lanes", "2"}, {"deq_per_cycle", "3"}})
    c.set(f, v);
  const Config defaults;
  ASSERT_EQ(c.fields().size(), defaults.fields().size());
  for (size_t i = 0; i < c.fields().size(); ++i)
    EXPECT_NE(c.fields()[i].second, defaults.fields()[i].second) << c.fields()[i].first << " left at its default";
  std::ostringstream out;
  write_stimulus_header(out, c);
  std::istringstream in(out.str());
  const auto h = read_vector_header(in, "s.csv", VectorKind::Stimulus);
  ASSERT_TRUE(h);
  EXPECT_FALSE(first_difference(h->config, c)) << out.str();
  EXPECT_EQ(h->lines, 15u);  // the format line and 14 fields
  EXPECT_EQ(h->field_line.at("n_ports"), 2u);
  const auto d = first_difference(c, defaults);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->field + " " + d->a + " " + d->b, "n_ports 3 32");
  // The header is read as comments by the row reader.
  std::istringstream rows(out.str() + "0,,,,0,0,1\n");
  EXPECT_EQ(read_stimulus(rows, "s.csv", c, RtlWidths{}).size(), 1u);
}


// lanes and deq_per_cycle are left out at 1 (vector format §2): a one-lane
// chip's header is the format line and 12 fields, as before they existed,
// and reads back as one lane; at 2 the header names them.
TEST(VectorHeader, OneLaneLeavesTheLaneFieldsOut) {
  Config c;
  std::ostringstream out;
  write_stimulus_header(out, c);
  EXPECT_EQ(out.str().find("lanes"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("deq_per_cycle"), std::string::npos) << out.str();
  std::istringstream in(out.str());
  const auto h = read_vector_header(in, "s.csv", VectorKind::Stimulus);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->lines, 13u);
  EXPECT_EQ(h->config.lanes, 1u);
  EXPECT_EQ(h->config.deq_per_cycle, 1u);
  EXPECT_EQ(h->line_of("lanes"), 13u);  // an implied field: the block's last line
  c.lanes = 2;
  std::ostringstream two;
  write_stimulus_header(two, c);
  EXPECT_NE(two.str().find("# lanes = 2\n"), std::string::npos) << two.str();
  EXPECT_EQ(two.str().find("deq_per_cycle"), std::string::npos) << two.str();
}
// Format 3 rows (vector format §7), typed from the spec: the dequeue slots,
// then the enqueue slots; empty triples are empty slots; the writer gives
// the same text back.
TEST(LaneVectors, ReadsAndWritesSlots) {
  Config c;
  c.n_ports = 4;
  c.n_queues = 2;
  c.lanes = 2;
  c.deq_per_cycle = 2;
  const std::string columns =
      "cycle,deq0_port,deq0_queue,deq0_cells,deq1_port,deq1_queue,deq1_cells,"
      "enq0_port,enq0_queue,enq0_cells,enq1_port,enq1_queue,enq1_cells\n";
  const std::string rows = "3,1,0,2,,,,2,1,5,3,0,1\n7,,,,0,1,4,,,,1,1,9\n";
  std::ostringstream header;
  write_lane_stimulus_header(header, c);
  EXPECT_EQ(header.str().substr(0, 25), "# dsh-vectors 3 stimulus\n");
  EXPECT_EQ(header.str().substr(header.str().size() - columns.size()), columns);
  std::istringstream in(header.str() + rows);
  const LaneStimulus st = read_lane_stimulus(in, "s.csv", c, RtlWidths{});
  ASSERT_EQ(st.size(), 2u);
  EXPECT_EQ(st.cycles[1], 7u);
  const LaneCycleIn a = st.row(0), b = st.row(1);
  EXPECT_TRUE(a.deq[0].valid && a.deq[0].port == 1 && a.deq[0].queue == 0 && a.deq[0].cells == 2);
  EXPECT_FALSE(a.deq[1].valid);
  EXPECT_TRUE(a.enq[0].valid && a.enq[0].port == 2 && a.enq[0].queue == 1 && a.enq[0].cells == 5);
  EXPECT_TRUE(a.enq[1].valid && a.enq[1].port == 3 && a.enq[1].cells == 1);
  EXPECT_FALSE(a.enq[2].valid) << "beyond the lanes";
  EXPECT_TRUE(!b.deq[0].valid && b.deq[1].valid && b.deq[1].cells == 4 && !b.enq[0].valid && b.enq[1].cells == 9);
  std::ostringstream back;
  for (size_t i = 0; i < st.size(); ++i) write_lane_stimulus_row(back, st.cycles[i], st.row(i), c);
  EXPECT_EQ(back.str(), rows);
  auto err = [&](const std::string& text) {
    return refusal([&] {
      std::istringstream bad(text);
      read_lane_stimulus(bad, "s.csv", c, RtlWidths{});
    });
  };
  EXPECT_NE(err(columns + "0,,,,,,,1,0,1,1,0\n").find("s.csv:2: expected 13 fields, got 12"), std::string::npos);
  EXPECT_NE(err(columns + "0,,,,,,,1,0,1,1,0,\n").find("s.csv:2: enq1 triple is partly empty"), std::string::npos);
  EXPECT_NE(err(columns + "0,,,,,,,4,0,1,,,\n").find("enq0_port = 4 exceeds 3 (the 2-bit port index"),
            std::string::npos);
  EXPECT_NE(err("cycle,deq_port,deq_queue,deq_cells,enq_port,enq_queue,enq_cells\n").find("expected the header 'cycle,deq0_port"),
            std::string::npos);
}

TEST(VectorHeader, Refusals) {
  auto err = [](const std::string& text, VectorKind k = VectorKind::Stimulus) {
    return refusal([&] {
      std::istringstream in(text);
      read_vector_header(in, "v.csv", k);
    });
  };
  std::ostringstream full;
  write_vector_header(full, VectorKind::Stimulus, Config{});
  const std::string ok = full.str();
  std::istringstream none("# a comment\ncycle,deq_port\n");
  EXPECT_FALSE(read_vector_header(none, "v.csv", VectorKind::Stimulus)) << "no header: format 1";
  EXPECT_NE(err(ok, VectorKind::Response).find("v.csv:1: this is a stimulus file; expected a response file"),
            std::string::npos);
  EXPECT_NE(err("# dsh-vectors 4 stimulus\n").find("v.csv:1: format = '4'"), std::string::npos);
  // Format 3 names lanes and deq_per_cycle too (vector format §7).
  std::ostringstream lanes;
  write_vector_header(lanes, VectorKind::Stimulus, Config{}, kLaneVectorFormat);
  EXPECT_NE(lanes.str().find("# lanes = 1\n# deq_per_cycle = 1\n"), std::string::npos) << lanes.str();
  std::string no_lanes = lanes.str();
  no_lanes.erase(no_lanes.find("# lanes = 1\n"), 12);
  EXPECT_NE(err(no_lanes).find("the header lacks lanes: a format 3 header gives every configuration field"),
            std::string::npos);
  EXPECT_NE(err("# dsh-vectors 2\n").find("expected '# dsh-vectors 2 stimulus'"), std::string::npos);
  EXPECT_NE(err("# note\n" + ok).find("v.csv:2: the format line"), std::string::npos);
  EXPECT_NE(err("# dsh-vectors 2 stimulus\n# n_ports = 4\n").find("the header lacks n_queues"), std::string::npos);
  EXPECT_NE(err(ok + "# n_ports = 4\n").find("v.csv:14: n_ports repeats (first on line 2)"), std::string::npos);
  EXPECT_NE(err("# dsh-vectors 2 stimulus\n# n_port = 4\n").find("v.csv:2: unknown configuration field 'n_port'"),
            std::string::npos);
  EXPECT_NE(err("# dsh-vectors 2 stimulus\n# n_ports = 0\n").find("v.csv:2: n_ports = 0 is out of range 1..1024"),
            std::string::npos);
  // A free comment ends the block; what follows it is a comment too.
  EXPECT_EQ(err(ok + "# made by hand\n# n_ports = 4\ncycle\n"), "");
}

}  // namespace
}  // namespace dsh
