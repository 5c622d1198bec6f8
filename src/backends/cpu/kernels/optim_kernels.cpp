// Fused optimizer steps (compiled once per CPU capability): Adam/AdamW in one pass per parameter.
#include <algorithm>
#include <cmath>

#include "brasa/core/parallel.h"
#include "optim/fused_adam.h"

namespace brasa::cpu {
namespace {

using optim::detail::AdamStepArgs;

// The same operation order as PyTorch's single-tensor Adam: m = m*b1 + (1-b1)*g;
// v = v*b2 + (1-b2)*g*g; denom = sqrt(v)/bc2 + eps; p += -step_size * m/denom.
template <typename T, bool Amsgrad>
void adam_loop(const AdamStepArgs& a) {
  T* __restrict p = static_cast<T*>(a.param);
  const T* __restrict gr = static_cast<const T*>(a.grad);
  T* __restrict m = static_cast<T*>(a.exp_avg);
  T* __restrict v = static_cast<T*>(a.exp_avg_sq);
  T* __restrict vmax = static_cast<T*>(a.max_exp_avg_sq);
  const T b1 = static_cast<T>(a.beta1), one_minus_b1 = static_cast<T>(1 - a.beta1);
  const T b2 = static_cast<T>(a.beta2), one_minus_b2 = static_cast<T>(1 - a.beta2);
  const T eps = static_cast<T>(a.eps), wd = static_cast<T>(a.weight_decay);
  const T scale = static_cast<T>(a.param_scale), neg_step = static_cast<T>(-a.step_size);
  const T bc2 = static_cast<T>(a.bias_correction2_sqrt);
  const T sign = a.maximize ? T(-1) : T(1);
  const bool decay = a.weight_decay != 0, rescale = a.param_scale != 1;
  parallel_for(0, a.numel, 1 << 14, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      T x = p[i];
      if (rescale) x = x * scale;
      T g = sign * gr[i];
      if (decay) g = g + wd * x;
      const T mi = m[i] * b1 + one_minus_b1 * g;
      const T vi = v[i] * b2 + one_minus_b2 * (g * g);
      m[i] = mi;
      v[i] = vi;
      T second = vi;
      if constexpr (Amsgrad) {
        second = std::max(vmax[i], vi);
        vmax[i] = second;
      }
      const T denom = std::sqrt(second) / bc2 + eps;
      p[i] = x + neg_step * (mi / denom);
    }
  });
}

void fused_adam_kernel(const AdamStepArgs& a) {
  const bool ams = a.max_exp_avg_sq != nullptr;
  if (a.dtype == ScalarType::Double) {
    ams ? adam_loop<double, true>(a) : adam_loop<double, false>(a);
  } else {
    ams ? adam_loop<float, true>(a) : adam_loop<float, false>(a);
  }
}

}  // namespace

BRASA_REGISTER_STUB(optim::detail::fused_adam_stub, fused_adam_kernel);

}  // namespace brasa::cpu
