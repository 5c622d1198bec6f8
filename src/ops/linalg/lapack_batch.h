#pragma once
// What the LAPACK-backed ops share: argument checks, batched column-major buffers (the layout
// LAPACK reads and writes, and the one PyTorch returns), a parallel loop over the batch, and the
// error for a matrix that has no answer.

#include <cstdint>
#include <string>
#include <vector>

#include "backends/cpu/lapack.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/core/parallel.h"
#include "brasa/core/tensor.h"

namespace brasa::ops::linalg_detail {

/// Float or double (TypeError otherwise), at least 2-D (ValueError).
inline void check_matrix(const char* op, const Tensor& A, const char* name = "A") {
  BRASA_CHECK(A.defined(), op, ": got an undefined tensor");
  BRASA_CHECK_TYPE(A.dtype() == kFloat || A.dtype() == kDouble, op, ": ", name,
                   " must be a float or double tensor, got ", A.dtype());
  BRASA_CHECK(A.dim() >= 2, op, ": ", name, " must have at least 2 dimensions, got shape ",
              A.sizes());
  // LAPACK's integers are 32-bit (Debian's LP64 build).
  BRASA_CHECK(A.size(-1) <= INT32_MAX && A.size(-2) <= INT32_MAX, op, ": ", name,
              " has more than 2^31 - 1 rows or columns, which LAPACK cannot index: ", A.sizes());
}

inline void check_square(const char* op, const Tensor& A, const char* name = "A") {
  check_matrix(op, A, name);
  BRASA_CHECK(A.size(-1) == A.size(-2), op, ": ", name,
              " must be batches of square matrices, got shape ", A.sizes());
}

/// Sizes of the batch dims (all but the last two).
inline DimVector batch_sizes(const Tensor& A) {
  DimVector s;
  for (int64_t i = 0; i + 2 < A.dim(); ++i) s.push_back(A.size(i));
  return s;
}

inline int64_t product(IntArrayRef s) {
  int64_t n = 1;
  for (int64_t v : s) n *= v;
  return n;
}

/// A fresh tensor of `sizes` (>= 2-D) whose matrices are each column-major and stored one after
/// the other, as LAPACK wants them.
inline Tensor empty_column_major(IntArrayRef sizes, ScalarType dtype, Device device) {
  const int64_t d = static_cast<int64_t>(sizes.size());
  DimVector strides(sizes.size());
  int64_t stride = 1;
  strides[d - 2] = 1;
  strides[d - 1] = std::max<int64_t>(sizes[d - 2], 1);
  stride = std::max<int64_t>(sizes[d - 2], 1) * std::max<int64_t>(sizes[d - 1], 1);
  for (int64_t i = d - 3; i >= 0; --i) {
    strides[i] = stride;
    stride *= std::max<int64_t>(sizes[i], 1);
  }
  return detail::empty_strided_generic(sizes, strides, dtype, device);
}

/// A column-major copy of A (the buffer a LAPACK routine overwrites).
inline Tensor column_major_copy(const Tensor& A) {
  Tensor r = empty_column_major(A.sizes(), A.dtype(), A.device());
  r.copy_(A);
  return r;
}

/// Runs f(b) for every batch element b in [0, batch), in parallel: each element on one thread,
/// so results do not depend on the thread count (Note [LAPACK]). `work` ~ flops of one element.
template <class F>
void for_each_matrix(int64_t batch, int64_t work, const F& f) {
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(work, 1));
  parallel_for(0, batch, grain, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) f(b);
  });
}

/// Calls f(T{}) with T = float or double for the tensor's dtype.
template <class F>
void dispatch_floating(ScalarType dtype, const F& f) {
  if (dtype == kFloat)
    f(float{});
  else
    f(double{});
}

/// The first non-zero LAPACK info of a batch: (batch element, info), or (-1, 0).
inline std::pair<int64_t, int> first_failure(const std::vector<int>& infos) {
  for (size_t b = 0; b < infos.size(); ++b)
    if (infos[b] != 0) return {static_cast<int64_t>(b), infos[b]};
  return {-1, 0};
}

/// Throws RuntimeError (PyTorch: LinAlgError, a RuntimeError) naming the matrix with no answer of
/// the asked kind (singular, not positive-definite, no convergence).
#define BRASA_CHECK_LINALG(cond, ...) BRASA_CHECK_TYPED(RuntimeError, cond, __VA_ARGS__)

/// "A" or "batch element 3 of A [2, 4, 4]", for errors about one matrix of a batch.
inline std::string which_matrix(const Tensor& A, int64_t b, const char* name = "A") {
  if (A.dim() == 2) return detail::str_cat(name, " ", A.sizes());
  return detail::str_cat("batch element ", b, " of ", name, " ", A.sizes());
}

/// An argument error LAPACK reported (info < 0): a bug of ours, never the user's input.
[[noreturn]] inline void throw_bad_argument(const char* op, const char* routine, int info) {
  BRASA_THROW(InternalError, op, ": LAPACK ", routine, " rejected argument ", -info);
}

inline int as_int(int64_t v) { return static_cast<int>(v); }
inline int ld(int64_t rows) { return static_cast<int>(std::max<int64_t>(rows, 1)); }

}  // namespace brasa::ops::linalg_detail
