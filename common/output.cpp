// SPDX-License-Identifier: Apache-2.0
#include "output.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace dsh {

namespace {

std::string dir_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Signal-safe table of temporary files.
constexpr int kMaxTemps = 32;
constexpr size_t kMaxPath = 1024;
char g_temps[kMaxTemps][kMaxPath];
volatile sig_atomic_t g_temp_used[kMaxTemps];
char g_tool[64] = "dsh";
char g_note[512] = "no output written";

int g_stdout_fd = 1;  // where "-" goes (report_to_stderr() moves the report away)

// The nearest existing ancestor of a missing directory, checked: a writable
// directory, nothing on the way a file.
void check_creatable(const std::string& what, const std::string& path, std::string dir) {
  for (;;) {
    struct stat sd {};
    if (::stat(dir.c_str(), &sd) == 0) {
      if (!S_ISDIR(sd.st_mode)) throw InputError(what + " = " + path + ": " + dir + " is not a directory");
      if (::access(dir.c_str(), W_OK | X_OK) != 0)
        throw InputError(what + " = " + path + ": cannot write in " + dir + ": " + std::strerror(errno));
      return;
    }
    if (errno != ENOENT && errno != ENOTDIR)
      throw InputError(what + " = " + path + ": directory " + dir + ": " + std::strerror(errno));
    dir = dir_of(dir);
  }
}

bool is_dev_null(const std::string& path) { return same_file(path, "/dev/null"); }

// Existing, and neither a regular file nor a directory: a device or a FIFO.
bool is_special(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

void copy_to_fd(const std::string& from, int fd, const std::string& to) {
  const int in = ::open(from.c_str(), O_RDONLY);
  if (in < 0) throw std::runtime_error("cannot read " + from + ": " + std::strerror(errno));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(in, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int e = errno;
      ::close(in);
      throw std::runtime_error("cannot read " + from + ": " + std::strerror(e));
    }
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = ::write(fd, buf + done, size_t(n - done));
      if (w < 0) {
        if (errno == EINTR) continue;
        const int e = errno;
        ::close(in);
        throw std::runtime_error("cannot write " + to + ": " + std::strerror(e));
      }
      done += w;
    }
  }
  ::close(in);
}

void on_signal(int sig) {
  for (int i = 0; i < kMaxTemps; ++i)
    if (g_temp_used[i]) ::unlink(g_temps[i]);
  auto put = [](const char* s) { (void)!::write(2, s, std::strlen(s)); };
  put("\n");
  put(g_tool);
  put(": interrupted; ");
  put(g_note);
  put("\n");
  ::_exit(128 + sig);
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void check_output_file(const std::string& what, const std::string& path, const std::vector<std::string>& inputs) {
  if (path.empty()) throw InputError(what + " = '': expected a file name");
  if (path == "-") return;  // stdout
  if (path.back() == '/') throw InputError(what + " = " + path + ": names a directory, expected a file name");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw InputError(what + " = " + path + ": is a directory, expected a file name");
    for (const auto& in : inputs)
      if (!in.empty() && same_file(path, in))
        throw InputError(what + " = " + path + ": is the input " + in + " (same file); it would be overwritten");
    if (::access(path.c_str(), W_OK) != 0)
      throw InputError(what + " = " + path + ": cannot write: " + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) return;  // a device or a FIFO, written in place
  }
  check_creatable(what, path, dir_of(path));
}

void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
  for (size_t i = 0; i < outputs.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      const auto& [wa, a] = outputs[j];
      const auto& [wb, b] = outputs[i];
      if (a.empty() || b.empty()) continue;
      if (a == "-" && b == "-") throw InputError(wb + " = -: stdout is already " + wa + "'s");
      if (a == "-" || b == "-" || is_special(a) || is_special(b)) continue;
      if (a == b || same_file(a, b)) throw InputError(wb + " = " + b + ": is also the " + wa + " file");
    }
}

void make_output_dirs(const std::string& dir, const std::string& why) {
  std::string cur, made;
  size_t i = 0;
  while (i <= dir.size()) {
    const size_t slash = dir.find('/', i);
    cur = dir.substr(0, slash == std::string::npos ? dir.size() : slash);
    i = slash == std::string::npos ? dir.size() + 1 : slash + 1;
    if (cur.empty()) continue;
    struct stat st {};
    if (::stat(cur.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) throw InputError(why + ": " + cur + " exists and is not a directory");
      continue;
    }
    if (::mkdir(cur.c_str(), 0777) != 0 && errno != EEXIST)
      throw InputError(why + ": cannot create " + cur + ": " + std::strerror(errno));
    if (made.empty()) made = cur;
  }
  if (!made.empty())
    std::cerr << program_invocation_short_name << ": created directory " << dir << " for " << why << '\n';
}

