// SPDX-License-Identifier: Apache-2.0
// Outputs that lose nothing: output paths are checked before a run
// starts, and results are written under a temporary name and renamed into
// place when complete, so an interrupted or failed run never leaves a file
// that looks finished. Plain C++17 and POSIX.
#pragma once

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "input.h"

namespace dsh {

// An output file (docs/guide/tools.md, "Outputs"): `path` must not be empty, not
// a directory, not the same file (device and inode) as any of `inputs`. "-"
// is stdout; an existing device or FIFO (/dev/null) is written in place. A
// missing directory is created when the run starts (AtomicFile), so here
// the nearest existing one must be a writable directory and nothing on the
// way a file. An existing file must be writable. Throws InputError naming
// `what` ("-o", "--stimulus-out") and the path.
void check_output_file(const std::string& what, const std::string& path, const std::vector<std::string>& inputs = {});

// Outputs of one run, {option, path}: at most one is "-" (stdout), and no
// two are the same regular file. Throws InputError naming both options.
void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);

// An output directory: created (with parents) when missing, and said so on
// stderr; must be a writable directory. Throws InputError naming `what` and
// the path.
void check_output_dir(const std::string& what, const std::string& path);
// The same checks without creating anything: an existing directory must be
// writable; a missing one must be creatable (no part of it is a file, its
// nearest existing parent is writable). For validation before a run that
// may still be refused, so that a refused run leaves nothing behind.
void check_output_dir_usable(const std::string& what, const std::string& path);

// Creates the missing directories of `dir` (with parents) and says so on
// stderr ("<tool>: created directory <dir> for <why>"); throws InputError.
void make_output_dirs(const std::string& dir, const std::string& why);

// A tool whose report goes to stdout calls this when an output is "-": the
// report goes to stderr from then on, and that output to the real stdout.
void report_to_stderr();

// True when a and b name the same existing file (device and inode).
bool same_file(const std::string& a, const std::string& b);

// Writes `path` through "<dir>/.<name>.tmp-<pid>": commit() flushes, checks
// the stream and renames over `path`; the destructor removes the temporary
// file when commit() was not reached. The temporary name is registered for
// removal on SIGINT/SIGTERM (install_interrupt_cleanup). Missing directories
// of `path` are created (and said so). For "-" (stdout) and an existing
// device or FIFO the temporary file is in $TMPDIR and commit() copies it
// there (nothing to copy for /dev/null). open_stream false: only the name is
// reserved, for a writer that opens temp_path() itself (an FST trace); such
// a writer may keep a side file "<temp>.hier" until it closes (the FST
// writer's hierarchy), removed with the temporary file.
class AtomicFile {
 public:
  explicit AtomicFile(const std::string& path, bool open_stream = true);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  std::ostream& out() { return out_; }
  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return tmp_; }
  void commit();  // throws std::runtime_error naming the path on a write error
 private:
  void drop_side();
  std::string path_, tmp_;
  std::string side_;  // open_stream false: "<tmp_>.hier", else empty
  std::ofstream out_;
  bool stream_ = true;
  bool in_place_ = false;  // "-" or a device: copied at commit(), not renamed
  bool done_ = false;
};

// Writes `text` to `path` through an AtomicFile.
void write_file_atomically(const std::string& path, const std::string& text);

// Temporary files to remove when the process is interrupted. Kept in a fixed
// table so that the signal handler needs no allocation.
void register_temp(const std::string& path);
void unregister_temp(const std::string& path);

// SIGINT and SIGTERM: remove the registered temporary files, print
// "<tool>: interrupted; <note>" and exit 130 (SIGINT) or 143 (SIGTERM).
// `note` says what was kept; it is copied.
void install_interrupt_cleanup(const char* tool, const std::string& note = "no output written");

}  // namespace dsh
