// Tensor::index / index_put_ for libtorch's index lists (see brasa/core/indexing.h).
//
// Note [Basic indexing]
// Indices are applied left to right to a running view: an integer selects (removing a dim), a slice
// slices, None and bools unsqueeze, Ellipsis skips the dims no other index names. A bool acts like
// PyTorch's advanced index [0] (true) or [] (false) on the unsqueezed dim: all bools of one list
// merge into a single dim of size 1 (all true) or 0, kept in place when they are adjacent and moved
// to the front otherwise; the result of index() is then a copy, as in PyTorch. Next to tensor
// indices a bool is what PyTorch makes it: the int64 index [0] (true) or [] (false) of its
// unsqueezed dim, broadcast with the others.
#include "brasa/core/indexing.h"

#include <cstring>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/core/warning.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/view.h"
#include "ops/index/advanced_index.h"

namespace brasa::indexing {

Slice::Slice(std::optional<int64_t> start_index, std::optional<int64_t> stop_index,
             std::optional<int64_t> step_index) {
  step_ = step_index.value_or(1);
  BRASA_CHECK(step_ != 0, "Slice: slice step cannot be zero");
  start_ = start_index.value_or(step_ < 0 ? INDEX_MAX : 0);
  stop_ = stop_index.value_or(step_ < 0 ? INDEX_MIN : INDEX_MAX);
}

std::ostream& operator<<(std::ostream& os, const Slice& s) {
  return os << s.start() << ":" << s.stop() << ":" << s.step();
}

TensorIndex::TensorIndex(const char* str) : type_(TensorIndexType::Ellipsis) {
  BRASA_CHECK(str != nullptr && std::strcmp(str, "...") == 0,
              "TensorIndex: Expected \"...\" to represent an ellipsis index, but got \"",
              str ? str : "(null)", "\"");
}

std::ostream& operator<<(std::ostream& os, const TensorIndex& index) {
  if (index.is_none()) return os << "None";
  if (index.is_ellipsis()) return os << "...";
  if (index.is_integer()) return os << index.integer();
  if (index.is_boolean()) return os << (index.boolean() ? "true" : "false");
  if (index.is_slice()) return os << index.slice();
  return os << index.tensor();
}

}  // namespace brasa::indexing

