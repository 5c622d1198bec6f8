// mm, bmm, addmm, baddbmm, mv, addmv, dot: one core (a batched product, optionally accumulated into
// a broadcast self) over cpu::gemm_batched; each op's meta function stops at the core's result.
#include "ops/linalg/mm_ops.h"

#include <sstream>

#include "backends/cpu/gemm.h"
#include "backends/cpu/tensor_iterator.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/linalg.h"

namespace brasa::ops {
namespace {

std::string shape_str(const Tensor& t) {
  std::ostringstream os;
  for (int64_t i = 0; i < t.dim(); ++i) os << (i ? "x" : "") << t.size(i);
  return os.str();
}

void check_dtypes(const char* op, const Tensor& a, const Tensor& b) {
  BRASA_CHECK(a.defined() && b.defined(), op, ": got an undefined tensor");
  BRASA_CHECK_TYPE(a.dtype() == b.dtype(), op, ": expected scalar type ", a.dtype(), " but found ",
                   b.dtype());
  BRASA_CHECK_TYPE(a.dtype() != kBool, op, ": not implemented for 'Bool'");
}

void check_dim(const char* op, const Tensor& t, int64_t dim, const char* what) {
  BRASA_CHECK(t.dim() == dim, op, ": ", what, " must be a ", dim, "-D tensor, but got a ", t.dim(),
              "-D tensor");
}

void check_self(const char* op, const Tensor& self, const Tensor& mat, IntArrayRef out_shape) {
  check_dtypes(op, mat, self);
  DimVector b = cpu::broadcast_shapes(self.sizes(), out_shape, op);
  BRASA_CHECK(IntArrayRef(b) == out_shape, op, ": self of shape [", shape_str(self),
              "] does not broadcast to the result shape ", IntArrayRef(out_shape));
}

// The meta function of every product: a [B, M, N] result for a [B, M, K], w [B, K, N], viewed as
// out_shape.
Tensor product_meta(const Tensor&, const Tensor& a, const Tensor& w, const Scalar&, const Scalar&,
                    IntArrayRef out_shape) {
  return detail::empty_generic({a.size(0), a.size(1), w.size(2)}, a.dtype(), a.device())
      .view(out_shape);
}

// out = beta * self + alpha * (a @ w) into product_meta's result.
Tensor product(const Tensor& self, const Tensor& a, const Tensor& w, const Scalar& beta,
               const Scalar& alpha, IntArrayRef out_shape) {
  Tensor result = product_meta(self, a, w, beta, alpha, out_shape);
  if (result.numel() == 0) return result;
  const int64_t B = a.size(0), M = a.size(1), K = a.size(2), N = w.size(2);
  Tensor out = result.view({B, M, N});
  const bool use_self = self.defined() && !(beta.to<double>() == 0.0);
  if (use_self) result.copy_(self);
  if (K == 0) {
    if (use_self)
      result.mul_(beta);
    else
      out.zero_();
    return result;
  }
  cpu::gemm_batched(out, a, w, use_self ? beta : Scalar(0), alpha);
  return result;
}

// Each op's kernel is a template over the product: `product` (CPU) or `product_meta` (Meta).
using ProductFn = decltype(&product);

template <ProductFn run>
Tensor addmm_kernel(const Tensor& self, const Tensor& m1, const Tensor& m2, const Scalar& beta,
                    const Scalar& alpha) {
  const char* op = self.defined() ? "addmm" : "mm";
  check_dtypes(op, m1, m2);
  check_dim(op, m1, 2, self.defined() ? "mat1" : "self");
  check_dim(op, m2, 2, "mat2");
  BRASA_CHECK(m1.size(1) == m2.size(0), op, ": mat1 and mat2 shapes cannot be multiplied (",
              shape_str(m1), " and ", shape_str(m2), ")");
  const DimVector shape{m1.size(0), m2.size(1)};
  if (self.defined()) check_self(op, self, m1, shape);
  return run(self, m1.unsqueeze(0), m2.unsqueeze(0), beta, alpha, shape);
}

template <ProductFn run>
Tensor baddbmm_kernel(const Tensor& self, const Tensor& b1, const Tensor& b2, const Scalar& beta,
                      const Scalar& alpha) {
  const char* op = self.defined() ? "baddbmm" : "bmm";
  check_dtypes(op, b1, b2);
  check_dim(op, b1, 3, "batch1");
  check_dim(op, b2, 3, "batch2");
  BRASA_CHECK(b1.size(0) == b2.size(0) && b1.size(2) == b2.size(1), op,
              ": Expected size for first two dimensions of batch2 tensor to be: [", b1.size(0),
              ", ", b1.size(2), "] but got: [", b2.size(0), ", ", b2.size(1), "].");
  const DimVector shape{b1.size(0), b1.size(1), b2.size(2)};
  if (self.defined()) check_self(op, self, b1, shape);
  return run(self, b1, b2, beta, alpha, shape);
}

template <ProductFn run>
Tensor addmv_kernel(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
                    const Scalar& alpha) {
  const char* op = self.defined() ? "addmv" : "mv";
  check_dtypes(op, mat, vec);
  check_dim(op, mat, 2, "mat");
  check_dim(op, vec, 1, "vec");
  BRASA_CHECK(mat.size(1) == vec.size(0), op, ": size mismatch, got ", mat.size(0), ", ",
              shape_str(mat), ",", vec.size(0));
  const DimVector shape{mat.size(0)};
  if (self.defined()) check_self(op, self, mat, shape);
  return run(self, mat.unsqueeze(0), vec.unsqueeze(-1).unsqueeze(0), beta, alpha, shape);
}

template <ProductFn run>
Tensor dot_kernel(const Tensor& self, const Tensor& other) {
  check_dtypes("dot", self, other);
  BRASA_CHECK(self.dim() == 1 && other.dim() == 1, "dot: 1D tensors expected, but got ", self.dim(),
              "D and ", other.dim(), "D tensors");
  BRASA_CHECK(self.size(0) == other.size(0), "dot: inconsistent tensor size, expected tensor [",
              self.size(0), "] and src [", other.size(0),
              "] to have the same number of elements, but got ", self.size(0), " and ",
              other.size(0), " elements respectively");
  return run(Tensor(), self.view({1, 1, -1}), other.unsqueeze(-1).unsqueeze(0), 0, 1, {});
}

}  // namespace

BRASA_DEFINE_OP(addmm_op)
BRASA_REGISTER_KERNEL(addmm_op, addmm_kernel<product>, CPU)
BRASA_REGISTER_KERNEL(addmm_op, addmm_kernel<product_meta>, Meta)
BRASA_DEFINE_OP(baddbmm_op)
BRASA_REGISTER_KERNEL(baddbmm_op, baddbmm_kernel<product>, CPU)
BRASA_REGISTER_KERNEL(baddbmm_op, baddbmm_kernel<product_meta>, Meta)
BRASA_DEFINE_OP(addmv_op)
BRASA_REGISTER_KERNEL(addmv_op, addmv_kernel<product>, CPU)
BRASA_REGISTER_KERNEL(addmv_op, addmv_kernel<product_meta>, Meta)
BRASA_DEFINE_OP(dot_op)
BRASA_REGISTER_KERNEL(dot_op, dot_kernel<product>, CPU)
BRASA_REGISTER_KERNEL(dot_op, dot_kernel<product_meta>, Meta)

}  // namespace brasa::ops

