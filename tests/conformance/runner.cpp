// brasa_conformance [--all] [--known known_failures.txt] [--backend LIB] [--device DEV]
// [--capability default|avx2|avx512] <fixture.bin>...: runs every case of the fixtures written by
// generate.py through the op maps (ops_<family>.cpp) and compares with PyTorch; with --device, runs
// each case on the CPU and on DEV (a backend loaded with --backend or BRASA_BACKENDS) and compares
// the two (backend_mode.h). Prints failures, a summary line "conformance: N ops, N cases checked, N
// failed" (--all: every failure, not the first 60) and a last line "N passed, N failed". Exit 0
// when all pass, 1 on failures, 2 on harness errors, 77 (ctest: skipped) without fixtures or when
// the CPU kernels in use are not the --capability build (set BRASA_CPU_CAPABILITY_OVERRIDE to force
// a lower one).

#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "backend_mode.h"
#include "backends/cpu/stub.h"
#include "brasa/backend/backend.h"
#include "compare.h"
#include "registry.h"

namespace brasa::conformance {
namespace {

constexpr int kDefaultReported = 60;

struct Tally {
  int64_t passed = 0, failed = 0, known = 0;
  std::set<std::string> ops;
  std::map<std::string, int64_t> failed_by_op;
};

// Note [Known failures]: known_failures.txt lists gaps of brasa that the owner of the op has not
// fixed yet, as "kind | op regex | label regex | reason". A failure is excused only when its kind
// matches (missing-error: PyTorch raised and brasa did not; dtype; values; ...), so an entry never
// hides a different kind of bug. Entries that excused nothing are reported as stale.
struct KnownFailure {
  std::string kind;
  std::regex op, label;
  std::string text;
  int64_t hits = 0;
};

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<KnownFailure> read_known_failures(const std::string& path) {
  std::vector<KnownFailure> out;
  std::ifstream in(path);
  if (!in) throw HarnessError(path + ": cannot open");
  std::string line;
  while (std::getline(in, line)) {
    if (trim(line).empty() || trim(line)[0] == '#') continue;
    std::vector<std::string> parts;
    size_t start = 0, bar;
    while (parts.size() < 3 && (bar = line.find(" | ", start)) != std::string::npos) {
      parts.push_back(trim(line.substr(start, bar - start)));
      start = bar + 3;
    }
    parts.push_back(trim(line.substr(start)));
    if (parts.size() != 4) throw HarnessError(path + ": malformed line: " + line);
    out.push_back({parts[0], std::regex(parts[1]), std::regex(parts[2]), line});
  }
  return out;
}

std::string failure_kind(const std::string& why) {
  if (why.rfind("expected an error", 0) == 0) return "missing-error";
  if (why.rfind("brasa threw", 0) == 0) return "unexpected-error";
  size_t colon = why.find(':');
  return colon == std::string::npos ? "other" : why.substr(0, colon);
}

KnownFailure* find_known(std::vector<KnownFailure>& known, const Case& c, const std::string& why) {
  std::string kind = failure_kind(why);
  for (auto& k : known)
    if (k.kind == kind && std::regex_match(c.op, k.op) && std::regex_match(c.label, k.label))
      return &k;
  return nullptr;
}

std::string describe_call(const Case& c) {
  std::string s = c.op + "(";
  for (size_t k = 0; k < c.args.size(); ++k) s += (k ? ", " : "") + c.args[k].describe();
  for (const auto& [name, v] : c.kwargs) s += ", " + name + "=" + v.describe();
  return s + ")";
}

/// Replays the case with its float inputs as leaves and compares brasa's gradients with PyTorch's
/// (Note [Gradient conformance]); empty when they match.
std::string run_grad_case(const Case& c, const OpFn& fn) {
  const GradCase& g = *c.grad;
  Case gc = c;
  std::vector<Tensor> leaves;
  for (const GradInput& in : g.inputs) {
    Value& slot = in.is_kwarg ? [&]() -> Value& {
      for (auto& [name, v] : gc.kwargs)
        if (name == in.name) return v;
      throw HarnessError("grad input names a missing keyword " + in.name);
    }()
        : gc.args.at(in.index);
    slot.tensor = slot.tensor.detach().requires_grad_(true);
    leaves.push_back(slot.tensor);
  }
  try {
    Value actual = fn(Args(gc));
    std::vector<Tensor> outs = differentiable_outputs(actual);
    if (outs.size() != g.grad_outputs.size())
      return "grad: " + std::to_string(outs.size()) + " outputs require grad, PyTorch has " +
             std::to_string(g.grad_outputs.size());
    auto grads = brasa::autograd::grad(outs, leaves, g.grad_outputs, std::nullopt, false, true);
    for (size_t k = 0; k < grads.size(); ++k) {
      const GradInput& in = g.inputs[k];
      std::string where = in.is_kwarg ? in.name : "input " + std::to_string(in.index);
      if (in.expected.tag == Tag::None) {
        if (grads[k].defined() && grads[k].ne(0).any().item<bool>())
          return "grad: " + where + " got a non-zero gradient where PyTorch has none";
        continue;
      }
      if (!grads[k].defined()) return "grad: " + where + " got no gradient";
      std::string why = compare_values(in.expected, Value(grads[k]), g.rtol, g.atol, 0);
      if (!why.empty()) return "grad: " + where + ": " + why;
    }
    return "";
  } catch (const brasa::Error& e) {
    return std::string("grad: brasa threw: ") + e.what();
  }
}

std::optional<Device> g_device;  // backend mode: compare this device with the CPU

/// Empty when the case passes, else why it failed.
std::string run_case(const Case& c) {
  const OpFn* fn = find_op(c.op);
  if (!fn) return "no C++ mapping for op '" + c.op + "' (add it to ops_<family>.cpp)";
  if (g_device) {
    try {
      return run_case_on_device(c, *fn, *g_device);
    } catch (const std::exception& e) {
      return std::string("harness error: ") + e.what();
    }
  }
  Args args(c);
  try {
    Value actual = (*fn)(args);
    if (c.expect_error)
      return "expected an error like PyTorch's (" + c.error + "), got " + actual.describe();
    std::string why = compare_values(c.expected, actual, c.rtol, c.atol, c.flags);
    if (!why.empty() || !c.grad) return why;
    return run_grad_case(c, *fn);
  } catch (const brasa::Error& e) {
    if (c.expect_error) return "";
    return std::string("brasa threw: ") + e.what();
  } catch (const HarnessError& e) {
    return std::string("harness error: ") + e.what();
  } catch (const std::exception& e) {
    return std::string("non-brasa exception (") + e.what() + ")";
  }
}

}  // namespace
}  // namespace brasa::conformance

