// SPDX-License-Identifier: Apache-2.0
// RTL models on demand (see rtl_ondemand.h): the build (verilator --build
// into a temporary directory, renamed into place under a lock) and the
// loading (dlopen) of one shared library per cache key (rtl_ondemand_key.h).
#include "rtl_ondemand.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <vector>

#include "rtl_ondemand_key.h"
#include "rtl_plugin_abi.h"

extern char** environ;

namespace dsh {

namespace fs = std::filesystem;
using namespace ondemand;

namespace {

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!(out << text) || !(out.flush())) throw RtlBuildError("cannot write " + path);
}

// Runs argv with stdout and stderr appended to `log`; the exit status, or
// throws naming what could not be started.
int run(const std::vector<std::string>& argv, const std::string& log, const std::string& what) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addclose(&fa, 0);
  std::vector<char*> av;
  for (const auto& a : argv) av.push_back(const_cast<char*>(a.c_str()));
  av.push_back(nullptr);
  pid_t pid;
  const int e = posix_spawnp(&pid, av[0], &fa, nullptr, av.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (e) throw RtlBuildError("cannot run " + what + " '" + argv[0] + "': " + std::strerror(e));
  int st = 0;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) throw RtlBuildError(std::string("waitpid: ") + std::strerror(errno));
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

// flock() on a lock file for the life of the object.
class FileLock {
 public:
  FileLock(const std::string& path, const std::string& waiting_msg) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw RtlBuildError("cannot open the lock file " + path + ": " + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
    std::cerr << waiting_msg << std::endl;
    while (::flock(fd_, LOCK_EX) != 0)
      if (errno != EINTR) throw RtlBuildError("cannot lock " + path + ": " + std::strerror(errno));
  }
  ~FileLock() { ::close(fd_); }  // closing releases the lock
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

// Builds the library of `k` into <cache>/<k.dir>, under the caller's lock.
void build(const Request& r, const Sources& s, const Key& k, const fs::path& cache) {
  const fs::path final_dir = cache / k.dir;
  const fs::path tmp = cache / (k.dir + ".tmp." + std::to_string(::getpid()));
  const fs::path failed = cache / (k.dir + ".failed");
  std::error_code ec;
  // What a killed build of this key left behind (under the lock, no other
  // process is building it).
  for (const auto& e : fs::directory_iterator(cache, ec))
    if (e.path().filename().string().rfind(k.dir + ".tmp.", 0) == 0) fs::remove_all(e.path(), ec);
  fs::create_directories(tmp / "obj", ec);
  if (ec) throw RtlBuildError("cannot create " + tmp.string() + ": " + ec.message());
  const std::string log = (tmp / "build.log").string();
  write_file((tmp / "key.txt").string(), k.text);
  write_file((tmp / "dsh_rtl.map").string(), kVersionScript);
  write_file((tmp / "dsh_rtl_plugin.cpp").string(), plugin_source(r, s, k));

  std::cerr << "dsh: building the RTL model for " << r.describe() << ", once; cache " << cache.string() << std::endl;
  const auto t0 = std::chrono::steady_clock::now();
  const auto args = verilator_args(r, s, tmp.string());
  {
    std::ofstream l(log);
    l << "#";
    for (const auto& a : args) l << " '" << a << '\'';
    l << '\n';
  }
  auto fail = [&](const std::string& what) {
    fs::remove_all(failed, ec);
    fs::rename(tmp, failed, ec);
    const std::string where = ec ? log : (failed / "build.log").string();
    throw RtlBuildError("building the RTL model for " + r.describe() + " failed: " + what + "; log " + where);
  };
  int st = 0;
  try {
    st = run(args, log, "verilator");
  } catch (const RtlBuildError& e) {
    fail(e.what());
  }
  if (st) fail("verilator --build exited with " + std::to_string(st));
  fs::rename(tmp / "obj" / "dsh_rtl.so", tmp / "dsh_rtl.so", ec);
  if (ec) fail("no dsh_rtl.so was made (" + ec.message() + ")");
  fs::remove_all(tmp / "obj", ec);  // the generated C++ and objects: tens of MB, not needed to load
  fs::rename(tmp, final_dir, ec);
  if (ec) {
    std::error_code ec2;
    fs::remove_all(tmp, ec2);
    if (!fs::exists(final_dir / "dsh_rtl.so"))
      throw RtlBuildError("cannot move the RTL model into " + final_dir.string() + ": " + ec.message());
  }
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  char b[32];
  std::snprintf(b, sizeof b, "%.0f", sec);
  std::cerr << "dsh: built the RTL model for " << r.describe() << " in " << b << " s: " << final_dir.string()
            << std::endl;
}

struct Loaded {
  std::string name;
  void* handle = nullptr;
  dsh_rtl_make_fn make = nullptr;
  RtlVariant variant;
};

std::mutex g_mutex;
std::map<std::string, std::unique_ptr<Loaded>> g_loaded;  // by key directory

Loaded& load(const Request& r, const Key& k, const fs::path& dir) {
  const std::string so = (dir / "dsh_rtl.so").string();
  const std::string clear = "; delete " + dir.string() + " to rebuild it";
  void* h = ::dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) throw RtlBuildError(std::string("cannot load the RTL model: ") + ::dlerror() + clear);
  auto make = reinterpret_cast<dsh_rtl_make_fn>(::dlsym(h, DSH_RTL_MAKE_SYMBOL));
  auto key = reinterpret_cast<dsh_rtl_key_fn>(::dlsym(h, DSH_RTL_KEY_SYMBOL));
  if (!make || !key) throw RtlBuildError(so + " does not export " DSH_RTL_MAKE_SYMBOL " and " DSH_RTL_KEY_SYMBOL + clear);
  if (k.hash != key()) throw RtlBuildError(so + " was built for key " + key() + ", not " + k.hash + clear);
  auto l = std::make_unique<Loaded>();
  l->name = r.name();
  l->handle = h;
  l->make = make;
  Loaded* lp = l.get();
  l->variant = RtlVariant{lp->name.c_str(), r.ports, r.queues, r.scheme, r.latency, r.w,
                          [lp](const Config& c, const RtlOptions& o) -> std::unique_ptr<MmuModel> {
                            char err[2048] = "";
                            dsh_rtl_args a{};
                            a.abi = DSH_RTL_PLUGIN_ABI;
                            const std::string config = c.describe();
                            a.config = config.c_str();
                            a.fst_path = o.fst_path.c_str();
                            a.fault = o.fault;
                            a.trace_from = o.trace_from;
                            a.trace_to = o.trace_to;
                            a.error = err;
                            a.error_size = sizeof err;
                            MmuModel* m = lp->make(&a);
                            if (!m) throw ConfigError(err);
                            return std::unique_ptr<MmuModel>(m);
                          }};
  return *g_loaded.emplace(k.dir, std::move(l)).first->second;
}

}  // namespace

