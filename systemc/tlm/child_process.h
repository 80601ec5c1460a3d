// SPDX-License-Identifier: Apache-2.0
// Work in a child process (fork) that hands its result back through a
// pipe. A SystemC kernel elaborates and runs once per process, so every run
// on the SystemC kernel (a scenario point, a test's netlist) runs in one.
#pragma once

#include <sys/types.h>

#include <functional>
#include <optional>
#include <string>

namespace dsh {

// Forks a child that runs `work` and writes what it returns into a pipe;
// the parent gets the child's pid and the pipe's read end. The child stops
// at once on SIGINT/SIGTERM (the parent's handlers are not its own).
pid_t fork_with_pipe(const std::function<std::string()>& work, int& read_fd);

// Runs f in a child process and returns what it returned; an exception or a
// crash comes back as "error: ...".
std::string run_in_child(const std::function<std::string()>& f);

// One task of a pool: its work, run in a child process, and a file it may
// leave half written (a trace), removed when the task is stopped.
struct PoolTask {
  std::function<std::string()> work;
  std::string partial_file;
};

// The one process pool of every scenario: runs the tasks next() gives, each
// in its own child process, `jobs` at a time. done(task, output, wait
// status) is called as each ends, tasks numbered from 0 in next()'s order;
// when it returns false no task is started any more and the running ones are
// stopped, their results dropped. SIGINT/SIGTERM stops every child by pid,
// removes their partial files and returns false with pool_interrupted() set.
// Returns true when every task ran and done() never returned false.
bool run_pool(unsigned jobs, const std::function<std::optional<PoolTask>()>& next,
              const std::function<bool(size_t task, const std::string& out, int status)>& done);
bool pool_interrupted();
// The exit status of a run that interrupt stopped: 128 + the signal, as a
// shell reports a process the signal ended (130 SIGINT, 143 SIGTERM).
int pool_interrupted_status();

}  // namespace dsh
