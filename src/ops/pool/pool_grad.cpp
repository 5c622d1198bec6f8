// Derivatives of max_pool*_with_indices, avg_pool*, adaptive_avg_pool* and adaptive_max_pool*
// (each the family's dispatched backward op; indices outputs get no history) and of those backward
// ops (double backward): the forward pool of the incoming gradient, or for max pools its values
// at the saved indices.

#include "ops/pool/pool_grad.h"

#include <tuple>

#include "brasa/ops/indexing_ops.h"
#include "ops/pool/pool_ops.h"

namespace brasa::ops {

Tensor pool::gather_planes(const Tensor& gg, const Tensor& indices, int64_t n) {
  Tensor flat = gg.flatten(gg.dim() - n);
  return gather(flat, -1, indices.flatten(indices.dim() - n)).reshape(indices.sizes());
}

using IntArray = IntArrayRef;
using OptInt = std::optional<int64_t>;
using Pair = std::tuple<Tensor, Tensor>;

namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::SavedVariable;
using pool::Ints;
using pool::to_vec;

template <class Fwd, class Bwd>
Pair max_pool_ag(Fwd& fwd, Bwd& bwd, const char* node, const Tensor& self, IntArray kernel,
                 IntArray stride, IntArray padding, IntArray dilation, bool ceil_mode) {
  Pair r;
  {
    BelowAutograd below;
    r = fwd.call(self, kernel, stride, padding, dilation, ceil_mode);
  }
  if (!autograd::any_requires_grad({&self})) return r;
  pool::record(node, fwd.name().c_str(), self, std::get<0>(r),
               [&bwd, ss = SavedVariable(self), si = SavedVariable(std::get<1>(r)),
                k = to_vec(kernel), s = to_vec(stride), p = to_vec(padding), d = to_vec(dilation),
                ceil_mode](const Tensor& g, BackwardContext& ctx) {
                 return bwd.call(g, ctx.unpack(ss), k, s, p, d, ceil_mode, ctx.unpack(si));
               });
  return r;
}

template <class Fwd, class Bwd>
Tensor avg_pool_ag(Fwd& fwd, Bwd& bwd, const char* node, const Tensor& self, IntArray kernel,
                   IntArray stride, IntArray padding, bool ceil_mode, bool count_include_pad,
                   OptInt divisor) {
  Tensor r;
  {
    BelowAutograd below;
    r = fwd.call(self, kernel, stride, padding, ceil_mode, count_include_pad, divisor);
  }
  if (!autograd::any_requires_grad({&self})) return r;
  pool::record(
      node, fwd.name().c_str(), self, r,
      [&bwd, ss = SavedVariable(self), k = to_vec(kernel), s = to_vec(stride), p = to_vec(padding),
       ceil_mode, count_include_pad, divisor](const Tensor& g, BackwardContext& ctx) {
        return bwd.call(g, ctx.unpack(ss), k, s, p, ceil_mode, count_include_pad, divisor);
      });
  return r;
}

template <class Fwd, class Bwd>
Tensor adaptive_avg_ag(Fwd& fwd, Bwd& bwd, const char* node, const Tensor& self,
                       IntArray output_size) {
  Tensor r;
  {
    BelowAutograd below;
    r = fwd.call(self, output_size);
  }
  if (!autograd::any_requires_grad({&self})) return r;
  pool::record(node, fwd.name().c_str(), self, r,
               [&bwd, ss = SavedVariable(self)](const Tensor& g, BackwardContext& ctx) {
                 return bwd.call(g, ctx.unpack(ss));
               });
  return r;
}

template <class Fwd, class Bwd>
Pair adaptive_max_ag(Fwd& fwd, Bwd& bwd, const char* node, const Tensor& self,
                     IntArray output_size) {
  Pair r;
  {
    BelowAutograd below;
    r = fwd.call(self, output_size);
  }
  if (!autograd::any_requires_grad({&self})) return r;
  pool::record(node, fwd.name().c_str(), self, std::get<0>(r),
               [&bwd, ss = SavedVariable(self), si = SavedVariable(std::get<1>(r))](
                   const Tensor& g, BackwardContext& ctx) {
                 return bwd.call(g, ctx.unpack(ss), ctx.unpack(si));
               });
  return r;
}

Pair max_pool1d_ag(const Tensor& self, IntArray k, IntArray s, IntArray p, IntArray d,
                   bool ceil_mode) {
  return max_pool_ag(max_pool1d_with_indices_op(), max_pool1d_with_indices_backward_op(),
                     "MaxPool1DWithIndicesBackward0", self, k, s, p, d, ceil_mode);
}
Pair max_pool2d_ag(const Tensor& self, IntArray k, IntArray s, IntArray p, IntArray d,
                   bool ceil_mode) {
  return max_pool_ag(max_pool2d_with_indices_op(), max_pool2d_with_indices_backward_op(),
                     "MaxPool2DWithIndicesBackward0", self, k, s, p, d, ceil_mode);
}
Pair max_pool3d_ag(const Tensor& self, IntArray k, IntArray s, IntArray p, IntArray d,
                   bool ceil_mode) {
  return max_pool_ag(max_pool3d_with_indices_op(), max_pool3d_with_indices_backward_op(),
                     "MaxPool3DWithIndicesBackward0", self, k, s, p, d, ceil_mode);
}
Tensor avg_pool1d_ag(const Tensor& self, IntArray k, IntArray s, IntArray p, bool ceil_mode,
                     bool count_include_pad, OptInt divisor) {
  return avg_pool_ag(avg_pool1d_op(), avg_pool1d_backward_op(), "AvgPool1DBackward0", self, k, s, p,
                     ceil_mode, count_include_pad, divisor);
}
Tensor avg_pool2d_ag(const Tensor& self, IntArray k, IntArray s, IntArray p, bool ceil_mode,
                     bool count_include_pad, OptInt divisor) {
  return avg_pool_ag(avg_pool2d_op(), avg_pool2d_backward_op(), "AvgPool2DBackward0", self, k, s, p,
                     ceil_mode, count_include_pad, divisor);
}
Tensor avg_pool3d_ag(const Tensor& self, IntArray k, IntArray s, IntArray p, bool ceil_mode,
                     bool count_include_pad, OptInt divisor) {
  return avg_pool_ag(avg_pool3d_op(), avg_pool3d_backward_op(), "AvgPool3DBackward0", self, k, s, p,
                     ceil_mode, count_include_pad, divisor);
}
Tensor adaptive_avg_pool1d_ag(const Tensor& self, IntArray output_size) {
  return adaptive_avg_ag(adaptive_avg_pool1d_op(), adaptive_avg_pool1d_backward_op(),
                         "AdaptiveAvgPool1DBackward0", self, output_size);
}
Tensor adaptive_avg_pool2d_ag(const Tensor& self, IntArray output_size) {
  return adaptive_avg_ag(adaptive_avg_pool2d_op(), adaptive_avg_pool2d_backward_op(),
                         "AdaptiveAvgPool2DBackward0", self, output_size);
}
Tensor adaptive_avg_pool3d_ag(const Tensor& self, IntArray output_size) {
  return adaptive_avg_ag(adaptive_avg_pool3d_op(), adaptive_avg_pool3d_backward_op(),
                         "AdaptiveAvgPool3DBackward0", self, output_size);
}
Pair adaptive_max_pool1d_ag(const Tensor& self, IntArray output_size) {
  return adaptive_max_ag(adaptive_max_pool1d_op(), adaptive_max_pool1d_backward_op(),
                         "AdaptiveMaxPool1DBackward0", self, output_size);
}
Pair adaptive_max_pool2d_ag(const Tensor& self, IntArray output_size) {
  return adaptive_max_ag(adaptive_max_pool2d_op(), adaptive_max_pool2d_backward_op(),
                         "AdaptiveMaxPool2DBackward0", self, output_size);
}
Pair adaptive_max_pool3d_ag(const Tensor& self, IntArray output_size) {
  return adaptive_max_ag(adaptive_max_pool3d_op(), adaptive_max_pool3d_backward_op(),
                         "AdaptiveMaxPool3DBackward0", self, output_size);
}

Ints last(const Tensor& t, int64_t n) { return Ints(t.sizes().end() - n, t.sizes().end()); }

// The backward ops' derivatives, one helper per family (n: the pooled dims).
template <class Bwd>
Tensor max_pool_backward_ag(Bwd& bwd, const char* node, int64_t n, const Tensor& go,
                            const Tensor& self, IntArray k, IntArray s, IntArray p, IntArray d,
                            bool ceil_mode, const Tensor& ix) {
  return pool::linear_backward(
      node, bwd.name().c_str(), go, [&] { return bwd.call(go, self, k, s, p, d, ceil_mode, ix); },
      [ix, n](const Tensor& gg) { return pool::gather_planes(gg, ix, n); });
}

template <class Bwd, class Fwd>
Tensor avg_pool_backward_ag(Bwd& bwd, Fwd& fwd, const char* node, const Tensor& go,
                            const Tensor& self, IntArray k, IntArray s, IntArray p, bool ceil_mode,
                            bool cip, OptInt divisor) {
  return pool::linear_backward(
      node, bwd.name().c_str(), go,
      [&] { return bwd.call(go, self, k, s, p, ceil_mode, cip, divisor); },
      [&fwd, k = to_vec(k), s = to_vec(s), p = to_vec(p), ceil_mode, cip,
       divisor](const Tensor& gg) { return fwd.call(gg, k, s, p, ceil_mode, cip, divisor); });
}

template <class Bwd, class Fwd>
Tensor adaptive_avg_backward_ag(Bwd& bwd, Fwd& fwd, const char* node, int64_t n, const Tensor& go,
                                const Tensor& self) {
  return pool::linear_backward(
      node, bwd.name().c_str(), go, [&] { return bwd.call(go, self); },
      [&fwd, size = last(go, n)](const Tensor& gg) { return fwd.call(gg, size); });
}

template <class Bwd>
Tensor adaptive_max_backward_ag(Bwd& bwd, const char* node, int64_t n, const Tensor& go,
                                const Tensor& self, const Tensor& ix) {
  return pool::linear_backward(
      node, bwd.name().c_str(), go, [&] { return bwd.call(go, self, ix); },
      [ix, n](const Tensor& gg) { return pool::gather_planes(gg, ix, n); });
}

Tensor max_pool1d_backward_ag(const Tensor& go, const Tensor& self, IntArray k, IntArray s,
                              IntArray p, IntArray d, bool ceil_mode, const Tensor& ix) {
  return max_pool_backward_ag(max_pool1d_with_indices_backward_op(),
                              "MaxPool1DWithIndicesBackwardBackward0", 1, go, self, k, s, p, d,
                              ceil_mode, ix);
}
Tensor max_pool2d_backward_ag(const Tensor& go, const Tensor& self, IntArray k, IntArray s,
                              IntArray p, IntArray d, bool ceil_mode, const Tensor& ix) {
  return max_pool_backward_ag(max_pool2d_with_indices_backward_op(),
                              "MaxPool2DWithIndicesBackwardBackward0", 2, go, self, k, s, p, d,
                              ceil_mode, ix);
}
Tensor max_pool3d_backward_ag(const Tensor& go, const Tensor& self, IntArray k, IntArray s,
                              IntArray p, IntArray d, bool ceil_mode, const Tensor& ix) {
  return max_pool_backward_ag(max_pool3d_with_indices_backward_op(),
                              "MaxPool3DWithIndicesBackwardBackward0", 3, go, self, k, s, p, d,
                              ceil_mode, ix);
}
Tensor avg_pool1d_backward_ag(const Tensor& go, const Tensor& self, IntArray k, IntArray s,
                              IntArray p, bool ceil_mode, bool cip, OptInt divisor) {
  return avg_pool_backward_ag(avg_pool1d_backward_op(), avg_pool1d_op(),
                              "AvgPool1DBackwardBackward0", go, self, k, s, p, ceil_mode, cip,
                              divisor);
}
Tensor avg_pool2d_backward_ag(const Tensor& go, const Tensor& self, IntArray k, IntArray s,
                              IntArray p, bool ceil_mode, bool cip, OptInt divisor) {
  return avg_pool_backward_ag(avg_pool2d_backward_op(), avg_pool2d_op(),
                              "AvgPool2DBackwardBackward0", go, self, k, s, p, ceil_mode, cip,
                              divisor);
}
Tensor avg_pool3d_backward_ag(const Tensor& go, const Tensor& self, IntArray k, IntArray s,
                              IntArray p, bool ceil_mode, bool cip, OptInt divisor) {
  return avg_pool_backward_ag(avg_pool3d_backward_op(), avg_pool3d_op(),
                              "AvgPool3DBackwardBackward0", go, self, k, s, p, ceil_mode, cip,
                              divisor);
}
Tensor adaptive_avg_pool1d_backward_ag(const Tensor& go, const Tensor& self) {
  return adaptive_avg_backward_ag(adaptive_avg_pool1d_backward_op(), adaptive_avg_pool1d_op(),
                                  "AdaptiveAvgPool1DBackwardBackward0", 1, go, self);
}
Tensor adaptive_avg_pool2d_backward_ag(const Tensor& go, const Tensor& self) {
  return adaptive_avg_backward_ag(adaptive_avg_pool2d_backward_op(), adaptive_avg_pool2d_op(),
                                  "AdaptiveAvgPool2DBackwardBackward0", 2, go, self);
}
Tensor adaptive_avg_pool3d_backward_ag(const Tensor& go, const Tensor& self) {
  return adaptive_avg_backward_ag(adaptive_avg_pool3d_backward_op(), adaptive_avg_pool3d_op(),
                                  "AdaptiveAvgPool3DBackwardBackward0", 3, go, self);
}
Tensor adaptive_max_pool1d_backward_ag(const Tensor& go, const Tensor& self, const Tensor& ix) {
  return adaptive_max_backward_ag(adaptive_max_pool1d_backward_op(),
                                  "AdaptiveMaxPool1DBackwardBackward0", 1, go, self, ix);
}
Tensor adaptive_max_pool2d_backward_ag(const Tensor& go, const Tensor& self, const Tensor& ix) {
  return adaptive_max_backward_ag(adaptive_max_pool2d_backward_op(),
                                  "AdaptiveMaxPool2DBackwardBackward0", 2, go, self, ix);
}
Tensor adaptive_max_pool3d_backward_ag(const Tensor& go, const Tensor& self, const Tensor& ix) {
  return adaptive_max_backward_ag(adaptive_max_pool3d_backward_op(),
                                  "AdaptiveMaxPool3DBackwardBackward0", 3, go, self, ix);
}

}  // namespace

