// LocalResponseNorm and CrossMapLRN2d modules.

#include "brasa/nn/modules/local_response_norm.h"

#include <algorithm>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/tensor_data.h"
#include "nn/functional/fused_derivative.h"

namespace brasa::nn {
namespace {

// Note [CrossMapLRN2d]
// libtorch (and torch.nn.CrossMapLRN2d) compute the channel sums with a running window ported
// from Lua whose first channel never leaves it: channel c sums x^2 over [0, min(c + p - 1, C - 1)]
// minus [1, c - p], p = (size - 1) / 2 + 1. Their backward is the Lua closed form, which sums
// g * y / scale over channels [c - q, c + size - 1 - q], q = size - (size - 1) / 2 (integer
// division, as libtorch's C++; Python's float division differs for even sizes), rather than
// differentiating that forward. Both are reproduced here, with cumulative sums for the windows.

Tensor long_index(const std::vector<int64_t>& v) {
  return brasa::detail::tensor_from_array(v.data(), static_cast<int64_t>(v.size()), kLong);
}

/// Sums over channels [lo[c], hi[c]) of t [N, C, H, W] for every c, from its channel prefix sums.
Tensor window_sums(const Tensor& t, const std::vector<int64_t>& lo,
                   const std::vector<int64_t>& hi) {
  Tensor prefix = cat({zeros_like(t.narrow(1, 0, 1)), t.cumsum(1)}, 1);
  return prefix.index_select(1, long_index(hi).to(t.device())) -
         prefix.index_select(1, long_index(lo).to(t.device()));
}

/// k + alpha / size * the Lua window sums of x^2.
Tensor lrn_scale(const Tensor& x, const CrossMapLRN2dOptions& o) {
  const int64_t c = x.size(1), p = (o.size() - 1) / 2 + 1;
  Tensor sq = x * x;
  std::vector<int64_t> hi, lo, drop_lo, drop_hi;
  for (int64_t ch = 0; ch < c; ++ch) {
    hi.push_back(std::min(ch + p - 1, c - 1) + 1);
    lo.push_back(0);
    drop_lo.push_back(1);
    drop_hi.push_back(std::max<int64_t>(ch - p + 1, 1));
  }
  Tensor sums = window_sums(sq, lo, hi) - window_sums(sq, drop_lo, drop_hi);
  return sums * (o.alpha() / static_cast<double>(o.size())) + static_cast<double>(o.k());
}

Tensor cross_map_lrn2d(const Tensor& input, const CrossMapLRN2dOptions& o) {
  BRASA_CHECK(input.defined() && input.dim() == 4,
              "CrossMapLRN2d: expected a 4-D input [N, C, H, W], got ",
              input.defined() ? input.sizes() : IntArrayRef{});
  BRASA_CHECK(o.size() >= 1, "CrossMapLRN2d: expected size >= 1, got ", o.size());
  BRASA_CHECK_TYPE(is_floating_type(input.scalar_type()),
                   "CrossMapLRN2d: expected a floating input, got ", input.scalar_type());
  return functional::detail::with_derivative(
      "CrossMapLRN2dBackward", "CrossMapLRN2d", input,
      [o](const Tensor& x) { return x * lrn_scale(x, o).pow(-o.beta()); },
      [o](const Tensor& g, const Tensor& x, const Tensor& y) {
        Tensor scale = lrn_scale(x, o);
        const int64_t c = x.size(1), q = o.size() - (o.size() - 1) / 2;
        std::vector<int64_t> lo, hi;
        for (int64_t ch = 0; ch < c; ++ch) {
          lo.push_back(std::clamp<int64_t>(ch - q, 0, c));
          hi.push_back(std::clamp<int64_t>(ch + o.size() - q, 0, c));
        }
        Tensor accum = window_sums(g * y / scale, lo, hi);
        const double ratio = 2 * o.alpha() * o.beta() / static_cast<double>(o.size());
        return scale.pow(-o.beta()) * g - x * accum * ratio;
      });
}

}  // namespace

void LocalResponseNormImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::LocalResponseNorm(" << options.size() << ", alpha=" << options.alpha()
         << ", beta=" << options.beta() << ", k=" << options.k() << ")";
}

Tensor LocalResponseNormImpl::forward(const Tensor& input) {
  return functional::local_response_norm(input, options);
}

void CrossMapLRN2dImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::CrossMapLRN2d(" << options.size() << ", alpha=" << options.alpha()
         << ", beta=" << options.beta() << ", k=" << options.k() << ")";
}

Tensor CrossMapLRN2dImpl::forward(const Tensor& input) { return cross_map_lrn2d(input, options); }

}  // namespace brasa::nn
