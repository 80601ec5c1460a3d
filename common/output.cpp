#include "output.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

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
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw InputError(what + " = " + path + ": is a directory, expected a file name");
    if (!S_ISREG(st.st_mode)) throw InputError(what + " = " + path + ": exists and is not a regular file");
    for (const auto& in : inputs)
      if (!in.empty() && same_file(path, in))
        throw InputError(what + " = " + path + ": is the input " + in + " (same file); it would be overwritten");
    if (::access(path.c_str(), W_OK) != 0)
      throw InputError(what + " = " + path + ": cannot write: " + std::strerror(errno));
  }
  const std::string dir = dir_of(path);
  struct stat sd {};
  if (::stat(dir.c_str(), &sd) != 0)
    throw InputError(what + " = " + path + ": directory " + dir + ": " + std::strerror(errno));
  if (!S_ISDIR(sd.st_mode)) throw InputError(what + " = " + path + ": " + dir + " is not a directory");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw InputError(what + " = " + path + ": cannot write in " + dir + ": " + std::strerror(errno));
}

void check_output_dir(const std::string& what, const std::string& path) {
  if (path.empty()) throw InputError(what + " = '': expected a directory name");
  // Create missing parents one at a time, so that the message names the
  // part that failed.
  std::string cur;
  size_t i = 0;
  while (i <= path.size()) {
    const size_t slash = path.find('/', i);
    cur = path.substr(0, slash == std::string::npos ? path.size() : slash);
    i = slash == std::string::npos ? path.size() + 1 : slash + 1;
    if (cur.empty()) continue;
    struct stat st {};
    if (::stat(cur.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) throw InputError(what + " = " + path + ": " + cur + " exists and is not a directory");
      continue;
    }
    if (::mkdir(cur.c_str(), 0777) != 0 && errno != EEXIST)
      throw InputError(what + " = " + path + ": cannot create " + cur + ": " + std::strerror(errno));
  }
  if (::access(path.c_str(), W_OK | X_OK) != 0)
    throw InputError(what + " = " + path + ": cannot write in it: " + std::strerror(errno));
}

AtomicFile::AtomicFile(const std::string& path) : path_(path) {
  tmp_ = dir_of(path) + "/." + base_of(path) + ".tmp-" + std::to_string(::getpid());
  register_temp(tmp_);
  out_.open(tmp_, std::ios::binary | std::ios::trunc);
  if (!out_) {
    const int e = errno;
    unregister_temp(tmp_);
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(e));
  }
}

AtomicFile::~AtomicFile() {
  if (done_) return;
  out_.close();
  ::unlink(tmp_.c_str());
  unregister_temp(tmp_);
}

void AtomicFile::commit() {
  out_.flush();
  const bool ok = bool(out_);
  out_.close();
  if (!ok || out_.fail()) throw std::runtime_error("cannot write " + path_ + " (write error; nothing kept)");
  if (::rename(tmp_.c_str(), path_.c_str()) != 0)
    throw std::runtime_error("cannot rename " + tmp_ + " to " + path_ + ": " + std::strerror(errno));
  done_ = true;
  unregister_temp(tmp_);
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
