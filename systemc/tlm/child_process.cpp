// SPDX-License-Identifier: Apache-2.0
#include "child_process.h"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

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

volatile sig_atomic_t g_interrupted = 0;
void on_interrupt(int sig) { g_interrupted = sig; }

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

bool pool_interrupted() { return g_interrupted != 0; }
int pool_interrupted_status() { return 128 + int(g_interrupted); }

bool run_pool(unsigned jobs, const std::function<std::optional<PoolTask>()>& next,
              const std::function<bool(size_t, const std::string&, int)>& done) {
  struct Child {
    pid_t pid;
    int fd;
    size_t task;
    std::string partial, buf;
  };
  std::vector<Child> running;
  size_t started = 0;
  bool ok = true;
  // Ctrl-C: stop the children we started, by pid, and wait for them.
  struct sigaction sa {}, old_int {}, old_term {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, &old_int);
  ::sigaction(SIGTERM, &sa, &old_term);
  auto restore = [&] {
    ::sigaction(SIGINT, &old_int, nullptr);
    ::sigaction(SIGTERM, &old_term, nullptr);
  };
  auto stop_all = [&] {
    for (Child& c : running) ::kill(c.pid, SIGTERM);  // our own children, by pid
    for (Child& c : running) {
      ::close(c.fd);
      int st = 0;
      while (::waitpid(c.pid, &st, 0) < 0 && errno == EINTR) {
      }
      if (!c.partial.empty()) std::remove(c.partial.c_str());
    }
    running.clear();
  };
  for (;;) {
    if (g_interrupted || !ok) {
      stop_all();
      restore();
      return false;
    }
    while (running.size() < std::max(1u, jobs)) {
      auto t = next();
      if (!t) break;
      int fd = -1;
      const pid_t pid = fork_with_pipe(t->work, fd);
      running.push_back({pid, fd, started++, t->partial_file, {}});
    }
    if (running.empty()) {
      restore();
      return true;
    }
    std::vector<pollfd> pf;
    for (const Child& c : running) pf.push_back({c.fd, POLLIN, 0});
    if (::poll(pf.data(), pf.size(), -1) < 0) {
      if (errno == EINTR) continue;
      stop_all();
      restore();
      throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    }
    for (size_t i = pf.size(); i-- > 0 && ok && !g_interrupted;) {
      if (!(pf[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      Child& c = running[i];
      char buf[65536];
      const ssize_t n = ::read(c.fd, buf, sizeof buf);
      if (n > 0) {
        c.buf.append(buf, size_t(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      ::close(c.fd);
      int status = 0;
      while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
      }
      if (g_interrupted) {  // it may have died of the same Ctrl-C: not a failure, not a result
        running.erase(running.begin() + long(i));
        break;
      }
      const size_t task = c.task;
      const std::string out = std::move(c.buf);
      running.erase(running.begin() + long(i));
      ok = done(task, out, status);
    }
  }
}

}  // namespace dsh
