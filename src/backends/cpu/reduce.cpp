#include "backends/cpu/reduce.h"

#include <algorithm>
#include <numeric>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"

namespace brasa::cpu {

DimMask make_dim_mask(IntArrayRef dims, int64_t ndim, const char* op) {
  BRASA_CHECK(ndim <= 64, op, ": tensors with more than 64 dims are not supported, got ", ndim);
  if (dims.empty()) return ndim == 0 ? 0 : (ndim == 64 ? ~DimMask(0) : (DimMask(1) << ndim) - 1);
  DimMask mask = 0;
  for (int64_t d : dims) {
    int64_t w = detail::wrap_dim(d, ndim, op);
    BRASA_CHECK(ndim == 0 || !(mask >> w & 1), op, ": dim ", w,
                " appears multiple times in the list of dims");
    if (ndim > 0) mask |= DimMask(1) << w;
  }
  return mask;
}

DimVector reduced_shape(IntArrayRef sizes, DimMask mask, bool keepdim) {
  DimVector out;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (!(mask >> d & 1))
      out.push_back(sizes[d]);
    else if (keepdim)
      out.push_back(1);
  }
  return out;
}

namespace {
struct Dim {
  int64_t size, in_stride, out_stride[ReduceIter::kMaxOutputs];
};

// Merges dim i+1 into dim i (innermost first) when every operand steps through both as one dim.
std::vector<Dim> coalesce(std::vector<Dim> dims, int nout) {
  std::vector<Dim> out;
  for (const Dim& d : dims) {
    if (!out.empty()) {
      Dim& last = out.back();
      bool can = last.in_stride * last.size == d.in_stride;
      for (int k = 0; k < nout; ++k) can &= last.out_stride[k] * last.size == d.out_stride[k];
      if (can) {
        last.size *= d.size;
        continue;
      }
    }
    out.push_back(d);
  }
  return out;
}
}  // namespace

ReduceIter::ReduceIter(const Tensor& in, ArrayRef<Tensor> outs, DimMask mask, bool keepdim,
                       bool keep_logical_order) {
  BRASA_INTERNAL_ASSERT(outs.size() >= 1 && outs.size() <= size_t(kMaxOutputs), "bad output count");
  noutputs_ = static_cast<int>(outs.size());
  in_dtype_ = in.dtype();
  in_data_ = static_cast<const char*>(in.data_ptr());
  for (int k = 0; k < noutputs_; ++k) {
    out_data_[k] = static_cast<char*>(outs[k].data_ptr());
    out_dtype_[k] = outs[k].dtype();
  }

  const int64_t nd = in.dim();
  std::vector<Dim> kept, red;
  int64_t out_dim = 0;
  for (int64_t d = 0; d < nd; ++d) {
    bool reduced = mask >> d & 1;
    Dim dim{in.size(d), in.stride(d), {0, 0}};
    if (!reduced || keepdim) {
      for (int k = 0; k < noutputs_; ++k)
        dim.out_stride[k] =
            reduced ? 0 : outs[k].stride(out_dim) * static_cast<int64_t>(outs[k].itemsize());
      ++out_dim;
    }
    if (reduced)
      num_reduced_ *= dim.size;
    else
      num_outputs_ *= dim.size;
    if (dim.size == 1) continue;
    (reduced ? red : kept).push_back(dim);
  }
  std::reverse(kept.begin(), kept.end());
  std::reverse(red.begin(), red.end());
  auto by_stride = [](const Dim& a, const Dim& b) { return a.in_stride < b.in_stride; };
  std::stable_sort(kept.begin(), kept.end(), by_stride);
  if (!keep_logical_order) std::stable_sort(red.begin(), red.end(), by_stride);
  kept = coalesce(std::move(kept), noutputs_);
  red = coalesce(std::move(red), 0);
  for (const Dim& d : kept) {
    kept_sizes.push_back(d.size);
    kept_in_strides.push_back(d.in_stride);
    for (int k = 0; k < noutputs_; ++k) kept_out_strides[k].push_back(d.out_stride[k]);
  }
  for (const Dim& d : red) {
    red_sizes.push_back(d.size);
    red_in_strides.push_back(d.in_stride);
  }
}

}  // namespace brasa::cpu
