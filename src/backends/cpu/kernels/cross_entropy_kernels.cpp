// Loops of the fused cross-entropy over class indices (compiled once per CPU capability): one row
// at a time, the max, the sum of exp(x - max) and the picked logit, as log_softmax's kernel
// computes them (Note [Fused softmax]); the backward writes softmax minus the one-hot row, scaled.
#include "backends/cpu/kernels/cross_entropy_kernels.h"

#include <cmath>
#include <limits>

#include "backends/cpu/fast_exp.h"
#include "brasa/core/dispatch_type.h"
#include "brasa/core/parallel.h"

namespace brasa::cpu {
namespace {

/// The row's max (0 for a row of infinities, as log_softmax shifts) and sum of exp(x - max).
template <typename T>
void row_stats(const T* __restrict x, int64_t c, T* shift, T* sum) {
  T m = -std::numeric_limits<T>::infinity();
  for (int64_t j = 0; j < c; ++j) m = x[j] > m ? x[j] : m;
  *shift = std::isinf(m) ? T(0) : m;
  constexpr int kLanes = 16;  // lane sums: the loop vectorises without reassociation flags
  T lanes[kLanes] = {};
  int64_t j = 0;
  for (; j + kLanes <= c; j += kLanes)
    for (int l = 0; l < kLanes; ++l) lanes[l] += exp_of(x[j + l] - *shift);
  T s = 0;
  for (int l = 0; l < kLanes; ++l) s += lanes[l];
  for (; j < c; ++j) s += exp_of(x[j] - *shift);
  *sum = s;
}

template <typename T>
void forward_typed(T* losses, const T* x, const int64_t* t, int64_t n, int64_t c, int64_t ignore) {
  parallel_for(0, n, std::max<int64_t>(1, 16384 / std::max<int64_t>(c, 1)),
               [&](int64_t b, int64_t e) {
                 for (int64_t i = b; i < e; ++i) {
                   if (t[i] == ignore) {
                     losses[i] = 0;
                     continue;
                   }
                   const T* row = x + i * c;
                   T shift, sum;
                   row_stats(row, c, &shift, &sum);
                   losses[i] = -(row[t[i]] - (shift + std::log(sum)));
                 }
               });
}

template <typename T>
void backward_typed(T* grad, const T* x, const int64_t* t, const double* scale, int64_t n,
                    int64_t c, int64_t ignore) {
  parallel_for(0, n, std::max<int64_t>(1, 16384 / std::max<int64_t>(c, 1)),
               [&](int64_t b, int64_t e) {
                 for (int64_t i = b; i < e; ++i) {
                   T* out = grad + i * c;
                   if (t[i] == ignore) {
                     for (int64_t j = 0; j < c; ++j) out[j] = 0;
                     continue;
                   }
                   const T* row = x + i * c;
                   T shift, sum;
                   row_stats(row, c, &shift, &sum);
                   const T inv = T(1) / sum, s = T(scale[i]);
                   for (int64_t j = 0; j < c; ++j) out[j] = exp_of(row[j] - shift) * inv * s;
                   out[t[i]] -= s;
                 }
               });
}

void cross_entropy_kernel(const Tensor& losses, const Tensor& x, const Tensor& target,
                          int64_t ignore) {
  const int64_t n = x.size(0), c = x.size(1);
  if (x.scalar_type() == kDouble) {
    forward_typed(losses.data_ptr<double>(), x.data_ptr<double>(), target.data_ptr<int64_t>(), n, c,
                  ignore);
  } else {
    forward_typed(losses.data_ptr<float>(), x.data_ptr<float>(), target.data_ptr<int64_t>(), n, c,
                  ignore);
  }
}

void cross_entropy_backward_kernel(const Tensor& grad, const Tensor& x, const Tensor& target,
                                   const Tensor& scale, int64_t ignore) {
  const int64_t n = x.size(0), c = x.size(1);
  if (x.scalar_type() == kDouble) {
    backward_typed(grad.data_ptr<double>(), x.data_ptr<double>(), target.data_ptr<int64_t>(),
                   scale.data_ptr<double>(), n, c, ignore);
  } else {
    backward_typed(grad.data_ptr<float>(), x.data_ptr<float>(), target.data_ptr<int64_t>(),
                   scale.data_ptr<double>(), n, c, ignore);
  }
}

}  // namespace

BRASA_REGISTER_STUB(ops::cross_entropy_stub, cross_entropy_kernel);
BRASA_REGISTER_STUB(ops::cross_entropy_backward_stub, cross_entropy_backward_kernel);

}  // namespace brasa::cpu
