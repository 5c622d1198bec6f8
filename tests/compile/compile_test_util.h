#pragma once
// Helpers of the compile tests: a private cache directory per test, captured warnings, and
// comparisons of compiled against eager results (bitwise, or within a number of ulps).

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/compile.h"

namespace brasa::compile_test {

/// Points BRASA_COMPILE_CACHE at a fresh directory for the test's lifetime; collects warnings.
class CompileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/brasa_compile_test_XXXXXX";
    dir_ = mkdtemp(tmpl);
    setenv("BRASA_COMPILE_CACHE", dir_.c_str(), 1);
    previous_ = set_warning_handler([this](const std::string& m) { warnings_.push_back(m); });
    reset_compile_stats();
  }
  void TearDown() override {
    set_warning_handler(previous_);
    unsetenv("BRASA_COMPILE_CACHE");
    std::filesystem::remove_all(dir_);
  }
  std::vector<std::string> files_ending(const std::string& suffix) const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir_)) {
      const std::string p = e.path().string();
      if (p.size() >= suffix.size() &&
          p.compare(p.size() - suffix.size(), suffix.size(), suffix) == 0)
        out.push_back(p);
    }
    return out;
  }
  std::string dir_;
  std::vector<std::string> warnings_;
  WarningHandler previous_;
};

inline bool bitwise_equal(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.sizes() != b.sizes()) return false;
  Tensor x = a.contiguous(), y = b.contiguous();
  fused_eager_flush();  // untyped data_ptr() below (the suite also runs with BRASA_FUSED_EAGER=1)
  return std::memcmp(x.data_ptr(), y.data_ptr(), x.nbytes()) == 0;
}

/// Largest distance in ulps between two float tensors of one shape (NaNs must agree).
inline int64_t max_ulps(const Tensor& a, const Tensor& b) {
  Tensor x = a.contiguous().to(kDouble), y = b.contiguous().to(kDouble);
  const bool is_float = a.dtype() == kFloat;
  const double* p = x.data_ptr<double>();
  const double* q = y.data_ptr<double>();
  int64_t worst = 0;
  for (int64_t i = 0; i < x.numel(); ++i) {
    if (std::isnan(p[i]) || std::isnan(q[i])) {
      if (std::isnan(p[i]) != std::isnan(q[i])) return INT64_MAX;
      continue;
    }
    if (p[i] == q[i]) continue;
    // One ulp at the larger magnitude (subnormals: the smallest one).
    const double m = std::max(std::fabs(p[i]), std::fabs(q[i]));
    const double scale = is_float ? std::ldexp(1.0, std::max(std::ilogb(m), -126) - 23)
                                  : std::ldexp(1.0, std::max(std::ilogb(m), -1022) - 52);
    worst =
        std::max<int64_t>(worst, static_cast<int64_t>(std::ceil(std::fabs(p[i] - q[i]) / scale)));
  }
  return worst;
}

}  // namespace brasa::compile_test