namespace brasa {
namespace {

using indexing::TensorIndex;

/// A 0-d integer or bool tensor index behaves like the corresponding scalar index; a 0-d uint8
/// one is a (deprecated) byte mask, which PyTorch treats as the bool it holds.
std::optional<TensorIndex> scalar_of(const Tensor& t) {
  if (!t.defined() || t.dim() != 0 || t.is_floating_point()) return std::nullopt;
  if (t.dtype() == kBool) return TensorIndex(t.item<bool>());
  if (t.dtype() == kByte) return TensorIndex(t.item<uint8_t>() != 0);
  return TensorIndex(t.item<int64_t>());
}

using Advanced = ops::AdvancedIndex;

struct Indexed {
  Tensor view;
  bool is_copy = false;  // PyTorch returns a copy (a bool index took part)
  std::vector<Advanced> advanced;
};

bool is_advanced(const TensorIndex& i) {
  return i.is_tensor() && !scalar_of(i.tensor()).has_value();
}

/// The size-1 dims that bools unsqueezed, merged into one (size 1 if all true, else 0), with
/// view ops so that the result stays differentiable.
Tensor merge_bool_dims(const Tensor& v, const DimVector& bool_dims, bool all_true) {
  const int64_t first = bool_dims[0];
  const bool adjacent = bool_dims.back() - first == static_cast<int64_t>(bool_dims.size()) - 1;
  Tensor r = v;
  for (size_t k = bool_dims.size(); k-- > 0;) r = r.squeeze(bool_dims[k]);
  const int64_t at = adjacent ? first : 0;
  r = r.unsqueeze(at);
  return all_true ? r : r.narrow(at, 0, 0);
}

Indexed apply_indices(const Tensor& self, ArrayRef<TensorIndex> indices, const char* op) {
  BRASA_CHECK(self.defined(), op, ": called on an undefined tensor");
  int64_t specified = 0, ellipses = 0;
  for (const TensorIndex& i : indices) {
    if (i.is_integer() || i.is_slice()) ++specified;
    if (i.is_ellipsis()) ++ellipses;
    if (is_advanced(i)) {
      const Tensor& t = i.tensor();
      BRASA_CHECK_INDEX(t.dtype() == kLong || t.dtype() == kBool || t.dtype() == kByte, op,
                        ": tensors used as indices must be long, byte or bool tensors, got ",
                        t.dtype());
      // Each use warns, as libtorch's (not once per process).
      if (t.dtype() == kByte) {
        warn(
            "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
            "instead.");
      }
      specified += t.dtype() == kLong ? 1 : t.dim();
    } else if (i.is_tensor() && scalar_of(i.tensor())->is_integer()) {
      ++specified;
    }
  }
  BRASA_CHECK_INDEX(ellipses <= 1, op, ": an index can only have a single ellipsis ('...')");
  if (self.dim() == 0 && specified > 0) {
    BRASA_THROW(IndexError, op, ": invalid index of a 0-dim tensor. Use `tensor.item()` in Python ",
                "or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
  }
  BRASA_CHECK_INDEX(specified <= self.dim(), op, ": too many indices for tensor of dimension ",
                    self.dim(), " (got ", specified, ")");

  bool any_advanced = false;
  for (const TensorIndex& i : indices) any_advanced = any_advanced || is_advanced(i);
  Tensor v = self;
  int64_t dim = 0;       // in v
  int64_t self_dim = 0;  // in self, for messages
  DimVector bool_dims;
  bool all_true = true;
  std::vector<Advanced> advanced;
  for (const TensorIndex& given : indices) {
    if (is_advanced(given)) {
      const Tensor& t = given.tensor();
      advanced.push_back({dim, t});
      dim += t.dtype() == kLong ? 1 : t.dim();
      self_dim += t.dtype() == kLong ? 1 : t.dim();
      continue;
    }
    TensorIndex index = given.is_tensor() ? *scalar_of(given.tensor()) : given;
    if (index.is_none()) {
      v = v.unsqueeze(dim++);
    } else if (index.is_ellipsis()) {
      dim += self.dim() - specified;
      self_dim += self.dim() - specified;
    } else if (index.is_integer()) {
      int64_t size = v.sizes()[dim];
      int64_t i = index.integer();
      BRASA_CHECK_INDEX(i >= -size && i < size, op, ": index ", i,
                        " is out of bounds for dimension ", self_dim, " with size ", size);
      v = v.select(dim, i);
      ++self_dim;
    } else if (index.is_slice()) {
      const indexing::Slice& s = index.slice();
      v = v.slice(dim++, s.start(), s.stop(), s.step());
      ++self_dim;
    } else if (index.is_boolean()) {
      v = v.unsqueeze(dim);
      if (any_advanced) {
        Tensor at = index.boolean() ? zeros({1}, TensorOptions(kLong).device(self.device()))
                                    : empty({0}, TensorOptions(kLong).device(self.device()));
        advanced.push_back({dim++, at});
        continue;
      }
      bool_dims.push_back(dim++);
      all_true = all_true && index.boolean();
    }
  }
  if (!advanced.empty()) return {v, true, std::move(advanced)};
  if (!bool_dims.empty()) return {merge_bool_dims(v, bool_dims, all_true), true, {}};
  if (v.is_same(self)) v = self.alias();
  return {v, false, {}};
}

/// libtorch's setitem: leading size-1 dims of value are dropped, the rest broadcasts into dst.
void assign(const Tensor& dst, const Tensor& value) {
  if (dst.sizes() == value.sizes()) {
    dst.copy_(value);
    return;
  }
  if (value.dim() == 0 && value.is_cpu()) {
    dst.fill_(value);
    return;
  }
  int64_t lead = 0;
  while (lead < value.dim() && value.sizes()[lead] == 1) ++lead;
  dst.copy_(lead == 0 ? value : value.view(value.sizes().slice(lead)));
}

}  // namespace

namespace {
// libtorch's words; x.index({Ellipsis}) is the spelling of "all of x".
void check_not_empty(ArrayRef<indexing::TensorIndex> indices, const char* method) {
  BRASA_CHECK(!indices.empty(), "Passing an empty index list to Tensor::", method,
              "() is not valid syntax");
}
}  // namespace

Tensor Tensor::index(ArrayRef<indexing::TensorIndex> indices) const {
  check_not_empty(indices, "index");
  Indexed r = apply_indices(*this, indices, "index");
  if (!r.advanced.empty()) return ops::advanced_index(r.view, r.advanced);
  return r.is_copy ? r.view.clone() : r.view;
}
Tensor Tensor::index(std::initializer_list<indexing::TensorIndex> indices) const {
  return index(ArrayRef<indexing::TensorIndex>(indices));
}

const Tensor& Tensor::index_put_(ArrayRef<indexing::TensorIndex> indices,
                                 const Tensor& value) const {
  BRASA_CHECK(value.defined(), "index_put_: the value is an undefined tensor");
  check_not_empty(indices, "index_put_");
  Indexed r = apply_indices(*this, indices, "index_put_");
  if (!r.advanced.empty()) {
    ops::advanced_index_put(r.view, r.advanced, value, false);
  } else {
    assign(r.view, value);
  }
  return *this;
}
const Tensor& Tensor::index_put_(ArrayRef<indexing::TensorIndex> indices,
                                 const Scalar& value) const {
  check_not_empty(indices, "index_put_");
  Indexed r = apply_indices(*this, indices, "index_put_");
  if (!r.advanced.empty()) {
    ops::advanced_index_fill(r.view, r.advanced, value);
  } else {
    r.view.fill_(value);
  }
  return *this;
}
const Tensor& Tensor::index_put_(std::initializer_list<indexing::TensorIndex> indices,
                                 const Tensor& value) const {
  return index_put_(ArrayRef<indexing::TensorIndex>(indices), value);
}
const Tensor& Tensor::index_put_(std::initializer_list<indexing::TensorIndex> indices,
                                 const Scalar& value) const {
  return index_put_(ArrayRef<indexing::TensorIndex>(indices), value);
}

namespace {
std::vector<indexing::TensorIndex> to_tensor_indices(const std::vector<std::optional<Tensor>>& l) {
  std::vector<indexing::TensorIndex> out;
  for (const std::optional<Tensor>& t : l) {
    if (t.has_value() && t->defined()) {
      out.emplace_back(*t);
    } else {
      out.emplace_back(indexing::Slice());
    }
  }
  return out;
}
}  // namespace

Tensor index(const Tensor& self, const std::vector<std::optional<Tensor>>& indices) {
  return self.index(to_tensor_indices(indices));
}

const Tensor& index_put_(const Tensor& self, const std::vector<std::optional<Tensor>>& indices,
                         const Tensor& values, bool accumulate) {
  std::vector<indexing::TensorIndex> list = to_tensor_indices(indices);
  if (!accumulate) return self.index_put_(list, values);
  Indexed r = apply_indices(self, list, "index_put_");
  if (!r.advanced.empty()) {
    ops::advanced_index_put(r.view, r.advanced, values, true);
  } else {
    r.view.add_(values);
  }
  return self;
}
Tensor index_put(const Tensor& self, const std::vector<std::optional<Tensor>>& indices,
                 const Tensor& values, bool accumulate) {
  Tensor out = self.clone();
  index_put_(out, indices, values, accumulate);
  return out;
}

}  // namespace brasa
