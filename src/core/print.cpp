// operator<< and Tensor::print() in libtorch's exact format (values as doubles in a fixed-width
// column with an optional "scale *" line, "(i,j,.,.) = " blocks for 3-D and up, then
// "[ CPUFloatType{2,3} ]"). The column width and notation come from the values' magnitudes.
#include <cmath>
#include <iomanip>
#include <iostream>
#include <vector>

#include "brasa/core/tensor.h"
#include "core/device_hooks.h"

namespace brasa {
namespace {

constexpr int64_t kLineWidth = 80;

/// Restores every formatting setting of the stream on scope exit.
class FormatGuard {
 public:
  explicit FormatGuard(std::ostream& os) : os_(os), saved_(nullptr) { saved_.copyfmt(os); }
  ~FormatGuard() { os_.copyfmt(saved_); }
  FormatGuard(const FormatGuard&) = delete;
  FormatGuard& operator=(const FormatGuard&) = delete;

 private:
  std::ostream& os_;
  std::ios saved_;
};

struct Format {
  double scale = 1;
  int64_t width = 0;
};

/// Number of digits before the point of |v| (1 for 0), as libtorch computes it.
double digits(double v) { return v != 0 ? std::floor(std::log10(v)) + 1 : 1; }

// Chooses notation (integer, fixed with 4 decimals, optionally scaled, or scientific) and column
// width from the finite values, and sets it on the stream. Mirrors libtorch, including its
// comparison of the signed value against the running maximum magnitude.
Format choose_format(std::ostream& os, const double* p, int64_t n) {
  if (n == 0) return {1, 0};
  bool int_mode = true;
  for (int64_t i = 0; i < n; ++i)
    if (std::isfinite(p[i]) && p[i] != std::ceil(p[i])) {
      int_mode = false;
      break;
    }
  int64_t first = 0;
  while (first < n && !std::isfinite(p[first])) ++first;
  double exp_min = 1, exp_max = 1;
  if (first != n) {
    double lo = std::fabs(p[first]), hi = lo;
    for (int64_t i = first; i < n; ++i) {
      double z = std::fabs(p[i]);
      if (!std::isfinite(z)) continue;
      if (z < lo) lo = z;
      if (p[i] > hi) hi = z;
    }
    exp_min = digits(lo);
    exp_max = digits(hi);
  }
  Format f;
  if (int_mode) {
    if (exp_max > 9) {
      f.width = 11;
      os << std::scientific << std::setprecision(4);
    } else {
      f.width = static_cast<int64_t>(exp_max) + 1;
      os << std::defaultfloat;
    }
    return f;
  }
  if (exp_max - exp_min > 4) {
    f.width = (std::fabs(exp_max) > 99 || std::fabs(exp_min) > 99) ? 12 : 11;
    os << std::scientific << std::setprecision(4);
  } else if (exp_max > 5 || exp_max < 0) {
    f.width = 7;
    f.scale = std::pow(10, exp_max - 1);
    os << std::fixed << std::setprecision(4);
  } else {
    f.width = exp_max == 0 ? 7 : static_cast<int64_t>(exp_max) + 6;
    os << std::fixed << std::setprecision(4);
  }
  return f;
}

void indent(std::ostream& os, int64_t n) {
  for (int64_t i = 0; i < n; ++i) os << ' ';
}

void print_scale(std::ostream& os, double scale) {
  FormatGuard guard(os);
  os << std::defaultfloat << scale << " *\n";
}

// A 2-D contiguous double tensor, split into column blocks that fit in the line width.
void print_matrix(std::ostream& os, const double* p, int64_t rows, int64_t cols, int64_t pad) {
  Format f = choose_format(os, p, rows * cols);
  indent(os, pad);
  int64_t per_line = (kLineWidth - pad) / (f.width + 1);
  for (int64_t first = 0; first < cols;) {
    int64_t last = std::min(first + per_line, cols) - 1;
    if (per_line < cols) {
      if (first != 0) os << '\n';
      os << "Columns " << first + 1 << " to " << last + 1;
      indent(os, pad);
    }
    if (f.scale != 1) {
      print_scale(os, f.scale);
      indent(os, pad);
    }
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = first; c <= last; ++c) {
        os << std::setw(f.width) << p[r * cols + c] / f.scale;
        if (c != last) {
          os << ' ';
          continue;
        }
        os << '\n';
        if (r != rows - 1) {
          indent(os, pad);
          if (f.scale != 1) os << ' ';
        }
      }
    }
    first = last + 1;
  }
}

// 3-D and up: one matrix per index of the leading dims, the first leading dim varying fastest.
void print_blocks(std::ostream& os, const Tensor& t) {
  int64_t lead = t.dim() - 2;
  int64_t rows = t.size(-2), cols = t.size(-1);
  std::vector<int64_t> counter(lead, 0);
  const double* base = t.data_ptr<double>();
  for (bool first = true;; first = false) {
    if (!first) {
      int64_t i = 0;
      while (i < lead && ++counter[i] >= t.size(i)) counter[i++] = 0;
      if (i == lead) return;
      os << '\n';
    }
    os << "(";
    int64_t offset = 0;
    for (int64_t i = 0; i < lead; ++i) {
      os << counter[i] + 1 << ",";
      offset += counter[i] * t.stride(i);
    }
    os << ".,.) = \n";
    print_matrix(os, base + offset, rows, cols, 1);
  }
}

void print_sizes(std::ostream& os, IntArrayRef sizes) {
  os << "{";
  for (size_t i = 0; i < sizes.size(); ++i) os << (i ? "," : "") << sizes[i];
  os << "}";
}

}  // namespace

std::ostream& operator<<(std::ostream& os, const Tensor& t) {
  FormatGuard guard(os);
  if (!t.defined()) return os << "[ Tensor (undefined) ]";
  // Meta tensors have no values (libtorch throws here); print their type and shape only.
  if (!t.is_meta() && t.numel() > 0) {
    detail::observe_data("print");
    Tensor d = t.to(Device(kCPU), kDouble).contiguous();
    const double* p = d.data_ptr<double>();
    if (t.dim() == 0) {
      os << std::defaultfloat << p[0] << '\n';
    } else if (t.dim() == 1) {
      Format f = choose_format(os, p, d.numel());
      if (f.scale != 1) print_scale(os, f.scale);
      for (int64_t i = 0; i < d.numel(); ++i) os << std::setw(f.width) << p[i] / f.scale << '\n';
    } else if (t.dim() == 2) {
      print_matrix(os, p, d.size(0), d.size(1), 0);
    } else {
      print_blocks(os, d);
    }
  }
  os << "[ " << t.toString();
  print_sizes(os, t.sizes());
  return os << " ]";
}

void Tensor::print() const {
  if (defined())
    std::cerr << "[" << toString() << " " << sizes() << "]" << std::endl;
  else
    std::cerr << "[UndefinedTensor]" << std::endl;
}

}  // namespace brasa
