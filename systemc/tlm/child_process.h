// Work in a child process (fork) that hands its result back through a
// pipe. A SystemC kernel elaborates and runs once per process, so every run
// on the SystemC kernel (a scenario point, a test's netlist) runs in one.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>

namespace dsh {

// Forks a child that runs `work` and writes what it returns into a pipe;
// the parent gets the child's pid and the pipe's read end. The child stops
// at once on SIGINT/SIGTERM (the parent's handlers are not its own).
pid_t fork_with_pipe(const std::function<std::string()>& work, int& read_fd);

// Runs f in a child process and returns what it returned; an exception or a
// crash comes back as "error: ...".
std::string run_in_child(const std::function<std::string()>& f);

}  // namespace dsh