namespace brasa {
namespace {
const Tensor kNone;
}  // namespace

Tensor mm(const Tensor& self, const Tensor& mat2) {
  return ops::addmm_op().call(kNone, self, mat2, 0, 1);
}
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
             const Scalar& alpha) {
  BRASA_CHECK(self.defined(), "addmm: got an undefined self");
  return ops::addmm_op().call(self, mat1, mat2, beta, alpha);
}
Tensor bmm(const Tensor& self, const Tensor& mat2) {
  return ops::baddbmm_op().call(kNone, self, mat2, 0, 1);
}
Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
               const Scalar& alpha) {
  BRASA_CHECK(self.defined(), "baddbmm: got an undefined self");
  return ops::baddbmm_op().call(self, batch1, batch2, beta, alpha);
}
Tensor mv(const Tensor& self, const Tensor& vec) {
  return ops::addmv_op().call(kNone, self, vec, 0, 1);
}
Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
             const Scalar& alpha) {
  BRASA_CHECK(self.defined(), "addmv: got an undefined self");
  return ops::addmv_op().call(self, mat, vec, beta, alpha);
}
Tensor dot(const Tensor& self, const Tensor& other) { return ops::dot_op().call(self, other); }

Tensor Tensor::mm(const Tensor& mat2) const { return brasa::mm(*this, mat2); }
Tensor Tensor::bmm(const Tensor& mat2) const { return brasa::bmm(*this, mat2); }
Tensor Tensor::mv(const Tensor& vec) const { return brasa::mv(*this, vec); }
Tensor Tensor::dot(const Tensor& other) const { return brasa::dot(*this, other); }
Tensor Tensor::addmm(const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                     const Scalar& alpha) const {
  return brasa::addmm(*this, mat1, mat2, beta, alpha);
}
Tensor Tensor::addmv(const Tensor& mat, const Tensor& vec, const Scalar& beta,
                     const Scalar& alpha) const {
  return brasa::addmv(*this, mat, vec, beta, alpha);
}
Tensor Tensor::baddbmm(const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                       const Scalar& alpha) const {
  return brasa::baddbmm(*this, batch1, batch2, beta, alpha);
}

}  // namespace brasa
