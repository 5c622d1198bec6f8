#pragma once
// Equivalence with PyTorch for nn modules: both sides fill every named parameter and every input
// from the same closed-form formulas (float64), run forward, back-propagate a fixed weighted sum
// of all outputs, and compare outputs and gradients by name.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "brasa/brasa.h"

namespace brasa::testing_oracle {

inline double name_seed(const std::string& name) {
  int64_t s = 0;
  for (size_t k = 0; k < name.size(); ++k) s += static_cast<int64_t>(k + 1) * name[k];
  return static_cast<double>(s % 1000) * 0.01;
}

inline Tensor formula(IntArrayRef shape, double scale, double step, double offset) {
  int64_t n = 1;
  for (auto d : shape) n *= d;
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) v[static_cast<size_t>(j)] = std::sin(j * step + offset) * scale;
  return detail::tensor_from_array(v.data(), n, kDouble).reshape(shape);
}

/// Every parameter p named n := sin(j * 0.37 + seed(n)) * 0.1.
inline void fill_params(nn::Module& m) {
  NoGradGuard guard;
  for (auto& item : m.named_parameters()) {
    item.value().copy_(formula(item.value().sizes(), 0.1, 0.37, name_seed(item.key())));
  }
}

/// Input number i: cos(j * 0.23 + i) * 0.5 == sin(j * 0.23 + i + pi/2) * 0.5, requiring grad.
inline Tensor input(IntArrayRef shape, int i) {
  return formula(shape, 0.5, 0.23, i + M_PI / 2).requires_grad_();
}

inline const char* python_prelude() {
  return R"PY(
import torch, math
torch.set_default_dtype(torch.float64)
def seed(n): return sum((k+1)*ord(c) for k, c in enumerate(n)) % 1000 * 0.01
def formula(shape, scale, step, off):
    n = math.prod(shape)
    return torch.tensor([math.sin(j*step+off)*scale for j in range(n)]).reshape(shape)
def fill(m):
    with torch.no_grad():
        for n, p in m.named_parameters(): p.copy_(formula(p.shape, 0.1, 0.37, seed(n)))
def inp(shape, i): return formula(shape, 0.5, 0.23, i + math.pi/2).requires_grad_()
def flat(o):
    if o is None: return []
    if isinstance(o, (tuple, list)): return [t for x in o for t in flat(x)]
    return [o]
def pr(k, t):
    print(k, ' '.join(repr(v) for v in t.detach().reshape(-1).tolist()))
def report(m, ins, outs):
    outs = flat(outs)
    loss = sum((o * formula(o.shape, 1.0, 0.11, 0.3*i)).sum() for i, o in enumerate(outs))
    loss.backward()
    for i, o in enumerate(outs): pr('out%d' % i, o)
    for n, p in m.named_parameters(): pr('grad:' + n, p.grad)
    for i, x in enumerate(ins): pr('gin%d' % i, x.grad)
)PY";
}

/// Runs `script` with /usr/bin/python3; returns its exit status and its output (stdout + stderr).
inline std::pair<int, std::string> run_script(const std::string& script, const std::string& path) {
  std::ofstream(path) << script;
  FILE* pipe = popen(("/usr/bin/python3 " + path + " 2>&1").c_str(), "r");
  if (!pipe) return {-1, "popen failed"};
  std::string text;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof(buf), pipe)) text.append(buf, n);
  return {pclose(pipe), text};
}

/// "key v v v" lines as a map; other lines (warnings on stderr) are skipped.
inline std::map<std::string, std::vector<double>> parse_results(const std::string& text) {
  std::map<std::string, std::vector<double>> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string key;
    fields >> key;
    std::vector<double> values;
    bool numbers = true;
    for (std::string v; numbers && fields >> v;) {
      char* end = nullptr;
      values.push_back(std::strtod(v.c_str(), &end));
      numbers = *end == '\0';
    }
    if (numbers) out[key] = values;
  }
  if (out.empty()) ADD_FAILURE() << "python produced no output:\n" << text;
  return out;
}

/// Runs prelude + body with /usr/bin/python3; returns "key v v v" lines as a map.
inline std::map<std::string, std::vector<double>> run_python(const std::string& body) {
  const std::string path = ::testing::TempDir() + "brasa_oracle_" +
                           std::to_string(reinterpret_cast<uintptr_t>(&body)) + ".py";
  return parse_results(run_script(python_prelude() + body, path).second);
}

