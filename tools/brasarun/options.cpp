#include "options.h"

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>

namespace brasarun {
namespace {

// The usage line first, then what brasarun does (CLI11 would print a description first).
class Formatter : public CLI::Formatter {
 public:
  std::string make_usage(const CLI::App*, std::string) const override {
    return "usage: brasarun [options] [--] program [args...]\n"
           "Starts nproc-per-node workers of `program` with torchrun's environment (RANK,\n"
           "LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE, GROUP_RANK, MASTER_ADDR, MASTER_PORT,\n"
           "TORCHELASTIC_*), prefixes their output with \"[rank N]: \", stops all of them\n"
           "when one fails and restarts the group. Options take `--opt value` or `--opt=value`;\n"
           "the first argument that is not an option (or everything after `--`) is the program,\n"
           "and its arguments reach it unchanged.\n";
  }
};

// A decimal integer in [lo, hi], rewritten canonically (CLI11 2.1 reads "010" as octal): a
// transform, as check() would keep the text.
CLI::Validator integer_in(long lo, long hi) {
  auto check = [lo, hi](std::string& text) -> std::string {
    long value = 0;
    const char* end = text.data() + text.size();
    auto [stop, error] = std::from_chars(text.data(), end, value);
    if (error != std::errc() || stop != end || value < lo || value > hi)
      return "expects an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
             "], got '" + text + "'";
    text = std::to_string(value);
    return "";
  };
  return CLI::Validator(check, "");
}

CLI::Validator seconds() {
  auto check = [](std::string& text) -> std::string {
    double value = 0;
    const char* end = text.data() + text.size();
    auto [stop, error] = std::from_chars(text.data(), end, value);
    if (error != std::errc() || stop != end || !std::isfinite(value) || value <= 0 || value > 3600)
      return "expects a number of seconds in (0, 3600], got '" + text + "'";
    return "";
  };
  return CLI::Validator(check, "");
}

CLI::Validator non_empty(const std::string& what) {
  return CLI::Validator([what](std::string& text) { return text.empty() ? "expects " + what : ""; },
                        "");
}

void add_options(CLI::App& app, Options& o) {
  app.formatter(std::make_shared<Formatter>());
  app.set_help_flag("-h,--help", "print this text");
  app.prefix_command();  // the first positional argument and all after it are the program's
  app.option_defaults()->always_capture_default()->multi_option_policy(
      CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--nproc-per-node", o.nproc_per_node, "workers on this node")
      ->type_name("N")
      ->transform(integer_in(1, 1024));
  app.add_option("--nnodes", o.nnodes, "number of nodes")
      ->type_name("N")
      ->transform(integer_in(1, 65536));
  app.add_option("--node-rank", o.node_rank, "rank of this node, 0 <= R < nnodes")
      ->type_name("R")
      ->transform(integer_in(0, 65535));
  app.add_option("--master-addr", o.master_addr, "address of rank 0")
      ->type_name("A")
      ->check(non_empty("a host name or address"));
  app.add_option("--master-port", o.master_port,
                 "port of rank 0 (0 = a free port, single node only)")
      ->type_name("P")
      ->transform(integer_in(0, 65535));
  app.add_option("--max-restarts", o.max_restarts, "restarts of the worker group after a failure")
      ->type_name("K")
      ->transform(integer_in(0, 1000000));
  app.add_option("--monitor-interval", o.monitor_interval, "seconds between health checks")
      ->type_name("S")
      ->check(seconds());
  app.add_option("--run-id", o.run_id, "job id given to workers (default: random)")
      ->type_name("ID")
      ->check(non_empty("a non-empty id"));
  app.add_flag_callback(
      "--no-prefix", [&o] { o.prefix = false; }, "pass worker output through unchanged");
}

}  // namespace

ParseResult parse_options(const std::vector<std::string>& args) {
  Options options;
  CLI::App app("", "brasarun");
  add_options(app, options);
  auto bad = [&app](const std::string& why) {
    return ParseResult{std::nullopt, "brasarun: " + why + "\n" + app.help(), 2};
  };
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses from the back
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return ParseResult{std::nullopt, app.help(), 0};  // --help
    return bad(e.what());
  }
  // With prefix_command, CLI11 leaves unknown options (and a leading "--") in remaining() too.
  options.command = app.remaining();
  if (!options.command.empty() && options.command[0] == "--")
    options.command.erase(options.command.begin());
  else if (!options.command.empty() && options.command[0].size() > 1 &&
           options.command[0][0] == '-')
    return bad("unknown option '" + options.command[0] + "'");
  if (options.command.empty()) return bad("no program to run");
  if (options.node_rank >= options.nnodes)
    return bad("--node-rank " + std::to_string(options.node_rank) + " must be < --nnodes " +
               std::to_string(options.nnodes));
  if (options.master_port == 0 && options.nnodes > 1)
    return bad(
        "--master-port 0 (a free local port) only works with --nnodes 1; give the port all nodes "
        "use");
  if (static_cast<long>(options.nnodes) * options.nproc_per_node > (1L << 30))
    return bad("world size too large");
  return ParseResult{options, "", 0};
}

}  // namespace brasarun
