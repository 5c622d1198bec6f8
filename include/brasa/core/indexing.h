#pragma once
// libtorch's indexing vocabulary: t.index({Slice(1, 3), None, Ellipsis, 0}) is Python's
// t[1:3, None, ..., 0]. Integers, slices, None, Ellipsis and bools give views (bools: a copy, like
// PyTorch); tensor indices (advanced indexing) are not supported yet and throw NotImplementedError.

#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <vector>

#include "brasa/core/tensor.h"

namespace brasa::indexing {

constexpr int64_t INDEX_MIN = std::numeric_limits<int64_t>::min();
constexpr int64_t INDEX_MAX = std::numeric_limits<int64_t>::max();

/// `None` inserts a size-1 dim (Python's None); also an open bound of a Slice.
constexpr std::nullopt_t None = std::nullopt;

struct EllipsisIndexType final {
  EllipsisIndexType() = default;
};
/// `...`: as many full slices as needed to index every remaining dim.
inline constexpr EllipsisIndexType Ellipsis{};

/// start:stop:step with Python defaults (0, end, 1); throws ValueError for step 0.
class BRASA_API Slice final {
 public:
  Slice(std::optional<int64_t> start_index = std::nullopt,
        std::optional<int64_t> stop_index = std::nullopt,
        std::optional<int64_t> step_index = std::nullopt);
  int64_t start() const { return start_; }
  int64_t stop() const { return stop_; }
  int64_t step() const { return step_; }

 private:
  int64_t start_;
  int64_t stop_;
  int64_t step_;
};
BRASA_API std::ostream& operator<<(std::ostream& os, const Slice& s);

enum class TensorIndexType { None, Ellipsis, SymInt, Boolean, Slice, Tensor };

/// One entry of an index list: None, Ellipsis ("..." too), an integer, a bool, a Slice or a Tensor.
struct BRASA_API TensorIndex final {
  TensorIndex(std::nullopt_t) : type_(TensorIndexType::None) {}         // NOLINT
  TensorIndex(EllipsisIndexType) : type_(TensorIndexType::Ellipsis) {}  // NOLINT
  TensorIndex(const char* str);  // NOLINT: only "..." is accepted
  TensorIndex(int64_t integer) : integer_(integer), type_(TensorIndexType::SymInt) {}  // NOLINT
  TensorIndex(int integer) : TensorIndex(static_cast<int64_t>(integer)) {}             // NOLINT
  template <class T, class = std::enable_if_t<std::is_same_v<bool, T>>>
  TensorIndex(T boolean) : boolean_(boolean), type_(TensorIndexType::Boolean) {}  // NOLINT
  TensorIndex(Slice slice) : slice_(slice), type_(TensorIndexType::Slice) {}      // NOLINT
  TensorIndex(Tensor tensor)
      : tensor_(std::move(tensor)), type_(TensorIndexType::Tensor) {}  // NOLINT

  bool is_none() const { return type_ == TensorIndexType::None; }
  bool is_ellipsis() const { return type_ == TensorIndexType::Ellipsis; }
  bool is_integer() const { return type_ == TensorIndexType::SymInt; }
  int64_t integer() const { return integer_; }
  bool is_boolean() const { return type_ == TensorIndexType::Boolean; }
  bool boolean() const { return boolean_; }
  bool is_slice() const { return type_ == TensorIndexType::Slice; }
  const Slice& slice() const { return slice_; }
  bool is_tensor() const { return type_ == TensorIndexType::Tensor; }
  const Tensor& tensor() const { return tensor_; }

 private:
  int64_t integer_ = 0;
  bool boolean_ = false;
  Slice slice_;
  Tensor tensor_;
  TensorIndexType type_;
};
BRASA_API std::ostream& operator<<(std::ostream& os, const TensorIndex& index);
/// Prints a list of indices as libtorch does: (None, ..., 0, 1:3:1).
inline std::ostream& operator<<(std::ostream& os, const std::vector<TensorIndex>& indices) {
  os << '(';
  for (size_t i = 0; i < indices.size(); ++i) os << (i ? ", " : "") << indices[i];
  return os << ')';
}

}  // namespace brasa::indexing
