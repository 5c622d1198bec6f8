// torch::nn::init: parameter initialisers, all run without recording autograd history.

#include "brasa/nn/init.h"

#include <cmath>
#include <vector>

#include "brasa/autograd/grad_mode.h"
#include "brasa/core/error.h"
#include "brasa/ops/factory.h"

namespace brasa::nn::init {
namespace {

template <typename... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <typename... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

int64_t fan(const Tensor& tensor, const FanModeType& mode) {
  auto [fan_in, fan_out] = _calculate_fan_in_and_fan_out(tensor);
  return nn::holds_alternative<enumtype::kFanIn>(mode) ? fan_in : fan_out;
}

}  // namespace

double calculate_gain(NonlinearityType nonlinearity, double param) {
  return nn::visit(
      Overloaded{[](enumtype::kTanh) { return 5.0 / 3.0; },
                 [](enumtype::kReLU) { return std::sqrt(2.0); },
                 [&](enumtype::kLeakyReLU) { return std::sqrt(2.0 / (1 + param * param)); },
                 [](auto) { return 1.0; }},
      nonlinearity);
}

std::tuple<int64_t, int64_t> _calculate_fan_in_and_fan_out(const Tensor& tensor) {
  BRASA_CHECK(tensor.dim() >= 2,
              "init: fan in and fan out can not be computed for a tensor with fewer than 2 "
              "dimensions, got ",
              tensor.dim());
  int64_t receptive = 1;
  for (int64_t d = 2; d < tensor.dim(); ++d) receptive *= tensor.size(d);
  return {tensor.size(1) * receptive, tensor.size(0) * receptive};
}

Tensor constant_(Tensor tensor, Scalar value) {
  NoGradGuard no_grad;
  tensor.fill_(value);
  return tensor;
}
Tensor zeros_(Tensor tensor) { return constant_(std::move(tensor), 0); }
Tensor ones_(Tensor tensor) { return constant_(std::move(tensor), 1); }

Tensor eye_(Tensor matrix) {
  BRASA_CHECK(matrix.dim() == 2, "eye_: only 2-d tensors are supported, got ", matrix.dim(),
              " dims");
  NoGradGuard no_grad;
  matrix.copy_(eye(matrix.size(0), matrix.size(1), matrix.options()));
  return matrix;
}

Tensor dirac_(Tensor tensor, int64_t groups) {
  const int64_t dims = tensor.dim();
  BRASA_CHECK(dims >= 3 && dims <= 5, "dirac_: only 3, 4 or 5-d tensors are supported, got ", dims,
              " dims");
  BRASA_CHECK(groups > 0 && tensor.size(0) % groups == 0, "dirac_: dim 0 (", tensor.size(0),
              ") must be divisible by groups (", groups, ")");
  NoGradGuard no_grad;
  tensor.zero_();
  const int64_t out_per_group = tensor.size(0) / groups;
  const int64_t n = std::min(out_per_group, tensor.size(1));
  for (int64_t g = 0; g < groups; ++g) {
    for (int64_t d = 0; d < n; ++d) {
      Tensor slice = tensor.select(0, g * out_per_group + d).select(0, d);
      for (int64_t k = 2; k < dims; ++k) slice = slice.select(0, tensor.size(k) / 2);
      slice.fill_(1);
    }
  }
  return tensor;
}

Tensor uniform_(Tensor tensor, double low, double high) {
  NoGradGuard no_grad;
  tensor.uniform_(low, high);
  return tensor;
}

Tensor normal_(Tensor tensor, double mean, double std) {
  NoGradGuard no_grad;
  tensor.normal_(mean, std);
  return tensor;
}

Tensor trunc_normal_(Tensor tensor, double mean, double std, double a, double b) {
  BRASA_CHECK(a < b, "trunc_normal_: a (", a, ") must be less than b (", b, ")");
  NoGradGuard no_grad;
  auto cdf = [](double x) { return 0.5 * (1.0 + std::erf(x / std::sqrt(2.0))); };
  const double lo = cdf((a - mean) / std);
  const double hi = cdf((b - mean) / std);
  tensor.uniform_(2 * lo - 1, 2 * hi - 1);
  tensor.erfinv_();
  tensor.mul_(std * std::sqrt(2.0));
  tensor.add_(mean);
  tensor.clamp_(a, b);
  return tensor;
}

Tensor xavier_uniform_(Tensor tensor, double gain) {
  auto [fan_in, fan_out] = _calculate_fan_in_and_fan_out(tensor);
  // libtorch's rounding: the normal std first, then sqrt(3) times it.
  const double std = gain * std::sqrt(2.0 / static_cast<double>(fan_in + fan_out));
  const double bound = std::sqrt(3.0) * std;
  return uniform_(std::move(tensor), -bound, bound);
}

Tensor xavier_normal_(Tensor tensor, double gain) {
  auto [fan_in, fan_out] = _calculate_fan_in_and_fan_out(tensor);
  return normal_(std::move(tensor), 0,
                 gain * std::sqrt(2.0 / static_cast<double>(fan_in + fan_out)));
}

Tensor kaiming_uniform_(Tensor tensor, double a, FanModeType mode, NonlinearityType nonlinearity) {
  if (tensor.numel() == 0) return tensor;
  const double std =
      calculate_gain(nonlinearity, a) / std::sqrt(static_cast<double>(fan(tensor, mode)));
  return uniform_(std::move(tensor), -std::sqrt(3.0) * std, std::sqrt(3.0) * std);
}

Tensor kaiming_normal_(Tensor tensor, double a, FanModeType mode, NonlinearityType nonlinearity) {
  if (tensor.numel() == 0) return tensor;
  const double std =
      calculate_gain(nonlinearity, a) / std::sqrt(static_cast<double>(fan(tensor, mode)));
  return normal_(std::move(tensor), 0, std);
}

Tensor orthogonal_(Tensor tensor, double gain) {
  BRASA_CHECK(tensor.dim() >= 2,
              "orthogonal_: only tensors with 2 or more dimensions are "
              "supported, got ",
              tensor.dim());
  if (tensor.numel() == 0) return tensor;
  NoGradGuard no_grad;
  const int64_t rows = tensor.size(0);
  const int64_t cols = tensor.numel() / rows;
  // Gram-Schmidt on the columns of a tall m x n Gaussian matrix gives Q with R's diagonal positive,
  // the distribution PyTorch draws (qr, then signs fixed by diag(R)).
  const bool wide = rows < cols;
  const int64_t m = wide ? cols : rows;
  const int64_t n = wide ? rows : cols;
  // libtorch's draw: a [rows, cols] normal of the tensor's dtype, transposed when wide.
  Tensor flat = randn({rows, cols}, TensorOptions().dtype(tensor.scalar_type()));
  Tensor a = (wide ? flat : flat.t()).to(kDouble).contiguous();  // row j = column j
  double* q = a.data_ptr<double>();
  for (int64_t j = 0; j < n; ++j) {
    double* qj = q + j * m;
    for (int pass = 0; pass < 2; ++pass) {
      for (int64_t k = 0; k < j; ++k) {
        const double* qk = q + k * m;
        double dot = 0;
        for (int64_t i = 0; i < m; ++i) dot += qk[i] * qj[i];
        for (int64_t i = 0; i < m; ++i) qj[i] -= dot * qk[i];
      }
    }
    double norm = 0;
    for (int64_t i = 0; i < m; ++i) norm += qj[i] * qj[i];
    norm = std::sqrt(norm);
    for (int64_t i = 0; i < m; ++i) qj[i] /= norm;
  }
  // a is Q^T (n x m): wide tensors take it as is (rows x cols), tall ones its transpose.
  Tensor result = wide ? a : a.t();
  tensor.view({rows, cols}).copy_(result.mul(gain));
  return tensor;
}

Tensor sparse_(Tensor tensor, double sparsity, double std) {
  BRASA_CHECK(tensor.dim() == 2, "sparse_: only 2-d tensors are supported, got ", tensor.dim(),
              " dims");
  NoGradGuard no_grad;
  const int64_t rows = tensor.size(0);
  const auto zeros_per_column =
      static_cast<int64_t>(std::ceil(sparsity * static_cast<double>(rows)));
  tensor.normal_(0, std);
  for (int64_t c = 0; c < tensor.size(1); ++c) {
    Tensor perm = randperm(rows);
    Tensor column = tensor.select(1, c);
    for (int64_t i = 0; i < zeros_per_column; ++i)
      column.select(0, perm[i].item<int64_t>()).fill_(0);
  }
  return tensor;
}

}  // namespace brasa::nn::init
