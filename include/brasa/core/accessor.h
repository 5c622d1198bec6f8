#pragma once
// TensorAccessor<T, N>: unchecked, strided element access like libtorch's
// (`auto a = t.accessor<float, 2>(); a[i][j] = 1;`). It borrows the tensor's sizes and strides, so
// the tensor must outlive it (which is why accessor() is deleted on temporaries).

#include <cstddef>
#include <cstdint>

#include "brasa/core/error.h"
#include "brasa/core/tensor.h"

namespace brasa {

template <typename T, size_t N>
class TensorAccessorBase {
 public:
  TensorAccessorBase(T* data, const int64_t* sizes, const int64_t* strides)
      : data_(data), sizes_(sizes), strides_(strides) {}
  IntArrayRef sizes() const { return IntArrayRef(sizes_, N); }
  IntArrayRef strides() const { return IntArrayRef(strides_, N); }
  int64_t size(int64_t i) const { return sizes_[i]; }
  int64_t stride(int64_t i) const { return strides_[i]; }
  T* data() { return data_; }
  const T* data() const { return data_; }

 protected:
  T* data_;
  const int64_t* sizes_;
  const int64_t* strides_;
};

/// a[i] is a TensorAccessor<T, N-1> over the sub-tensor; no bounds checks.
template <typename T, size_t N>
class TensorAccessor : public TensorAccessorBase<T, N> {
 public:
  using TensorAccessorBase<T, N>::TensorAccessorBase;
  TensorAccessor<T, N - 1> operator[](int64_t i) {
    return TensorAccessor<T, N - 1>(this->data_ + this->strides_[0] * i, this->sizes_ + 1,
                                    this->strides_ + 1);
  }
  const TensorAccessor<T, N - 1> operator[](int64_t i) const {
    return TensorAccessor<T, N - 1>(this->data_ + this->strides_[0] * i, this->sizes_ + 1,
                                    this->strides_ + 1);
  }
};

/// The last dim: a[i] is a reference to the element.
template <typename T>
class TensorAccessor<T, 1> : public TensorAccessorBase<T, 1> {
 public:
  using TensorAccessorBase<T, 1>::TensorAccessorBase;
  T& operator[](int64_t i) { return this->data_[this->strides_[0] * i]; }
  const T& operator[](int64_t i) const { return this->data_[this->strides_[0] * i]; }
};

/// Throws TypeError when T is not the dtype, ValueError when dim() != N, NotImplementedError for
/// tensors without data (meta).
template <typename T, size_t N>
TensorAccessor<T, N> Tensor::accessor() const& {
  static_assert(N > 0, "accessor is used for indexing tensor, for scalars use *data_ptr<T>()");
  BRASA_CHECK(defined(), "accessor: called on an undefined tensor");
  BRASA_CHECK(dim() == static_cast<int64_t>(N), "accessor: TensorAccessor expected ", N,
              " dims but tensor has ", dim());
  BRASA_CHECK_NOT_IMPLEMENTED(!is_meta(), "accessor: meta tensors have no data");
  T* ptr = data_ptr<std::remove_const_t<T>>();
  return TensorAccessor<T, N>(ptr, sizes().data(), strides().data());
}

}  // namespace brasa
