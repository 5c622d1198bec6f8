// brasa::tensor(...) from (nested) literals: shape and dtype checks while the literal is built, one
// typed copy into a CPU tensor when it is converted.
#include "brasa/ops/tensor_data.h"

#include <cctype>
#include <cstring>
#include <ostream>
#include <string>

#include "brasa/core/dispatch_type.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/ops/factory.h"

namespace brasa {
namespace {
/// "2, 3": sizes as libtorch's tensor() messages print them.
std::string join_sizes(IntArrayRef sizes) {
  std::string s;
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s;
}
/// "float", "double", "int": the lower-case dtype name libtorch's conversion errors use.
std::string lower_name(ScalarType t) {
  std::string s = to_string(t);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

namespace detail {

Tensor tensor_from_array(const void* data, int64_t n, ScalarType dt) {
  Tensor t = empty_generic({n}, dt, Device(kCPU));
  if (n > 0) std::memcpy(t.data_ptr(), data, size_t(n) * element_size(dt));
  return t;
}

#define BRASA_TENSOR_DATA_ARRAY(T, S)                     \
  TensorDataContainer::TensorDataContainer(ArrayRef<T> v) \
      : sizes_{int64_t(v.size())},                        \
        scalar_type_(S),                                  \
        kind_(Kind::Tensor),                              \
        tensor_(tensor_from_array(v.data(), int64_t(v.size()), S)) {}
#define BRASA_TENSOR_DATA_VECTOR(T, S)                              \
  TensorDataContainer::TensorDataContainer(const std::vector<T>& v) \
      : TensorDataContainer(ArrayRef<T>(v)) {}
BRASA_TENSOR_DATA_FORALL(BRASA_TENSOR_DATA_ARRAY)
BRASA_TENSOR_DATA_ARRAY(bool, kBool)
BRASA_TENSOR_DATA_FORALL(BRASA_TENSOR_DATA_VECTOR)
#undef BRASA_TENSOR_DATA_ARRAY
#undef BRASA_TENSOR_DATA_VECTOR

TensorDataContainer::TensorDataContainer(std::initializer_list<TensorDataContainer> list)
    : scalar_type_(list.size() ? list.begin()->scalar_type() : get_default_dtype()),
      kind_(Kind::InitList),
      elements_(list) {
  if (elements_.empty()) {
    sizes_ = {0};
    return;
  }
  const TensorDataContainer& first = elements_.front();
  for (const TensorDataContainer& e : elements_) {
    BRASA_CHECK(e.sizes() == first.sizes(),
                "tensor: Expected all sub-lists to have sizes: ", join_sizes(first.sizes()),
                " (e.g. ", first, "), but got sub-list ", e,
                " with sizes: ", join_sizes(e.sizes()));
    BRASA_CHECK_TYPE(e.scalar_type() == first.scalar_type(),
                     "tensor: Expected all elements of the tensor to have the same scalar type: ",
                     first.scalar_type(), ", but got element of scalar type: ", e.scalar_type());
  }
  sizes_.reserve(first.sizes().size() + 1);
  sizes_.push_back(int64_t(elements_.size()));
  sizes_.insert(sizes_.end(), first.sizes().begin(), first.sizes().end());
}

namespace {

// Int and Long literals become Long, Float and Double the default dtype (like Python's tensor()).
ScalarType desired_dtype(ScalarType t) {
  if (t == kInt || t == kLong) return kLong;
  if (t == kFloat || t == kDouble) return get_default_dtype();
  return t;
}

template <typename T>
void fill(const TensorDataContainer& c, T*& out) {
  switch (c.kind()) {
    case TensorDataContainer::Kind::Scalar: *out++ = c.scalar().to<T>(); return;
    case TensorDataContainer::Kind::Tensor: {
      Tensor t = c.tensor().to(dtype_of<T>).contiguous();
      const int64_t n = t.numel();
      if (n > 0) std::memcpy(out, t.data_ptr(), size_t(n) * sizeof(T));
      out += n;
      return;
    }
    case TensorDataContainer::Kind::InitList:
      for (const TensorDataContainer& e : c.elements()) fill(e, out);
      return;
  }
}

}  // namespace

Tensor TensorDataContainer::convert_to_tensor(const TensorOptions& options) const {
  TensorOptions o = options.has_dtype() ? options : options.dtype(desired_dtype(scalar_type_));
  // libtorch's two wordings: a vector's, and a literal's (its checked element conversion).
  if (is_complex_type(scalar_type_) && !is_complex_type(o.dtype())) {
    if (is_tensor()) {
      BRASA_THROW(TypeError,
                  "tensor: can not do torch::tensor(complex, dtype=non-complex) because ",
                  "complex can not be casted to real number without loss of information (dtype ",
                  o.dtype(), ")");
    }
    BRASA_THROW(TypeError, "tensor: value cannot be converted to type ", lower_name(o.dtype()),
                " without overflow (a complex value loses its imaginary part in dtype ", o.dtype(),
                ")");
  }
  if (is_scalar()) return scalar_tensor(scalar_, o);
  Tensor t;
  if (is_tensor()) {
    t = tensor_.to(o.dtype(), false, /*copy=*/true);
  } else {
    t = empty_generic(sizes_, o.dtype(), Device(kCPU));
    BRASA_DISPATCH_ALL_TYPES_AND_COMPLEX(o.dtype(), "tensor", [&] {
      scalar_t* out = t.numel() > 0 ? t.data_ptr<scalar_t>() : nullptr;
      if (out) fill(*this, out);
    });
  }
  if (o.device() != t.device()) t = t.to(o.device());
  if (o.requires_grad()) t.set_requires_grad(true);
  return t;
}

std::ostream& operator<<(std::ostream& os, const TensorDataContainer& c) {
  switch (c.kind()) {
    case TensorDataContainer::Kind::Scalar: return os << c.scalar();
    case TensorDataContainer::Kind::Tensor: {
      Tensor t = c.tensor().to(c.tensor().is_complex() ? kComplexDouble : kDouble);
      os << "{";
      for (int64_t i = 0; i < t.numel(); ++i) os << (i ? ", " : "") << t.select(0, i).item();
      return os << "}";
    }
    case TensorDataContainer::Kind::InitList: {
      os << "{";
      for (size_t i = 0; i < c.elements().size(); ++i) os << (i ? ", " : "") << c.elements()[i];
      return os << "}";
    }
  }
  return os;
}

}  // namespace detail

Tensor tensor(detail::TensorDataContainer data, const TensorOptions& options) {
  return data.convert_to_tensor(options);
}

}  // namespace brasa
