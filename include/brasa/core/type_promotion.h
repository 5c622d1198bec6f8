#pragma once
// PyTorch's result_type: tensors with dims > 0 lead; 0-d tensors and scalars only raise the result
// when they are of a higher category (bool < integral < floating).

#include "brasa/core/tensor.h"

namespace brasa {

/// Accumulates operands one by one; result() gives the dtype PyTorch would pick.
class BRASA_API ResultTypeState {
 public:
  void add(const Tensor& t);
  void add(const Scalar& s);
  ScalarType result() const;

 private:
  ScalarType dim_ = ScalarType::Undefined, zero_ = ScalarType::Undefined,
             wrapped_ = ScalarType::Undefined;
};

BRASA_API ScalarType result_type(const Tensor& a, const Tensor& b);
BRASA_API ScalarType result_type(const Tensor& a, const Scalar& b);
BRASA_API ScalarType result_type(const Scalar& a, const Tensor& b);
BRASA_API ScalarType result_type(TensorList tensors);
/// Whether a value of dtype `from` may be written into `to` by an in-place or out= op.
BRASA_API bool can_cast(ScalarType from, ScalarType to);

}  // namespace brasa