BRASA_REGISTER_KERNEL(max_pool1d_with_indices_op, max_pool1d_ag, Autograd)
BRASA_REGISTER_KERNEL(max_pool2d_with_indices_op, max_pool2d_ag, Autograd)
BRASA_REGISTER_KERNEL(max_pool3d_with_indices_op, max_pool3d_ag, Autograd)
BRASA_REGISTER_KERNEL(avg_pool1d_op, avg_pool1d_ag, Autograd)
BRASA_REGISTER_KERNEL(avg_pool2d_op, avg_pool2d_ag, Autograd)
BRASA_REGISTER_KERNEL(avg_pool3d_op, avg_pool3d_ag, Autograd)
BRASA_REGISTER_KERNEL(adaptive_avg_pool1d_op, adaptive_avg_pool1d_ag, Autograd)
BRASA_REGISTER_KERNEL(adaptive_avg_pool2d_op, adaptive_avg_pool2d_ag, Autograd)
BRASA_REGISTER_KERNEL(adaptive_avg_pool3d_op, adaptive_avg_pool3d_ag, Autograd)
BRASA_REGISTER_KERNEL(adaptive_max_pool1d_op, adaptive_max_pool1d_ag, Autograd)
BRASA_REGISTER_KERNEL(adaptive_max_pool2d_op, adaptive_max_pool2d_ag, Autograd)
BRASA_REGISTER_KERNEL(adaptive_max_pool3d_op, adaptive_max_pool3d_ag, Autograd)

BRASA_REGISTER_KERNEL(max_pool1d_with_indices_backward_op, max_pool1d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(max_pool2d_with_indices_backward_op, max_pool2d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(max_pool3d_with_indices_backward_op, max_pool3d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(avg_pool1d_backward_op, avg_pool1d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(avg_pool2d_backward_op, avg_pool2d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(avg_pool3d_backward_op, avg_pool3d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(adaptive_avg_pool1d_backward_op, adaptive_avg_pool1d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(adaptive_avg_pool2d_backward_op, adaptive_avg_pool2d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(adaptive_avg_pool3d_backward_op, adaptive_avg_pool3d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(adaptive_max_pool1d_backward_op, adaptive_max_pool1d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(adaptive_max_pool2d_backward_op, adaptive_max_pool2d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(adaptive_max_pool3d_backward_op, adaptive_max_pool3d_backward_ag, Autograd)

}  // namespace brasa::ops
