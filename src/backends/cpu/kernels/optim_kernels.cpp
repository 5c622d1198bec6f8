// Fused optimizer steps (compiled once per CPU capability): Adam/AdamW and SGD with momentum in
// one pass per parameter.
#include "backends/cpu/kernels/optim_kernels.h"

#include <algorithm>
#include <cmath>

#include "backends/cpu/vec_math.h"
#include "brasa/core/parallel.h"

namespace brasa::cpu {
namespace {

using optim::detail::AdamStepArgs;

constexpr int64_t kBlock = 256;

template <typename T>
void sqrt_block(T* __restrict buf, int64_t n) {
  int64_t j = 0;
#if BRASA_HAS_VEC
  for (; j + vec::kWidth<T> <= n; j += vec::kWidth<T>)
    vec::storeu(buf + j, vec::vsqrt(vec::loadu(buf + j)));
#endif
  for (; j < n; ++j) buf[j] = std::sqrt(buf[j]);  // sqrt is correctly rounded in both forms
}

template <typename T>
struct AdamScalars {
  T b1, one_minus_b1, b2, one_minus_b2, eps, wd, scale, neg_step, bc2, sign;
};

// PyTorch's single-tensor Adam, per element: m = m*b1 + (1-b1)*g; v = v*b2 + (1-b2)*g*g;
// denom = sqrt(v)/bc2 + eps; p += -step_size * m/denom. Blocked so that the passes without sqrt
// vectorise and the sqrt runs as vector instructions.
template <typename T, bool Amsgrad, bool Decay, bool Rescale>
void adam_range(const AdamStepArgs& a, const AdamScalars<T>& s, int64_t begin, int64_t end) {
  T* __restrict p = static_cast<T*>(a.param);
  const T* __restrict gr = static_cast<const T*>(a.grad);
  T* __restrict m = static_cast<T*>(a.exp_avg);
  T* __restrict v = static_cast<T*>(a.exp_avg_sq);
  T* __restrict vmax = static_cast<T*>(a.max_exp_avg_sq);
  alignas(64) T second[kBlock];
  for (int64_t b = begin; b < end; b += kBlock) {
    const int64_t n = std::min(kBlock, end - b);
    for (int64_t j = 0; j < n; ++j) {
      const int64_t i = b + j;
      T x = p[i];
      if constexpr (Rescale) x = x * s.scale;
      T g = s.sign * gr[i];
      if constexpr (Decay) g = g + s.wd * x;
      const T mi = m[i] * s.b1 + s.one_minus_b1 * g;
      const T vi = v[i] * s.b2 + s.one_minus_b2 * (g * g);
      m[i] = mi;
      v[i] = vi;
      p[i] = x;
      second[j] = vi;
    }
    if constexpr (Amsgrad) {
      T* __restrict mx = vmax + b;
      for (int64_t j = 0; j < n; ++j) {
        const T r = mx[j] < second[j] ? second[j] : mx[j];
        mx[j] = r;
        second[j] = r;
      }
    }
    sqrt_block(second, n);
    for (int64_t j = 0; j < n; ++j) {
      const int64_t i = b + j;
      p[i] = p[i] + s.neg_step * (m[i] / (second[j] / s.bc2 + s.eps));
    }
  }
}

template <typename T, bool Amsgrad, bool Decay, bool Rescale>
void adam_loop(const AdamStepArgs& a) {
  const AdamScalars<T> s{static_cast<T>(a.beta1),
                         static_cast<T>(1 - a.beta1),
                         static_cast<T>(a.beta2),
                         static_cast<T>(1 - a.beta2),
                         static_cast<T>(a.eps),
                         static_cast<T>(a.weight_decay),
                         static_cast<T>(a.param_scale),
                         static_cast<T>(-a.step_size),
                         static_cast<T>(a.bias_correction2_sqrt),
                         a.maximize ? T(-1) : T(1)};
  parallel_for(0, a.numel, 1 << 15, [&](int64_t begin, int64_t end) {
    adam_range<T, Amsgrad, Decay, Rescale>(a, s, begin, end);
  });
}

template <typename T>
void adam_dispatch(const AdamStepArgs& a) {
  const bool ams = a.max_exp_avg_sq != nullptr, decay = a.weight_decay != 0;
  const bool rescale = a.param_scale != 1;
  if (ams) {
    if (decay) return adam_loop<T, true, true, false>(a);
    return rescale ? adam_loop<T, true, false, true>(a) : adam_loop<T, true, false, false>(a);
  }
  if (decay) return adam_loop<T, false, true, false>(a);
  return rescale ? adam_loop<T, false, false, true>(a) : adam_loop<T, false, false, false>(a);
}

void fused_adam_kernel(const AdamStepArgs& a) {
  if (a.dtype == ScalarType::Double) {
    adam_dispatch<double>(a);
  } else {
    adam_dispatch<float>(a);
  }
}

using optim::detail::SgdStepArgs;

template <typename T>
struct SgdScalars {
  T mom, keep, wd, neg_lr, sign;
};

template <typename T, bool Nesterov, bool Decay>
void sgd_range(T* __restrict p, const T* __restrict gr, T* __restrict buf, int64_t n,
               const SgdScalars<T>& s) {
  for (int64_t i = 0; i < n; ++i) {
    T d = s.sign * gr[i];
    if constexpr (Decay) d = d + s.wd * p[i];
    const T b = buf[i] * s.mom + s.keep * d;
    buf[i] = b;
    if constexpr (Nesterov) {
      p[i] = p[i] + s.neg_lr * (d + s.mom * b);
    } else {
      p[i] = p[i] + s.neg_lr * b;
    }
  }
}

template <typename T, bool Nesterov, bool Decay>
void sgd_loop(const SgdStepArgs& a) {
  T* p = static_cast<T*>(a.param);
  const T* gr = static_cast<const T*>(a.grad);
  T* buf = static_cast<T*>(a.momentum_buffer);
  const SgdScalars<T> s{static_cast<T>(a.momentum), static_cast<T>(1 - a.dampening),
                        static_cast<T>(a.weight_decay), static_cast<T>(-a.lr),
                        a.maximize ? T(-1) : T(1)};
  parallel_for(0, a.numel, 1 << 15, [&](int64_t begin, int64_t end) {
    sgd_range<T, Nesterov, Decay>(p + begin, gr + begin, buf + begin, end - begin, s);
  });
}

template <typename T>
void sgd_dispatch(const SgdStepArgs& a) {
  const bool decay = a.weight_decay != 0;
  if (a.nesterov) return decay ? sgd_loop<T, true, true>(a) : sgd_loop<T, true, false>(a);
  return decay ? sgd_loop<T, false, true>(a) : sgd_loop<T, false, false>(a);
}

void fused_sgd_kernel(const SgdStepArgs& a) {
  if (a.dtype == ScalarType::Double) {
    sgd_dispatch<double>(a);
  } else {
    sgd_dispatch<float>(a);
  }
}

}  // namespace

BRASA_REGISTER_STUB(optim::detail::fused_adam_stub, fused_adam_kernel);
BRASA_REGISTER_STUB(optim::detail::fused_sgd_stub, fused_sgd_kernel);

}  // namespace brasa::cpu
