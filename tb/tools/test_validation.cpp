// The shared validation layer (common/): strict numbers, tolerant line
// reading, output paths compared by device and inode, atomic outputs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "input.h"
#include "output.h"

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
  EXPECT_NE(refusal([&] { check_output_file("-o", p("nodir/x.csv"), {}); }).find("No such file"), std::string::npos);
  EXPECT_NE(refusal([&] { check_output_file("-o", p("in.csv/x.csv"), {}); }).find("is not a directory"),
            std::string::npos);
  EXPECT_NE(refusal([&] { check_output_dir("-o", p("in.csv/sub")); }).find("exists and is not a directory"),
            std::string::npos);
  EXPECT_EQ(refusal([&] { check_output_dir("-o", p("a/b/c")); }), "");
  EXPECT_TRUE(fs::is_directory(dir / "a" / "b" / "c"));
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

}  // namespace
}  // namespace dsh
