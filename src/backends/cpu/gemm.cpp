// Batched matmul entry: picks oneDNN (Float, BFloat16, Half via Float) or the blocked loop (Double,
// integral dtypes), making an operand contiguous only when neither matrix dim has stride 1.
#include "backends/cpu/gemm.h"

#include <algorithm>
#include <vector>

#include "backends/cpu/gemm_internal.h"
#include "brasa/core/dispatch_type.h"
#include "brasa/core/parallel.h"

namespace brasa::cpu {
namespace {

// Row-major or column-major matrices with non-overlapping batches; size-1 dims take any stride.
bool plain_matrix(const Tensor& t) {
  const int64_t r = t.size(1), c = t.size(2), sr = t.stride(1), sc = t.stride(2);
  bool ok = false;
  if (r == 1 && c == 1)
    ok = true;
  else if (r == 1)
    ok = sc >= 1;
  else if (c == 1)
    ok = sr >= 1;
  else
    ok = (sc == 1 && sr >= c) || (sr == 1 && sc >= r);
  if (!ok || t.size(0) == 1 || t.stride(0) == 0) return ok;
  return t.stride(0) >= (r - 1) * sr + (c - 1) * sc + 1;
}

Tensor usable(const Tensor& t) { return plain_matrix(t) ? t : t.contiguous(); }

MatmulArgs make_args(const Tensor& out, const Tensor& a, const Tensor& w, double beta,
                     double alpha) {
  MatmulArgs g{};
  g.dtype = out.dtype();
  g.batch = out.size(0);
  g.m = out.size(1);
  g.n = out.size(2);
  g.k = a.size(2);
  g.a_batch = !(a.stride(0) == 0 || a.size(0) == 1);
  g.w_batch = !(w.stride(0) == 0 || w.size(0) == 1);
  for (int i = 0; i < 3; ++i) {
    g.a_strides[i] = a.stride(i);
    g.w_strides[i] = w.stride(i);
  }
  if (!g.a_batch) g.a_strides[0] = 0;
  if (!g.w_batch) g.w_strides[0] = 0;
  g.a = a.const_data_ptr();
  g.w = w.const_data_ptr();
  g.c = out.data_ptr();
  g.alpha = alpha;
  g.beta = beta;
  return g;
}

template <typename T>
using acc_t = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;

// out[b,i,:] = beta * out[b,i,:] + alpha * sum_k a[b,i,k] * w[b,k,:], k in blocks for cache reuse.
template <typename T>
void blocked_gemm(const MatmulArgs& g) {
  using A = acc_t<T>;
  const T* a = static_cast<const T*>(g.a);
  const T* w = static_cast<const T*>(g.w);
  T* c = static_cast<T*>(g.c);
  const A alpha = static_cast<A>(g.alpha), beta = static_cast<A>(g.beta);
  constexpr int64_t kBlock = 128;
  parallel_for(0, g.batch * g.m, std::max<int64_t>(1, 4096 / std::max<int64_t>(1, g.n * g.k)),
               [&](int64_t begin, int64_t end) {
                 std::vector<A> acc(static_cast<size_t>(g.n));
                 for (int64_t r = begin; r < end; ++r) {
                   const int64_t b = r / g.m, i = r % g.m;
                   const T* ar = a + b * g.a_strides[0] + i * g.a_strides[1];
                   const T* wb = w + b * g.w_strides[0];
                   std::fill(acc.begin(), acc.end(), A(0));
                   for (int64_t k0 = 0; k0 < g.k; k0 += kBlock) {
                     const int64_t k1 = std::min(g.k, k0 + kBlock);
                     for (int64_t k = k0; k < k1; ++k) {
                       const A av = static_cast<A>(ar[k * g.a_strides[2]]);
                       const T* wr = wb + k * g.w_strides[1];
                       const int64_t sn = g.w_strides[2];
                       if (sn == 1) {
                         for (int64_t j = 0; j < g.n; ++j) acc[j] += av * static_cast<A>(wr[j]);
                       } else {
                         for (int64_t j = 0; j < g.n; ++j)
                           acc[j] += av * static_cast<A>(wr[j * sn]);
                       }
                     }
                   }
                   T* cr = c + r * g.n;
                   for (int64_t j = 0; j < g.n; ++j) {
                     const A base = beta == A(0) ? A(0) : beta * static_cast<A>(cr[j]);
                     cr[j] = static_cast<T>(base + alpha * acc[j]);
                   }
                 }
               });
}

}  // namespace

void gemm_batched(const Tensor& out, const Tensor& a_in, const Tensor& w_in, const Scalar& beta,
                  const Scalar& alpha) {
  const ScalarType dt = out.dtype();
  if (dt == ScalarType::Half || (dt == ScalarType::BFloat16 && !onednn_has_bf16_matmul())) {
    Tensor tmp = out.to(kFloat);
    gemm_batched(tmp, a_in.to(kFloat), w_in.to(kFloat), beta, alpha);
    out.copy_(tmp);
    return;
  }
  Tensor a = usable(a_in), w = usable(w_in);
  const MatmulArgs g = make_args(out, a, w, beta.to<double>(), alpha.to<double>());
  if (dt == kFloat || dt == ScalarType::BFloat16) {
    onednn_matmul(g);
    return;
  }
  BRASA_DISPATCH_NUMERIC_TYPES(dt, "mm", [&] {
    if constexpr (std::is_same_v<scalar_t, Half> || std::is_same_v<scalar_t, BFloat16> ||
                  std::is_same_v<scalar_t, float>) {
      BRASA_THROW(InternalError, "mm: unreachable dtype ", dt);
    } else {
      blocked_gemm<scalar_t>(g);
    }
  });
}

}  // namespace brasa::cpu
