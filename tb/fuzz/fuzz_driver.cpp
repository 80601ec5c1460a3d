// SPDX-License-Identifier: Apache-2.0
// dsh-fuzz: a seeded random-mutation driver for the readers' fuzz targets
// (fuzz_targets.h). Starts from seed files, mutates them (bit flips, bytes,
// inserted tokens a user or a tool might write: "-1", "nan", 2^64, CRLF,
// a byte-order mark, ...), and runs the target on each input. The input that
// crashes or lets an unexpected exception escape is saved in --crash-dir
// (written from the signal handler too) and the driver exits 1.
//
//   dsh-fuzz vectors -n 100000 --seed 1 --crash-dir out/fuzz tb/tools/vectors/*.csv
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_targets.h"

namespace {

char g_crash_path[1024];
std::string g_input;  // the input being run, for the crash handler

void save(const char* path, const std::string& data) {
  const int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  (void)!::write(fd, data.data(), data.size());
  ::close(fd);
}

void on_crash(int sig) {
  save(g_crash_path, g_input);
  const char m1[] = "dsh-fuzz: crash; the input is in ";
  (void)!::write(2, m1, sizeof m1 - 1);
  (void)!::write(2, g_crash_path, std::strlen(g_crash_path));
  (void)!::write(2, "\n", 1);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

const char* kTokens[] = {
    ",", "\n", "\r\n", "\r", " ", "\t", "#", "=", "\"", "'", "[", "]", "{", "}", ":", "..", ".", "-", "+",
    "0", "1", "-1", "255", "256", "65535", "1024", "4294967296", "18446744073709551615", "18446744073709551616",
    "99999999999999999999999", "-9223372036854775808", "1e309", "1e-400", "nan", "inf", "-inf", "0x10", "010",
    "1.5", "3.0", "true", "false", "auto", "\xEF\xBB\xBF", "\xFF\xFE", "" /* a NUL byte */,
    "[chip]", "[traffic]", "[sweep]", "[run]", "[link]", "n_ports", "n_queues", "buffer_cells",
    "headroom_cells", "alpha_log2", "burst_pct", "fanin_srcs", "fanin_dst", "0..100000", "5:60:5", "0:1e9:1e-9",
    "cycle,deq_port,deq_queue,deq_cells,enq_port,enq_queue,enq_cells\n", "scheme", "\"SIH\"", "\"dsh\"",
    "lockstep", "golden", "[[x]]", "a.b.c = 1", "\"\"\"", "'''"};

std::string mutate(std::mt19937_64& rng, const std::vector<std::string>& corpus) {
  auto pick = [&](size_t n) { return n ? size_t(rng() % n) : size_t(0); };
  std::string s = corpus[pick(corpus.size())];
  const int n = 1 + int(rng() % 8);
  for (int k = 0; k < n; ++k) {
    const size_t pos = pick(s.size() + 1);
    switch (rng() % 9) {
      case 0:
        if (!s.empty()) s[pick(s.size())] ^= char(1u << (rng() % 8));
        break;
      case 1:
        if (!s.empty()) s[pick(s.size())] = char(rng());
        break;
      case 2:
        s.insert(pos, 1, char(rng()));
        break;
      case 3:
        if (!s.empty()) s.erase(pick(s.size()), 1 + pick(16));
        break;
      case 4: {
        if (s.empty()) break;
        const size_t a = pick(s.size()), len = 1 + pick(std::min<size_t>(64, s.size() - a));
        s.insert(pos, s.substr(a, len));
        break;
      }
      case 5:
      case 6: {
        const char* t = kTokens[pick(sizeof kTokens / sizeof *kTokens)];
        s.insert(pos, t[0] ? std::string(t) : std::string(1, '\0'));
        break;
      }
      case 7: {  // splice with another seed
        const std::string& o = corpus[pick(corpus.size())];
        s = s.substr(0, pos) + o.substr(pick(o.size() + 1));
        break;
      }
      case 8:
        s.resize(pos);
        break;
    }
  }
  if (s.size() > 8192) s.resize(8192);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::string target_name, crash_dir = ".";
  uint64_t runs = 100000, seed = 1;
  std::vector<std::string> seeds;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* opt) -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "dsh-fuzz: error: %s needs a value\n", opt);
        std::exit(2);
      }
      return argv[++i];
    };
    try {
      if (a == "-n") runs = std::stoull(value("-n"));
      else if (a == "--seed") seed = std::stoull(value("--seed"));
      else if (a == "--crash-dir") crash_dir = value("--crash-dir");
      else if (target_name.empty()) target_name = a;
      else seeds.push_back(a);
    } catch (const std::exception&) {
      std::fprintf(stderr, "dsh-fuzz: error: %s: expected a number\n", a.c_str());
      return 2;
    }
  }
  const auto target = dsh::fuzz::target_by_name(target_name);
  if (!target || seeds.empty()) {
    std::fprintf(stderr, "usage: dsh-fuzz vectors|scenario|config [-n N] [--seed S] [--crash-dir DIR] SEED_FILE...\n");
    return 2;
  }
  std::vector<std::string> corpus;
  for (const auto& f : seeds) {
    std::ifstream in(f, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "dsh-fuzz: error: seed file %s: cannot read it\n", f.c_str());
      return 2;
    }
    std::ostringstream s;
    s << in.rdbuf();
    corpus.push_back(s.str());
  }
  std::snprintf(g_crash_path, sizeof g_crash_path, "%s/crash-%s-seed%llu.bin", crash_dir.c_str(),
                target_name.c_str(), (unsigned long long)seed);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::signal(sig, on_crash);

  std::mt19937_64 rng(seed);
  uint64_t accepted = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < runs; ++i) {
    g_input = i < corpus.size() ? corpus[i] : mutate(rng, corpus);
    try {
      accepted += target(g_input);
    } catch (const std::exception& e) {
      save(g_crash_path, g_input);
      std::fprintf(stderr, "dsh-fuzz: %s: input %llu: unexpected exception (not a refusal): %s; the input is in %s\n",
                   target_name.c_str(), (unsigned long long)i, e.what(), g_crash_path);
      return 1;
    }
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("dsh-fuzz: %s: %llu inputs (seed %llu) in %.1f s, %llu accepted, %llu refused, 0 crashes\n",
              target_name.c_str(), (unsigned long long)runs, (unsigned long long)seed, s,
              (unsigned long long)accepted, (unsigned long long)(runs - accepted));
  return 0;
}
