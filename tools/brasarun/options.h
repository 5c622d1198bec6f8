#pragma once
// Command-line options of brasarun, the torchrun-like launcher (see docs/brasarun.md).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace brasarun {

struct Options {
  int nproc_per_node = 1;
  int nnodes = 1;
  int node_rank = 0;
  std::string master_addr = "127.0.0.1";
  int master_port = 29500;  // 0 = pick a free port for every generation
  int max_restarts = 0;
  double monitor_interval = 0.1;  // seconds
  std::string run_id;             // empty = random
  bool prefix = true;
  std::vector<std::string> command;  // the program and its arguments
};

/// What parse_options decided: run with `options`, or print `message` and exit with `exit_code`
/// (0 for --help, 2 for a bad command line).
struct ParseResult {
  std::optional<Options> options;
  std::string message;
  int exit_code = 0;
};

/// Parses brasarun's arguments (argv without argv[0]) with CLI11: its options, then the program and
/// the program's arguments, passed through unchanged.
ParseResult parse_options(const std::vector<std::string>& args);

}  // namespace brasarun
