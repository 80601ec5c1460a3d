#include "child_process.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace dsh {

namespace {

bool write_all(int fd, const void* buf, size_t n) {
  const char* c = static_cast<const char*>(buf);
  while (n) {
    const ssize_t w = ::write(fd, c, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    c += w;
    n -= size_t(w);
  }
  return true;
}

}  // namespace

// Forks a child that runs `work` and writes its result into a pipe; the
// parent gets the child's pid and the pipe's read end.
pid_t fork_with_pipe(const std::function<std::string()>& work, int& read_fd) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    // The parent's interrupt handler is not the child's: a child stops at
    // once on SIGINT/SIGTERM (the parent removes what it leaves).
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    ::close(fds[0]);
    const std::string out = work();
    write_all(fds[1], out.data(), out.size());
    ::close(fds[1]);
    std::fflush(stdout);
    std::fflush(stderr);
    ::_exit(0);
  }
  ::close(fds[1]);
  read_fd = fds[0];
  return pid;
}

std::string run_in_child(const std::function<std::string()>& f) {
  int fd = -1;
  const pid_t pid = fork_with_pipe(
      [&] {
        try {
          return f();
        } catch (const std::exception& e) {
          return std::string("error: ") + e.what();
        }
      },
      fd);
  std::string buf;
  char b[4096];
  for (ssize_t n; (n = ::read(fd, b, sizeof b)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    buf.append(b, size_t(n));
  }
  ::close(fd);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (buf.empty() && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) return "error: child process failed";
  return buf;
}

}  // namespace dsh