int main(int argc, char** argv) {
  using namespace brasa::conformance;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <fixture.bin>...\n", argv[0]);
    return 2;
  }
  for (const auto& d : duplicate_ops()) {
    std::fprintf(stderr, "conformance: op '%s' is mapped twice\n", d.c_str());
    return 2;
  }
  Tally tally;
  int reported = 0, max_reported = kDefaultReported;
  std::vector<KnownFailure> known;
  for (int f = 1; f < argc; ++f) {
    if (std::string(argv[f]) == "--all") {
      max_reported = 1 << 30;
      continue;
    }
    if ((std::string(argv[f]) == "--backend" || std::string(argv[f]) == "--device") &&
        f + 1 < argc) {
      const bool is_backend = std::string(argv[f]) == "--backend";
      try {
        if (is_backend)
          brasa::backend::load_backend(argv[++f]);
        else
          g_device = brasa::Device(argv[++f]);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "conformance: %s\n", e.what());
        return 2;
      }
      continue;
    }
    if (std::string(argv[f]) == "--capability" && f + 1 < argc) {
      const std::string want = argv[++f];
      const char* have = brasa::cpu::to_string(brasa::cpu::cpu_capability());
      if (want != have) {
        std::printf("conformance: skipped: the CPU kernels in use are the %s build, not %s\n", have,
                    want.c_str());
        return 77;
      }
      std::printf("conformance: CPU kernels: the %s build\n", have);
      continue;
    }
    if (std::string(argv[f]) == "--known" && f + 1 < argc) {
      try {
        known = read_known_failures(argv[++f]);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "conformance: %s\n", e.what());
        return 2;
      }
      continue;
    }
    std::vector<Case> cases;
    try {
      cases = read_fixture(argv[f]);
    } catch (const HarnessError& e) {
      std::fprintf(stderr, "conformance: %s\n", e.what());
      return 2;
    }
    for (const Case& c : cases) {
      tally.ops.insert(c.op);
      std::string why = run_case(c);
      if (why.empty()) {
        ++tally.passed;
        continue;
      }
      if (KnownFailure* k = find_known(known, c, why)) {
        ++k->hits;
        ++tally.known;
        continue;
      }
      ++tally.failed;
      ++tally.failed_by_op[c.op];
      if (reported++ < max_reported)
        std::cout << "FAIL " << c.op << " [" << c.label << "]\n  call: " << describe_call(c)
                  << "\n  " << why << "\n";
    }
  }
  if (reported > max_reported) std::cout << "... " << reported - max_reported << " more failures\n";
  if (!tally.failed_by_op.empty()) {
    std::cout << "failures by op:";
    for (const auto& [op, n] : tally.failed_by_op) std::cout << " " << op << "=" << n;
    std::cout << "\n";
  }
  for (const auto& k : known)
    if (k.hits == 0)
      std::cout << "stale known failure (excused nothing; remove it): " << k.text << "\n";
  std::cout << "conformance" << (g_device ? " on " + g_device->str() + " against the CPU" : "")
            << ": " << tally.ops.size() << " ops, " << tally.passed + tally.failed + tally.known
            << " cases checked, " << tally.failed << " failed";
  if (tally.known)
    std::cout << " (" << tally.known << " known failures excused by known_failures.txt)";
  std::cout << "\n";
  std::cout << tally.passed << " passed, " << tally.failed << " failed" << std::endl;
  return tally.failed == 0 ? 0 : 1;
}
