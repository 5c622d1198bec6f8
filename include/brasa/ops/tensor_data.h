#pragma once
// brasa::tensor(...): a tensor from C++ values, (nested) braced lists, std::vector or ArrayRef,
// with libtorch's torch::tensor rules: int/int64 elements give Long, float/double give the default
// dtype, other types (bool, uint8, int8, int16, Half, BFloat16, complex<float>, complex<double>)
// keep theirs; options.dtype() overrides (complex values need a complex dtype).

#include <initializer_list>
#include <iosfwd>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/core/tensor.h"

namespace brasa {
namespace detail {

/// A 1-D CPU tensor of dtype `dt` holding a copy of the n elements at `data`.
BRASA_API Tensor tensor_from_array(const void* data, int64_t n, ScalarType dt);

/// One node of a tensor literal: a scalar, a braced list of nodes, or a 1-D array
/// (vector/ArrayRef).
class BRASA_API TensorDataContainer {
 public:
  enum class Kind : uint8_t { Scalar, InitList, Tensor };

  /// `{}`: an empty list (size [0]) of the default dtype.
  TensorDataContainer() : sizes_{0}, scalar_type_(get_default_dtype()), kind_(Kind::InitList) {}
#define BRASA_TENSOR_DATA_SCALAR(T, S) \
  TensorDataContainer(T v) : scalar_type_(S), kind_(Kind::Scalar), scalar_(v) {}  // NOLINT
// Out of line (src/ops/factory/tensor_data.cpp): a program that includes this header does not
// instantiate std::vector and ArrayRef of the eleven element types.
#define BRASA_TENSOR_DATA_ARRAY(T, S) TensorDataContainer(ArrayRef<T> v);             // NOLINT
#define BRASA_TENSOR_DATA_VECTOR(T, S) TensorDataContainer(const std::vector<T>& v);  // NOLINT
// The element types (and their dtypes) of the array constructors; tensor_data.cpp defines them.
#define BRASA_TENSOR_DATA_FORALL(_) \
  _(uint8_t, kByte)                 \
  _(int8_t, kChar)                  \
  _(int16_t, kShort)                \
  _(int, kInt)                      \
  _(int64_t, kLong)                 \
  _(float, kFloat)                  \
  _(double, kDouble)                \
  _(Half, kHalf)                    \
  _(BFloat16, kBFloat16)            \
  _(complex<float>, kComplexFloat)  \
  _(complex<double>, kComplexDouble)
  BRASA_TENSOR_DATA_FORALL(BRASA_TENSOR_DATA_SCALAR)
  BRASA_TENSOR_DATA_SCALAR(bool, kBool)
  BRASA_TENSOR_DATA_FORALL(BRASA_TENSOR_DATA_ARRAY)
  BRASA_TENSOR_DATA_ARRAY(bool, kBool)
  // std::vector<bool> is a bitfield without data(); like libtorch it is not accepted.
  BRASA_TENSOR_DATA_FORALL(BRASA_TENSOR_DATA_VECTOR)
#undef BRASA_TENSOR_DATA_SCALAR
#undef BRASA_TENSOR_DATA_ARRAY
#undef BRASA_TENSOR_DATA_VECTOR

  /// A braced list; throws ValueError for ragged sub-lists, TypeError for mixed element types.
  TensorDataContainer(std::initializer_list<TensorDataContainer> list);  // NOLINT

  Kind kind() const { return kind_; }
  bool is_scalar() const { return kind_ == Kind::Scalar; }
  bool is_init_list() const { return kind_ == Kind::InitList; }
  bool is_tensor() const { return kind_ == Kind::Tensor; }
  const std::vector<int64_t>& sizes() const { return sizes_; }
  ScalarType scalar_type() const { return scalar_type_; }
  /// The value of a scalar node; throws for the other kinds, as the two accessors below do.
  const Scalar& scalar() const {
    BRASA_CHECK(is_scalar(),
                "Can only call `scalar()` on a TensorDataContainer that has `is_scalar() == true`");
    return scalar_;
  }
  /// The nodes of a braced list (libtorch's init_list()).
  const std::vector<TensorDataContainer>& init_list() const {
    BRASA_CHECK(is_init_list(),
                "Can only call `init_list()` on a TensorDataContainer that has "
                "`is_init_list() == true`");
    return elements_;
  }
  /// The 1-D tensor of a vector or ArrayRef node.
  const Tensor& tensor() const {
    BRASA_CHECK(is_tensor(),
                "Can only call `tensor()` on a TensorDataContainer that has `is_tensor() == true`");
    return tensor_;
  }
  /// The nodes of a braced list; empty for the other kinds.
  const std::vector<TensorDataContainer>& elements() const { return elements_; }

  /// The tensor this literal describes (dtype from options, else by the rules above).
  Tensor convert_to_tensor(const TensorOptions& options) const;

 private:
  std::vector<int64_t> sizes_;
  ScalarType scalar_type_;
  Kind kind_;
  Scalar scalar_;
  std::vector<TensorDataContainer> elements_;
  Tensor tensor_;
};

/// Prints the literal the way it was written: {{1, 2}, {3, 4}}.
BRASA_API std::ostream& operator<<(std::ostream& os, const TensorDataContainer& c);

}  // namespace detail

/// A tensor from a literal: tensor(5) is 0-d, tensor({1, 2, 3}) Long [3], tensor({{1.5}, {2.5}})
/// Float [2, 1], tensor(std::vector<float>{...}) 1-D. Throws ValueError for ragged lists and
/// TypeError for mixed element types ({1, 2.5}).
BRASA_API Tensor tensor(detail::TensorDataContainer data, const TensorOptions& options = {});

}  // namespace brasa
