// Advanced indexing: each tensor index becomes int64 positions along one dim (a mask contributes
// one per dim it covers, from nonzero()); these broadcast together and, combined with the strides
// of the view, give the storage offset of every result element. index() is then a take() from the
// view's storage and index_put_() a scatter into it.
#include "ops/index/advanced_index.h"

#include <optional>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/grad_mode.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"

namespace brasa::ops {
namespace {

struct DimIndex {
  int64_t dim;
  Tensor positions;  // int64
};

std::vector<DimIndex> to_positions(const Tensor& view, const std::vector<AdvancedIndex>& indices) {
  std::vector<DimIndex> out;
  for (const AdvancedIndex& a : indices) {
    if (a.index.dtype() == kLong) {
      out.push_back({a.dim, a.index});
      continue;
    }
    BRASA_CHECK_NOT_IMPLEMENTED(a.index.dim() > 0, "index: 0-dim uint8 mask indices are not ",
                                "supported");
    for (int64_t k = 0; k < a.index.dim(); ++k) {
      BRASA_CHECK_INDEX(a.dim + k < view.dim() && a.index.sizes()[k] == view.sizes()[a.dim + k],
                        "index: the shape of the mask ", a.index.sizes(), " at index ", k,
                        " does not match the shape of the indexed tensor ", view.sizes(),
                        " at index ", a.dim + k);
    }
    Tensor mask = a.index.dtype() == kBool ? a.index : a.index.ne(0);
    Tensor nz = nonzero(mask);
    for (int64_t k = 0; k < a.index.dim(); ++k) out.push_back({a.dim + k, nz.select(1, k)});
  }
  return out;
}

DimVector broadcast_index_shape(const std::vector<DimIndex>& idx) {
  DimVector shape;
  for (const DimIndex& i : idx) {
    IntArrayRef s = i.positions.sizes();
    DimVector next(std::max(shape.size(), s.size()), 1);
    for (size_t k = 0; k < next.size(); ++k) {
      int64_t a = k < shape.size() ? shape[shape.size() - 1 - k] : 1;
      int64_t b = k < s.size() ? s[s.size() - 1 - k] : 1;
      BRASA_CHECK_INDEX(a == b || a == 1 || b == 1, "index: shape mismatch: indexing tensors ",
                        "could not be broadcast together (shape ", s, " against ",
                        IntArrayRef(shape), ")");
      next[next.size() - 1 - k] = a == 1 ? b : a;
    }
    shape = next;
  }
  return shape;
}

/// Positions checked against the dim's size and wrapped to [0, size).
Tensor checked_positions(const Tensor& p, int64_t size, int64_t dim) {
  if (p.numel() == 0) return p;
  Tensor bad = p.lt(-size).logical_or(p.ge(size));
  if (bad.any().item<bool>()) {
    int64_t v = masked_select(p, bad).reshape({-1})[0].item<int64_t>();
    // An empty dim in libtorch's words ("index is out of bounds for dimension with size 0").
    if (size == 0) {
      BRASA_THROW(IndexError, "index: index ", v, " is out of bounds for dimension with size 0 ",
                  "(dimension ", dim, ")");
    }
    BRASA_THROW(IndexError, "index: index ", v, " is out of bounds for dimension ", dim,
                " with size ", size);
  }
  return p.remainder(size);
}

/// Storage offsets (int64) of view[indices], in the result's shape; with `logical`, offsets into
/// view's elements in row-major order instead (what take() on the view itself reads).
Tensor element_offsets(const Tensor& view, const std::vector<AdvancedIndex>& indices,
                       bool logical = false) {
  BRASA_CHECK_NOT_IMPLEMENTED(!view.is_meta(), "index: tensor indices of a meta tensor");
  DimVector strides(view.strides());
  int64_t base = view.storage_offset();
  if (logical) {
    int64_t step = 1;
    for (int64_t d = view.dim() - 1; d >= 0; --d) {
      strides[d] = step;
      step *= view.sizes()[d];
    }
    base = 0;
  }
  std::vector<DimIndex> idx = to_positions(view, indices);
  const DimVector b = broadcast_index_shape(idx);
  const int64_t nb = static_cast<int64_t>(b.size());
  bool adjacent = true;
  for (size_t i = 1; i < idx.size(); ++i) adjacent = adjacent && idx[i].dim == idx[i - 1].dim + 1;
  std::vector<bool> indexed(static_cast<size_t>(view.dim()), false);
  for (const DimIndex& i : idx) indexed[i.dim] = true;
  const int64_t before = adjacent ? idx[0].dim : 0;  // rest dims placed before the index dims
  const int64_t rank = nb + view.dim() - static_cast<int64_t>(idx.size());

  const TensorOptions index_options = TensorOptions(kLong).device(view.device());
  Tensor adv = zeros(b, index_options);
  for (const DimIndex& i : idx) {
    Tensor p = checked_positions(i.positions, view.sizes()[i.dim], i.dim);
    adv = adv.add(p.mul(strides[i.dim]));
  }
  DimVector adv_shape(static_cast<size_t>(rank), 1);
  for (int64_t k = 0; k < nb; ++k) adv_shape[before + k] = b[k];
  Tensor offsets = adv.reshape(adv_shape).add(base);
  int64_t q = 0;
  for (int64_t d = 0; d < view.dim(); ++d) {
    if (indexed[d]) continue;
    int64_t pos = q < before ? q : q + nb;
    ++q;
    DimVector shape(static_cast<size_t>(rank), 1);
    shape[pos] = view.sizes()[d];
    offsets = offsets.add(arange(view.sizes()[d], index_options).mul(strides[d]).reshape(shape));
  }
  return offsets.contiguous();
}

/// A 1-d view of view's storage covering every offset in `offsets` (non-empty).
Tensor storage_view(const Tensor& view, const Tensor& offsets) {
  int64_t extent = offsets.max().item<int64_t>() + 1;
  return detail::make_view(view, {extent}, {1}, 0);
}

/// view[index] for one int64 index whose positions are all in range: an index_select, ~40x faster
/// than building offsets for a take (Note [One integer index]); nullopt otherwise.
std::optional<Tensor> select_by_one_index(const Tensor& view,
                                          const std::vector<AdvancedIndex>& indices) {
  if (indices.size() != 1 || indices[0].index.dtype() != kLong || view.is_meta()) return {};
  const AdvancedIndex& a = indices[0];
  const int64_t size = view.sizes()[a.dim];
  if (a.index.numel() == 0 || a.index.min().item<int64_t>() < 0 ||
      a.index.max().item<int64_t>() >= size)
    return {};  // negative positions wrap and bad ones raise in the general path
  DimVector shape;
  for (int64_t d = 0; d < a.dim; ++d) shape.push_back(view.sizes()[d]);
  for (int64_t s : a.index.sizes()) shape.push_back(s);
  for (int64_t d = a.dim + 1; d < view.dim(); ++d) shape.push_back(view.sizes()[d]);
  return index_select(view, a.dim, a.index.reshape({-1})).reshape(shape);
}

}  // namespace

// Note [One integer index]
// `x.index({idx})` and `x[idx]` with one int64 tensor are the common case (embedding-style
// gathers, batch selection). The general path checks, wraps, broadcasts and sums positions with
// about ten tensor ops before its take(); for one index whose positions are already in range
// that is index_select (differentiable the same way: its backward is index_add). Its cost is a
// min and a max over the index; anything else (a negative or bad position, a mask, several
// indices) takes the general path, so wrapping and error messages are unchanged.
Tensor advanced_index(const Tensor& view, const std::vector<AdvancedIndex>& indices) {
  if (std::optional<Tensor> r = select_by_one_index(view, indices)) return *r;
  if (will_record_grad({&view})) return take(view, element_offsets(view, indices, true));
  Tensor offsets = element_offsets(view, indices);
  if (offsets.numel() == 0)
    return detail::empty_generic(offsets.sizes(), view.dtype(), view.device());
  return take(storage_view(view, offsets), offsets);
}

namespace {

/// value with leading size-1 dims dropped, expanded to the index result's shape.
Tensor expand_value(const Tensor& value, const Tensor& offsets) {
  Tensor v = value;
  while (v.dim() > offsets.dim() && v.sizes()[0] == 1) v = v.squeeze(0);
  bool fits = v.dim() <= offsets.dim();
  for (int64_t k = 1; fits && k <= v.dim(); ++k) {
    const int64_t a = v.sizes()[v.dim() - k], b = offsets.sizes()[offsets.dim() - k];
    fits = a == b || a == 1;
  }
  BRASA_CHECK(fits, "index_put_: shape mismatch: value tensor of shape ", value.sizes(),
              " cannot be broadcast to indexing result of shape ", offsets.sizes());
  return v.expand(offsets.sizes());
}

/// Note [Differentiable index_put_]: with grad, the write is expressed in differentiable ops on
/// view's elements: a scatter into a flat buffer, then add_ (accumulate) or a where() copied back,
/// so view's history is rebased by those in-place ops.
void differentiable_index_put(const Tensor& view, const Tensor& offsets, const Tensor& value,
                              bool accumulate) {
  const int64_t n = view.numel();
  Tensor flat_offsets = offsets.reshape({-1});
  Tensor v = expand_value(value, offsets).reshape({-1});
  Tensor written = zeros({n}, view.options()).scatter_add(0, flat_offsets, v);
  if (accumulate) {
    view.add_(written.view(view.sizes()));
    return;
  }
  Tensor values = zeros({n}, view.options()).scatter(0, flat_offsets, v).view(view.sizes());
  Tensor mask = zeros({n}, TensorOptions(kBool).device(view.device()))
                    .scatter(0, flat_offsets, Scalar(true))
                    .view(view.sizes());
  view.copy_(where(mask, values, view));
}

}  // namespace

void advanced_index_put(const Tensor& view, const std::vector<AdvancedIndex>& indices,
                        const Tensor& value, bool accumulate) {
  BRASA_CHECK_TYPE(value.dtype() == view.dtype(), "index_put_: the source and destination dtypes ",
                   "must match, got ", view.dtype(), " for the destination and ", value.dtype(),
                   " for the source");
  if (will_record_grad({&view, &value})) {
    Tensor offsets = element_offsets(view, indices, true);
    if (offsets.numel() > 0) differentiable_index_put(view, offsets, value, accumulate);
    return;
  }
  Tensor offsets = element_offsets(view, indices);
  Tensor v = expand_value(value, offsets).contiguous();
  if (offsets.numel() == 0) return;
  Tensor flat = storage_view(view, offsets);
  if (accumulate) {
    flat.scatter_add_(0, offsets.view({-1}), v.view({-1}));
  } else {
    flat.scatter_(0, offsets.view({-1}), v.view({-1}));
  }
}

void advanced_index_fill(const Tensor& view, const std::vector<AdvancedIndex>& indices,
                         const Scalar& value) {
  if (will_record_grad({&view})) {
    Tensor offsets = element_offsets(view, indices, true);
    if (offsets.numel() == 0) return;
    Tensor mask = zeros({view.numel()}, TensorOptions(kBool).device(view.device()))
                      .scatter(0, offsets.reshape({-1}), Scalar(true));
    view.masked_fill_(mask.view(view.sizes()), value);
    return;
  }
  Tensor offsets = element_offsets(view, indices);
  if (offsets.numel() == 0) return;
  storage_view(view, offsets).scatter_(0, offsets.view({-1}), value);
}

}  // namespace brasa::ops