/// run_python(body) once for all the test processes of a ctest run that ask for the same body.
/// ctest runs every test case in a process of its own and torch's start-up costs 1-2 s, so a
/// suite puts all its cases in one body and each case picks its keys. The output is kept in
/// BRASA_ORACLE_CACHE_DIR (which the ctest fixture `oracle_cache_reset` empties at the start of
/// every run) under a hash of the script; a file lock makes concurrent cases wait for the first.
/// A failed run is reported and not kept.
inline const std::map<std::string, std::vector<double>>& run_python_shared(
    const std::string& body) {
  static std::map<std::string, std::map<std::string, std::vector<double>>> in_process;
  const std::string script = python_prelude() + body;
  if (auto it = in_process.find(script); it != in_process.end()) return it->second;
  uint64_t hash = 14695981039346656037ull;  // FNV-1a
  for (unsigned char c : script) hash = (hash ^ c) * 1099511628211ull;
  namespace fs = std::filesystem;
  const fs::path dir = BRASA_ORACLE_CACHE_DIR;
  std::error_code ec;
  fs::create_directories(dir, ec);
  const std::string stem = (dir / ("oracle_" + std::to_string(hash))).string();
  const int lock = open((stem + ".lock").c_str(), O_CREAT | O_RDWR, 0644);
  if (lock >= 0) flock(lock, LOCK_EX);
  std::string text;
  if (std::ifstream cached(stem + ".txt"); cached) {
    text.assign(std::istreambuf_iterator<char>(cached), std::istreambuf_iterator<char>());
  } else {
    auto [status, out] = run_script(script, stem + ".py");
    text = std::move(out);
    if (status == 0) {
      std::ofstream(stem + ".tmp") << text;
      fs::rename(stem + ".tmp", stem + ".txt", ec);
    } else {
      ADD_FAILURE() << "python exited with status " << status << ":\n" << text;
    }
  }
  if (lock >= 0) close(lock);  // releases the lock
  return in_process[script] = parse_results(text);
}

inline void expect_close(const std::string& key, const Tensor& t,
                         const std::map<std::string, std::vector<double>>& ref, double tol = 1e-5) {
  auto it = ref.find(key);
  ASSERT_NE(it, ref.end()) << "PyTorch has no " << key;
  ASSERT_TRUE(t.defined()) << key << " is undefined in brasa";
  Tensor flat = t.detach().to(kDouble).contiguous().reshape({-1});
  ASSERT_EQ(static_cast<size_t>(flat.numel()), it->second.size()) << key;
  const double* p = flat.data_ptr<double>();
  double worst = 0;
  for (size_t j = 0; j < it->second.size(); ++j) {
    worst = std::max(worst, std::abs(p[j] - it->second[j]) / (1.0 + std::abs(it->second[j])));
  }
  EXPECT_LT(worst, tol) << key;
}

/// Exact equality with PyTorch's values for `key`, element by element (NaN equals NaN); on a
/// mismatch, how many elements differ and the first of them.
inline void expect_equal(const std::string& key, const Tensor& t,
                         const std::map<std::string, std::vector<double>>& ref) {
  auto it = ref.find(key);
  ASSERT_NE(it, ref.end()) << "PyTorch has no " << key;
  Tensor flat = t.detach().to(kDouble).contiguous().reshape({-1});
  ASSERT_EQ(static_cast<size_t>(flat.numel()), it->second.size()) << key;
  const double* p = flat.data_ptr<double>();
  size_t bad = 0, first = 0;
  for (size_t j = 0; j < it->second.size(); ++j) {
    if (p[j] != it->second[j] && !(std::isnan(p[j]) && std::isnan(it->second[j]))) {
      if (bad++ == 0) first = j;
    }
  }
  EXPECT_EQ(bad, 0u) << key << ": " << bad << " of " << it->second.size() << " differ, first at "
                     << first << " (brasa " << p[first] << ", torch " << it->second[first] << ")";
}

/// The brasa half of `report`: backward of the weighted sum, then compares outputs, parameter
/// gradients and input gradients with PyTorch's.
inline void compare(nn::Module& m, const std::vector<Tensor>& ins, const std::vector<Tensor>& outs,
                    const std::map<std::string, std::vector<double>>& ref, double tol = 1e-5) {
  Tensor loss;
  for (size_t i = 0; i < outs.size(); ++i) {
    Tensor term =
        (outs[i] * formula(outs[i].sizes(), 1.0, 0.11, 0.3 * static_cast<double>(i))).sum();
    loss = loss.defined() ? loss + term : term;
  }
  loss.backward();
  for (size_t i = 0; i < outs.size(); ++i)
    expect_close("out" + std::to_string(i), outs[i], ref, tol);
  for (auto& item : m.named_parameters()) {
    expect_close("grad:" + item.key(), item.value().grad(), ref, tol);
  }
  for (size_t i = 0; i < ins.size(); ++i) {
    expect_close("gin" + std::to_string(i), ins[i].grad(), ref, tol);
  }
}

}  // namespace brasa::testing_oracle
