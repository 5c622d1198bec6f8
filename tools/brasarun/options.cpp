#include "options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>

namespace brasarun {

std::string usage_text() {
  return "usage: brasarun [options] [--] program [args...]\n"
         "Starts nproc-per-node workers of `program` with torchrun's environment (RANK, "
         "LOCAL_RANK,\n"
         "WORLD_SIZE, LOCAL_WORLD_SIZE, GROUP_RANK, MASTER_ADDR, MASTER_PORT, TORCHELASTIC_*), "
         "prefixes\n"
         "their output with \"[rank N]: \", stops all of them when one fails and restarts the "
         "group.\n"
         "options (--opt value or --opt=value):\n"
         "  --nproc-per-node N     workers on this node (default 1)\n"
         "  --nnodes N             number of nodes (default 1)\n"
         "  --node-rank R          rank of this node, 0 <= R < nnodes (default 0)\n"
         "  --master-addr A        address of rank 0 (default 127.0.0.1)\n"
         "  --master-port P        port of rank 0 (default 29500; 0 = a free port, single node "
         "only)\n"
         "  --max-restarts K       restarts of the worker group after a failure (default 0)\n"
         "  --monitor-interval S   seconds between health checks (default 0.1)\n"
         "  --run-id ID            job id given to workers (default: random)\n"
         "  --no-prefix            pass worker output through unchanged\n"
         "  --help                 print this text\n";
}

namespace {

std::optional<long> parse_int(const std::string& text, long lo, long hi) {
  if (text.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  long value = std::strtol(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || value < lo || value > hi) return std::nullopt;
  return value;
}

std::optional<double> parse_seconds(const std::string& text) {
  if (text.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(value) || value <= 0 || value > 3600)
    return std::nullopt;
  return value;
}

ParseResult bad(const std::string& why) {
  return ParseResult{std::nullopt, "brasarun: " + why + "\n" + usage_text(), 2};
}

using Setter = std::function<bool(Options&, const std::string&)>;

Setter int_setter(int Options::*field, long lo, long hi) {
  return [field, lo, hi](Options& o, const std::string& v) {
    auto n = parse_int(v, lo, hi);
    if (n) o.*field = static_cast<int>(*n);
    return n.has_value();
  };
}

const std::map<std::string, std::pair<Setter, std::string>>& valued_options() {
  static const std::map<std::string, std::pair<Setter, std::string>> table = {
      {"--nproc-per-node",
       {int_setter(&Options::nproc_per_node, 1, 1024), "an integer in [1, 1024]"}},
      {"--nnodes", {int_setter(&Options::nnodes, 1, 65536), "an integer in [1, 65536]"}},
      {"--node-rank", {int_setter(&Options::node_rank, 0, 65535), "an integer in [0, 65535]"}},
      {"--master-port", {int_setter(&Options::master_port, 0, 65535), "a port in [0, 65535]"}},
      {"--max-restarts", {int_setter(&Options::max_restarts, 0, 1000000), "an integer >= 0"}},
      {"--master-addr",
       {[](Options& o, const std::string& v) {
          o.master_addr = v;
          return !v.empty();
        },
        "a host name or address"}},
      {"--run-id",
       {[](Options& o, const std::string& v) {
          o.run_id = v;
          return !v.empty();
        },
        "a non-empty id"}},
      {"--monitor-interval",
       {[](Options& o, const std::string& v) {
          auto s = parse_seconds(v);
          if (s) o.monitor_interval = *s;
          return s.has_value();
        },
        "a number of seconds in (0, 3600]"}},
  };
  return table;
}

}  // namespace

ParseResult parse_options(const std::vector<std::string>& args) {
  Options options;
  size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg.rfind("-", 0) != 0 || arg == "-") break;  // the program starts here
    if (arg == "--help" || arg == "-h") return ParseResult{std::nullopt, usage_text(), 0};
    if (arg == "--no-prefix") {
      options.prefix = false;
      continue;
    }
    std::string name = arg;
    std::optional<std::string> value;
    if (auto eq = arg.find('='); eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
    }
    auto it = valued_options().find(name);
    if (it == valued_options().end()) return bad("unknown option '" + name + "'");
    if (!value) {
      if (i + 1 >= args.size()) return bad("option " + name + " needs a value");
      value = args[++i];
    }
    const auto& [setter, expected] = it->second;
    if (!setter(options, *value))
      return bad("option " + name + " expects " + expected + ", got '" + *value + "'");
  }
  options.command.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
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