namespace {
const RtlVariant& ondemand_variant(const Config& c);
}

std::string rtl_cache_dir() {
  std::string d = env("DSH_RTL_CACHE");
  if (!d.empty()) return d;
  d = env("XDG_CACHE_HOME");
  if (!d.empty()) return d + "/dsh_mmu/rtl";
  d = env("HOME");
  if (d.empty()) throw RtlBuildError("no cache for on-demand RTL models: set DSH_RTL_CACHE (or HOME)");
  return d + "/.cache/dsh_mmu/rtl";
}

bool rtl_ondemand_supported(const Config& c, std::string* why) {
  std::ostringstream m;
  if (c.n_ports < 1 || c.n_ports > 1024) m << "n_ports = " << c.n_ports << " is out of dsh_mmu's range 1..1024";
  else if (c.n_queues < 1 || c.n_queues > 64) m << "n_queues = " << c.n_queues << " is out of dsh_mmu's range 1..64";
  else if (c.thresh_latency < kThreshLatencyMin || c.thresh_latency > kThreshLatencyMax)
    m << "thresh_latency = " << c.thresh_latency << " is out of dsh_mmu's range " << kThreshLatencyMin << ".."
      << kThreshLatencyMax;
  else if (c.lanes != 1 || c.deq_per_cycle != 1)
    m << "lanes = " << c.lanes << ", deq_per_cycle = " << c.deq_per_cycle
      << ": models on demand have one lane and one dequeue slot (the lane chips are built in: cosim/CMakeLists.txt)";
  else return true;
  if (why) *why = m.str();
  return false;
}

const RtlVariant& ondemand_rtl_variant(const Config& c) {
  try {
    return ondemand_variant(c);
  } catch (const ConfigError&) {
    throw;
  } catch (const std::exception& e) {  // a file system error: one line, not a crash
    throw RtlBuildError(std::string("RTL model on demand: ") + e.what());
  }
}

namespace {

const RtlVariant& ondemand_variant(const Config& c) {
  std::string why;
  if (!rtl_ondemand_supported(c, &why)) throw ConfigError(why);
  const Request r{c.n_ports, c.n_queues, c.thresh_latency, c.scheme, RtlWidths{}};
  c.validate(r.w);  // nothing is built for a configuration the model would refuse

  std::lock_guard<std::mutex> g(g_mutex);
  const Sources s = sources();
  const Key k = make_key(r, s);
  if (auto i = g_loaded.find(k.dir); i != g_loaded.end()) return i->second->variant;

  const fs::path cache = rtl_cache_dir();
  if (cache.string().find_first_of(" \t\n") != std::string::npos)
    throw RtlBuildError("the RTL model cache " + cache.string() + " has white space in its path (make cannot build "
                        "there): set DSH_RTL_CACHE");
  const fs::path dir = cache / k.dir;
  const bool verbose = !env("DSH_RTL_CACHE_VERBOSE").empty() && env("DSH_RTL_CACHE_VERBOSE") != "0";
  if (!fs::exists(dir / "dsh_rtl.so")) {
    std::error_code ec;
    fs::create_directories(cache, ec);
    if (ec) throw RtlBuildError("cannot create the RTL model cache " + cache.string() + ": " + ec.message());
    FileLock lock((cache / (k.dir + ".lock")).string(),
                  "dsh: waiting for another process building the RTL model for " + r.describe() + "; cache " +
                      cache.string());
    if (!fs::exists(dir / "dsh_rtl.so")) build(r, s, k, cache);
    else if (verbose) std::cerr << "dsh: RTL model for " << r.describe() << " reused from " << dir.string() << std::endl;
  } else if (verbose) {
    std::cerr << "dsh: RTL model for " << r.describe() << " reused from " << dir.string() << std::endl;
  }
  return load(r, k, dir).variant;
}

}  // namespace

}  // namespace dsh
