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

#define BRASA_POOL_DERIVATIVES(N)                                                                  \
  Pair max_pool##N##d_ag(const Tensor& self, IntArray k, IntArray s, IntArray p, IntArray d,       \
                         bool ceil_mode) {                                                         \
    return max_pool_ag(max_pool##N##d_with_indices_op(),                                           \
                       max_pool##N##d_with_indices_backward_op(),                                  \
                       "MaxPool" #N "DWithIndicesBackward0", self, k, s, p, d, ceil_mode);         \
  }                                                                                                \
  Tensor avg_pool##N##d_ag(const Tensor& self, IntArray k, IntArray s, IntArray p, bool ceil_mode, \
                           bool count_include_pad, OptInt divisor) {                               \
    return avg_pool_ag(avg_pool##N##d_op(), avg_pool##N##d_backward_op(),                          \
                       "AvgPool" #N "DBackward0", self, k, s, p, ceil_mode, count_include_pad,     \
                       divisor);                                                                   \
  }                                                                                                \
  Tensor adaptive_avg_pool##N##d_ag(const Tensor& self, IntArray output_size) {                    \
    return adaptive_avg_ag(adaptive_avg_pool##N##d_op(), adaptive_avg_pool##N##d_backward_op(),    \
                           "AdaptiveAvgPool" #N "DBackward0", self, output_size);                  \
  }                                                                                                \
  Pair adaptive_max_pool##N##d_ag(const Tensor& self, IntArray output_size) {                      \
    return adaptive_max_ag(adaptive_max_pool##N##d_op(), adaptive_max_pool##N##d_backward_op(),    \
                           "AdaptiveMaxPool" #N "DBackward0", self, output_size);                  \
  }

BRASA_POOL_DERIVATIVES(1)
BRASA_POOL_DERIVATIVES(2)
BRASA_POOL_DERIVATIVES(3)

Ints last(const Tensor& t, int64_t n) { return Ints(t.sizes().end() - n, t.sizes().end()); }

#define BRASA_POOL_BACKWARD_DERIVATIVES(N)                                                         \
  Tensor max_pool##N##d_backward_ag(const Tensor& go, const Tensor& self, IntArray k, IntArray s,  \
                                    IntArray p, IntArray d, bool ceil_mode, const Tensor& ix) {    \
    return pool::linear_backward(                                                                  \
        "MaxPool" #N "DWithIndicesBackwardBackward0", "max_pool" #N "d_with_indices_backward", go, \
        [&] {                                                                                      \
          return max_pool##N##d_with_indices_backward_op().call(go, self, k, s, p, d, ceil_mode,   \
                                                                ix);                               \
        },                                                                                         \
        [ix](const Tensor& gg) { return pool::gather_planes(gg, ix, N); });                        \
  }                                                                                                \
  Tensor avg_pool##N##d_backward_ag(const Tensor& go, const Tensor& self, IntArray k, IntArray s,  \
                                    IntArray p, bool ceil_mode, bool cip, OptInt divisor) {        \
    return pool::linear_backward(                                                                  \
        "AvgPool" #N "DBackwardBackward0", "avg_pool" #N "d_backward", go,                         \
        [&] {                                                                                      \
          return avg_pool##N##d_backward_op().call(go, self, k, s, p, ceil_mode, cip, divisor);    \
        },                                                                                         \
        [k = to_vec(k), s = to_vec(s), p = to_vec(p), ceil_mode, cip, divisor](const Tensor& gg) { \
          return avg_pool##N##d_op().call(gg, k, s, p, ceil_mode, cip, divisor);                   \
        });                                                                                        \
  }                                                                                                \
  Tensor adaptive_avg_pool##N##d_backward_ag(const Tensor& go, const Tensor& self) {               \
    return pool::linear_backward(                                                                  \
        "AdaptiveAvgPool" #N "DBackwardBackward0", "adaptive_avg_pool" #N "d_backward", go,        \
        [&] { return adaptive_avg_pool##N##d_backward_op().call(go, self); },                      \
        [size = last(go, N)](const Tensor& gg) {                                                   \
          return adaptive_avg_pool##N##d_op().call(gg, size);                                      \
        });                                                                                        \
  }                                                                                                \
  Tensor adaptive_max_pool##N##d_backward_ag(const Tensor& go, const Tensor& self,                 \
                                             const Tensor& ix) {                                   \
    return pool::linear_backward(                                                                  \
        "AdaptiveMaxPool" #N "DBackwardBackward0", "adaptive_max_pool" #N "d_backward", go,        \
        [&] { return adaptive_max_pool##N##d_backward_op().call(go, self, ix); },                  \
        [ix](const Tensor& gg) { return pool::gather_planes(gg, ix, N); });                        \
  }

BRASA_POOL_BACKWARD_DERIVATIVES(1)
BRASA_POOL_BACKWARD_DERIVATIVES(2)
BRASA_POOL_BACKWARD_DERIVATIVES(3)

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
