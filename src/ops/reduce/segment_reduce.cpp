// segment_reduce (brasa/ops/statistics.h) as a composition: each element of data along axis gets
// the index of its segment (searchsorted of its position in the segments' end offsets; elements
// past the last segment, possible with unsafe, go to a dropped extra segment), and scatter_reduce
// combines each segment into a tensor that starts at the reduction's identity or at `initial`.
// Autograd flows through scatter_reduce: sum and mean spread the gradient over the segment, max
// and min share it evenly among the elements equal to the result, prod gives the product of the
// others (as libtorch's _segment_reduce_backward).
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/grad_mode.h"
#include "brasa/ops/composite_out.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/shaping.h"
#include "brasa/ops/statistics.h"
#include "brasa/ops/view.h"

namespace brasa {
namespace {

constexpr const char* kOp = "segment_reduce()";

// The segments' offsets [..., S + 1] from lengths or offsets, checked.
Tensor segment_offsets(const Tensor& data, const Tensor& lengths, const Tensor& offsets,
                       int64_t axis, bool unsafe) {
  const Tensor& given = lengths.defined() ? lengths : offsets;
  const char* what = lengths.defined() ? "lengths" : "offsets";
  BRASA_CHECK_TYPE(is_integral_type(given.scalar_type(), false), kOp, ": ", what,
                   " must be of an integral dtype, got ", given.scalar_type());
  BRASA_CHECK(given.dim() >= 1, kOp, ": ", what, " must have at least one dimension");
  BRASA_CHECK(axis == given.dim() - 1, kOp, ": Expected axis to be the last dimension of ", what,
              " but got ", axis, ".");
  for (int64_t d = 0; d < axis; ++d) {
    BRASA_CHECK(given.size(d) == data.size(d), kOp, ": ", what, " ", given.sizes(),
                " must match data ", data.sizes(), " in the dims before axis ", axis);
  }
  const int64_t n = data.size(axis);
  Tensor off;
  if (lengths.defined()) {
    Tensor l = lengths.to(kLong);
    BRASA_CHECK(l.numel() == 0 || l.min().item<int64_t>() >= 0, kOp,
                ": lengths contains negative value!");
    std::vector<int64_t> first_shape(l.sizes().begin(), l.sizes().end());
    first_shape.back() = 1;
    off = cat({zeros(first_shape, l.options()), cumsum(l, -1)}, -1);
  } else {
    off = offsets.to(kLong);
    BRASA_CHECK(off.size(-1) >= 1, kOp, ": offsets must hold at least one offset");
    if (off.size(-1) > 1) {
      BRASA_CHECK(diff(off).min().item<int64_t>() >= 0, kOp, ": offsets must be non-decreasing");
    }
    BRASA_CHECK(off.numel() == 0 || off.min().item<int64_t>() >= 0, kOp,
                ": offsets must be non-negative");
    BRASA_CHECK(unsafe || off.numel() == 0 || off.select(-1, 0).eq(0).all().item<bool>(), kOp,
                ": offsets must start at 0 when !unsafe");
  }
  if (!unsafe && off.numel() > 0) {
    BRASA_CHECK(off.select(-1, -1).eq(n).all().item<bool>(), kOp, ": Expected all rows of ", what,
                " along axis to sum to data.size(", axis, ") = ", n, " when !unsafe.");
  }
  return off;
}

}  // namespace

Tensor segment_reduce(const Tensor& data, std::string_view reduce,
                      const std::optional<Tensor>& lengths, const std::optional<Tensor>& indices,
                      const std::optional<Tensor>& offsets, int64_t axis, bool unsafe,
                      const std::optional<Scalar>& initial) {
  BRASA_CHECK(data.defined(), kOp, ": got an undefined data tensor");
  const std::string r(reduce);
  BRASA_CHECK(r == "sum" || r == "mean" || r == "max" || r == "min" || r == "prod", kOp,
              ": unsupported reduction given! ", r, " (expected sum, mean, max, min or prod)");
  BRASA_CHECK_TYPED(NotImplementedError, !(indices && indices->defined()), kOp,
                    ": indices based reduction is not supported yet (as in libtorch 1.13).");
  const Tensor len = lengths ? *lengths : Tensor(), offs = offsets ? *offsets : Tensor();
  BRASA_CHECK(len.defined() != offs.defined(), kOp,
              len.defined() ? ": give lengths or offsets, not both"
                            : ": Either lengths or offsets must be defined.");
  BRASA_CHECK_TYPE(is_floating_type(data.scalar_type()), kOp,
                   ": data must be of a floating dtype, got ", data.scalar_type());
  BRASA_CHECK(data.dim() >= 1, kOp, ": data must have at least one dimension");
  // libtorch 1.13 refuses empty data too.
  BRASA_CHECK(data.numel() > 0, kOp, ": data must not be empty, got shape ", data.sizes());
  const int64_t ax = detail::wrap_dim(axis, data.dim(), "segment_reduce");
  Tensor off;
  {
    NoGradGuard no_grad;
    off = segment_offsets(data, len, offs, ax, unsafe);
  }
  const int64_t segments = off.size(-1) - 1, n = data.size(ax);

  // Segment of each position along axis, [..., n] (segments for positions past the end).
  Tensor ids;
  {
    NoGradGuard no_grad;
    std::vector<int64_t> pos_shape(off.sizes().begin(), off.sizes().end());
    pos_shape.back() = n;
    Tensor positions = arange(n, off.options()).expand(pos_shape).contiguous();
    Tensor ends = off.narrow(-1, 1, segments).contiguous();
    ids = searchsorted(ends, positions, false, true).clamp_max(segments);
  }
  std::vector<int64_t> index_view(ids.sizes().begin(), ids.sizes().end());
  for (int64_t d = ax + 1; d < data.dim(); ++d) index_view.push_back(1);
  Tensor index = ids.view(index_view).expand(data.sizes());

  std::vector<int64_t> out_shape(data.sizes().begin(), data.sizes().end());
  out_shape[size_t(ax)] = segments + 1;  // the last row collects what lies past the segments
  const double inf = std::numeric_limits<double>::infinity();
  const double identity = r == "prod" ? 1.0 : r == "max" ? -inf : r == "min" ? inf : 0.0;
  const double start = initial && r != "mean" ? initial->to<double>() : identity;
  Tensor base = full(out_shape, start, data.options());
  const char* how = r == "max" ? "amax" : r == "min" ? "amin" : r == "prod" ? "prod" : "sum";
  Tensor result = scatter_reduce(base, ax, index, data, how, true).narrow(ax, 0, segments);
  if (r == "mean") {
    std::vector<int64_t> count_view(size_t(off.dim()), 1);
    for (int64_t d = 0; d + 1 < off.dim(); ++d) count_view[size_t(d)] = off.size(d);
    count_view.back() = segments;
    for (int64_t d = ax + 1; d < data.dim(); ++d) count_view.push_back(1);
    Tensor count = diff(off).to(data.scalar_type()).view(count_view);
    if (initial) {
      const double init = initial->to<double>();
      result = where(count.eq(0), full_like(result, init), (result + init) / count);
    } else {
      result = result / count;
    }
  }
  return result;
}

Tensor& segment_reduce_out(Tensor& out, const Tensor& data, std::string_view reduce,
                           const std::optional<Tensor>& lengths,
                           const std::optional<Tensor>& indices,
                           const std::optional<Tensor>& offsets, int64_t axis, bool unsafe,
                           const std::optional<Scalar>& initial) {
  return ops::composite_out(
      out, segment_reduce(data, reduce, lengths, indices, offsets, axis, unsafe, initial),
      "segment_reduce");
}

}  // namespace brasa
