#pragma once
// Matrix products (libtorch spellings). Operands must share one dtype (TypeError otherwise; Bool is
// not supported); shapes that don't fit throw ValueError naming both shapes. Float and BFloat16
// run on oneDNN, Half is computed in float, Double and integral dtypes use a blocked loop.

#include <optional>
#include <string_view>
#include <vector>

#include "brasa/core/tensor.h"
#include "brasa/ops/composite_out.h"

namespace brasa {

/// [n, m] x [m, p] -> [n, p].
BRASA_API Tensor mm(const Tensor& self, const Tensor& mat2);
/// [b, n, m] x [b, m, p] -> [b, n, p].
BRASA_API Tensor bmm(const Tensor& self, const Tensor& mat2);
/// [n, m] x [m] -> [n].
BRASA_API Tensor mv(const Tensor& self, const Tensor& vec);
/// [n] . [n] -> 0-d.
BRASA_API Tensor dot(const Tensor& self, const Tensor& other);
/// [n] x [m] -> [n, m] (dtypes promote, as for mul).
BRASA_API Tensor outer(const Tensor& self, const Tensor& vec2);
BRASA_API Tensor ger(const Tensor& self, const Tensor& vec2);
/// beta * self + alpha * (mat1 @ mat2); self broadcasts to [n, p].
BRASA_API Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                       const Scalar& beta = 1, const Scalar& alpha = 1);
/// beta * self + alpha * (mat @ vec); self broadcasts to [n].
BRASA_API Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec,
                       const Scalar& beta = 1, const Scalar& alpha = 1);
/// beta * self + alpha * bmm(batch1, batch2); self broadcasts to [b, n, p].
BRASA_API Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                         const Scalar& beta = 1, const Scalar& alpha = 1);
/// PyTorch's matmul: dot, mv, mm, or a batched product broadcasting the batch dims; 1-D operands
/// get a dim prepended (left) or appended (right) that is removed from the result.
BRASA_API Tensor matmul(const Tensor& self, const Tensor& other);
/// input [*, in] @ weight[out, in]^T + bias[out] -> [*, out].
BRASA_API Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = {});
/// linear written into out (resized when it has no elements; ValueError for another shape); no
/// autograd.
inline Tensor& linear_out(Tensor& out, const Tensor& input, const Tensor& weight,
                          const Tensor& bias = {}) {
  return ops::composite_out(out, linear(input, weight, bias), "linear");
}
/// Einstein summation over lowercase/uppercase letters ("bij,bjk->bik", "ij->ji", "i,i->"):
/// permute/reshape + bmm + sum. Throws ValueError for ill-formed equations or mismatched sizes,
/// NotImplementedError for ellipsis and repeated subscripts within one operand.
BRASA_API Tensor einsum(std::string_view equation, const std::vector<Tensor>& operands);

namespace nn::functional {
using ::brasa::linear;  // torch::nn::functional::linear
}  // namespace nn::functional

}  // namespace brasa