void report_to_stderr() {
  if (g_stdout_fd != 1) return;
  std::cout.flush();
  std::fflush(stdout);
  g_stdout_fd = ::dup(1);
  ::dup2(2, 1);
}

void check_output_dir(const std::string& what, const std::string& path) {
  if (path.empty()) throw InputError(what + " = '': expected a directory name");
  make_output_dirs(path, what + " = " + path);
  if (::access(path.c_str(), W_OK | X_OK) != 0)
    throw InputError(what + " = " + path + ": cannot write in it: " + std::strerror(errno));
}

void check_output_dir_usable(const std::string& what, const std::string& path) {
  if (path.empty()) throw InputError(what + " = '': expected a directory name");
  std::string cur, parent = path[0] == '/' ? "/" : ".";
  for (size_t i = 0; i <= path.size();) {
    const size_t slash = path.find('/', i);
    cur = path.substr(0, slash == std::string::npos ? path.size() : slash);
    i = slash == std::string::npos ? path.size() + 1 : slash + 1;
    if (cur.empty()) continue;
    struct stat st {};
    if (::stat(cur.c_str(), &st) != 0) break;  // missing from here on: created when the run writes
    if (!S_ISDIR(st.st_mode)) throw InputError(what + " = " + path + ": " + cur + " exists and is not a directory");
    parent = cur;
  }
  if (::access(parent.c_str(), W_OK | X_OK) != 0)
    throw InputError(what + " = " + path + ": cannot write in " + parent + ": " + std::strerror(errno));
}

AtomicFile::AtomicFile(const std::string& path, bool open_stream) : path_(path), stream_(open_stream) {
  static std::atomic<unsigned> serial{0};  // two temporary files of one process never share a name
  const std::string tag = ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(serial++);
  in_place_ = path == "-" || is_special(path);
  if (in_place_) {
    const char* t = std::getenv("TMPDIR");
    tmp_ = std::string(t && *t ? t : "/tmp") + "/.dsh-" + (path == "-" ? std::string("stdout") : base_of(path)) + tag;
  } else {
    make_output_dirs(dir_of(path), path);
    tmp_ = dir_of(path) + "/." + base_of(path) + tag;
  }
  register_temp(tmp_);
  if (!stream_) {
    side_ = tmp_ + ".hier";
    register_temp(side_);
    return;
  }
  out_.open(tmp_, std::ios::binary | std::ios::trunc);
  if (!out_) {
    const int e = errno;
    unregister_temp(tmp_);
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(e));
  }
}

AtomicFile::~AtomicFile() {
  if (done_) return;
  if (stream_) out_.close();
  ::unlink(tmp_.c_str());
  unregister_temp(tmp_);
  drop_side();
}

void AtomicFile::drop_side() {
  if (side_.empty()) return;
  ::unlink(side_.c_str());
  unregister_temp(side_);
}

void AtomicFile::commit() {
  if (stream_) {
    out_.flush();
    const bool ok = bool(out_);
    out_.close();
    if (!ok || out_.fail()) throw std::runtime_error("cannot write " + path_ + " (write error; nothing kept)");
  } else if (::access(tmp_.c_str(), F_OK) != 0) {
    throw std::runtime_error("cannot write " + path_ + ": " + tmp_ + " was not written");
  }
  if (in_place_) {
    if (path_ == "-") {
      copy_to_fd(tmp_, g_stdout_fd, "stdout");
    } else if (!is_dev_null(path_)) {
      const int fd = ::open(path_.c_str(), O_WRONLY);
      if (fd < 0) throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(errno));
      try {
        copy_to_fd(tmp_, fd, path_);
      } catch (...) {
        ::close(fd);
        throw;
      }
      ::close(fd);
    }
    ::unlink(tmp_.c_str());
  } else if (::rename(tmp_.c_str(), path_.c_str()) != 0) {
    throw std::runtime_error("cannot rename " + tmp_ + " to " + path_ + ": " + std::strerror(errno));
  }
  done_ = true;
  unregister_temp(tmp_);
  drop_side();
}

void write_file_atomically(const std::string& path, const std::string& text) {
  AtomicFile f(path);
  f.out() << text;
  f.commit();
}

void register_temp(const std::string& path) {
  if (path.size() >= kMaxPath) return;
  for (int i = 0; i < kMaxTemps; ++i)
    if (!g_temp_used[i]) {
      std::memcpy(g_temps[i], path.c_str(), path.size() + 1);
      g_temp_used[i] = 1;
      return;
    }
}

void unregister_temp(const std::string& path) {
  for (int i = 0; i < kMaxTemps; ++i)
    if (g_temp_used[i] && path == g_temps[i]) {
      g_temp_used[i] = 0;
      return;
    }
}

void install_interrupt_cleanup(const char* tool, const std::string& note) {
  std::snprintf(g_tool, sizeof g_tool, "%s", tool);
  std::snprintf(g_note, sizeof g_note, "%s", note.c_str());
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

}  // namespace dsh
