// gather / scatter / scatter_add / index_select / index_add / index_copy / index_fill / take:
// shape and dtype checks here, one strided loop for all (Note [Gather/scatter geometry]).
#include "ops/index/gather_ops.h"

#include <cmath>
#include <limits>
#include <string>

#include "backends/cpu/kernels/gather_kernels.h"
#include "brasa/core/dispatch_type.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/autocast_mode.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(scatter_gather_stub, ScatterGatherKernel);
BRASA_DEFINE_STUB(index_select_rows_stub, IndexSelectRowsKernel);

namespace {

int64_t ndim1(const Tensor& t) { return std::max<int64_t>(t.dim(), 1); }
int64_t size1(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.sizes()[d]; }

void check_long_index(const Tensor& index, const char* op) {
  BRASA_CHECK(index.defined(), op, ": the index is an undefined tensor");
  BRASA_CHECK_TYPE(index.dtype() == kLong, op, ": expected dtype int64 for index, got ",
                   index.dtype());
}

/// gather/scatter's rule: same number of dims; index no larger than self (but along dim) and than
/// src (every dim).
void check_gather_shapes(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src,
                         const char* op) {
  BRASA_CHECK_INDEX(ndim1(index) == ndim1(self), op,
                    ": index tensor must have the same number of dimensions as input tensor (",
                    index.sizes(), " vs ", self.sizes(), ")");
  for (int64_t d = 0; d < index.dim(); ++d) {
    int64_t n = size1(index, d);
    BRASA_CHECK(d == dim || n <= size1(self, d), op, ": size of index ", index.sizes(),
                " does not match self ", self.sizes(), " in dimension ", d);
    BRASA_CHECK(src == nullptr || n <= size1(*src, d), op, ": size of index ", index.sizes(),
                " does not match src ", src->sizes(), " in dimension ", d);
  }
}

/// A view of a 0-d/1-d index expanded to `sizes` (stride 0 everywhere but along dim).
Tensor expand_index(const Tensor& index, int64_t dim, IntArrayRef sizes) {
  Tensor i = index.dtype() == kLong ? index : index.to(kLong);
  if (sizes.empty()) return i.reshape({});
  DimVector strides(sizes.size(), 0);
  strides[dim] = i.dim() == 0 ? 0 : i.strides()[0];
  return detail::make_view(i, sizes, strides, i.storage_offset());
}

Tensor gather_meta(const Tensor& self, int64_t dim, const Tensor& index, bool) {
  check_long_index(index, "gather");
  check_gather_shapes(self, detail::wrap_dim(dim, ndim1(self), "gather"), index, nullptr, "gather");
  return detail::empty_generic(index.sizes(), self.dtype(), self.device());
}

Tensor gather_kernel(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad) {
  Tensor out = gather_meta(self, dim, index, sparse_grad);
  const int64_t d = detail::wrap_dim(dim, ndim1(self), "gather");
  scatter_gather_stub(ScatterMode::Gather, self, d, index, out, 0, false, "gather");
  return out;
}

void check_no_internal_overlap(const Tensor& self, const char* op);

// The rule of the scatters (written in place, so their meta functions return self): the wrapped
// dim.
int64_t check_scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                      const char* op) {
  check_long_index(index, op);
  int64_t d = detail::wrap_dim(dim, ndim1(self), op);
  if (src.defined()) {
    BRASA_CHECK_TYPE(src.dtype() == self.dtype(), op, ": expected self.dtype (", self.dtype(),
                     ") to be equal to src.dtype (", src.dtype(), ")");
  }
  check_gather_shapes(self, d, index, src.defined() ? &src : nullptr, op);
  check_no_internal_overlap(self, op);
  return d;
}

const Tensor& scatter_common(ScatterMode mode, const Tensor& self, int64_t dim, const Tensor& index,
                             const Tensor& src, const Scalar& value, const char* op) {
  const int64_t d = check_scatter(self, dim, index, src, op);
  if (self.is_contiguous()) {
    scatter_gather_stub(mode, self, d, index, src, value, false, op);
  } else {
    Tensor tmp = self.contiguous();
    scatter_gather_stub(mode, tmp, d, index, src, value, false, op);
    self.copy_(tmp);
  }
  return self;
}

Tensor scatter_src_meta(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  check_scatter(self, dim, index, src, "scatter_");
  return self;
}
Tensor scatter_src_kernel(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  scatter_common(ScatterMode::Scatter, self, dim, index, src, 0, "scatter_");
  return self;
}
Tensor scatter_value_meta(const Tensor& self, int64_t dim, const Tensor& index,
                          const Scalar& value) {
  detail::check_scalar_fits(value, self.dtype(), "scatter_");
  check_scatter(self, dim, index, Tensor(), "scatter_");
  return self;
}
Tensor scatter_value_kernel(const Tensor& self, int64_t dim, const Tensor& index,
                            const Scalar& value) {
  detail::check_scalar_fits(value, self.dtype(), "scatter_");
  scatter_common(ScatterMode::ScatterValue, self, dim, index, Tensor(), value, "scatter_");
  return self;
}
Tensor scatter_add_meta(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  check_scatter(self, dim, index, src, "scatter_add_");
  return self;
}
Tensor scatter_add_kernel(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  scatter_common(ScatterMode::ScatterAdd, self, dim, index, src, 0, "scatter_add_");
  return self;
}

/// PyTorch's internal-overlap rule for written-to tensors: a broadcast (stride 0) dim of size > 1.
void check_no_internal_overlap(const Tensor& self, const char* op) {
  for (int64_t d = 0; d < self.dim(); ++d) {
    BRASA_CHECK(self.strides()[d] != 0 || self.sizes()[d] <= 1, op,
                ": unsupported operation: more than one element of the written-to tensor refers ",
                "to a single memory location (sizes ", self.sizes(), ", strides ", self.strides(),
                "); clone() it first");
  }
}

/// The value an include_self=false reduction starts from at the positions it writes.
Scalar reduce_identity(const std::string& reduce, ScalarType dtype) {
  if (reduce == "prod") return dtype == kBool ? Scalar(true) : Scalar(int64_t(1));
  if (reduce == "sum" || reduce == "mean")
    return dtype == kBool ? Scalar(false) : Scalar(int64_t(0));
  const bool is_max = reduce == "amax";
  if (dtype == kBool) return Scalar(!is_max);
  if (is_floating_type(dtype)) return Scalar(is_max ? -INFINITY : INFINITY);
  Tensor extreme = detail::empty_generic({}, dtype, Device(kCPU));
  BRASA_DISPATCH_INTEGRAL_AND_BOOL_TYPES(dtype, "scatter_reduce", [&] {
    *static_cast<scalar_t*>(extreme.data_ptr()) =
        is_max ? std::numeric_limits<scalar_t>::lowest() : std::numeric_limits<scalar_t>::max();
  });
  return Scalar(extreme.item<int64_t>());
}

ScatterMode scatter_reduce_mode(const Tensor& self, const std::string& reduce) {
  static const char* op = "scatter_reduce";
  ScatterMode mode;
  if (reduce == "sum" || reduce == "mean") {
    mode = ScatterMode::ScatterAdd;
  } else if (reduce == "prod") {
    mode = ScatterMode::ScatterMul;
  } else if (reduce == "amax") {
    mode = ScatterMode::ScatterMax;
  } else {
    BRASA_CHECK(reduce == "amin", op, ": reduce argument must be either sum, prod, mean, amax or ",
                "amin, got ", reduce);
    mode = ScatterMode::ScatterMin;
  }
  BRASA_CHECK_TYPE(reduce != "mean" || self.dtype() != kBool, op,
                   ": reduce \"mean\" is not implemented for Bool");
  return mode;
}

Tensor scatter_reduce_meta(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                           std::string reduce, bool) {
  scatter_reduce_mode(self, reduce);
  Tensor out = self.clone();
  check_scatter(out, dim, index, src, "scatter_reduce");
  return out;
}

Tensor scatter_reduce_kernel(const Tensor& self, int64_t dim, const Tensor& index,
                             const Tensor& src, std::string reduce, bool include_self) {
  static const char* op = "scatter_reduce";
  const ScatterMode mode = scatter_reduce_mode(self, reduce);
  Tensor out = self.clone();
  if (!include_self) {
    scatter_common(ScatterMode::ScatterValue, out, dim, index, Tensor(),
                   reduce_identity(reduce, self.dtype()), op);
  }
  scatter_common(mode, out, dim, index, src, 0, op);
  if (reduce != "mean") return out;
  Tensor count = include_self ? ones_like(self, kLong) : zeros_like(self, kLong);
  count.scatter_add_(dim, index, ones_like(src, kLong).expand(src.sizes()));
  count = count.clamp_min(1);
  if (is_floating_type(self.dtype())) return out.div(count).to(self.dtype());
  return out.div(count, "floor").to(self.dtype());
}

void check_vector_index(const Tensor& index, const char* op) {
  BRASA_CHECK(index.defined(), op, ": the index is an undefined tensor");
  BRASA_CHECK_INDEX(index.dim() <= 1, op, ": index is supposed to be a vector, got shape ",
                    index.sizes());
  BRASA_CHECK_TYPE(index.dtype() == kLong || index.dtype() == kInt, op,
                   ": expected dtype int32 or int64 for index, got ", index.dtype());
}

DimVector replace_dim(const Tensor& self, int64_t dim, int64_t n) {
  DimVector sizes(self.sizes());
  if (self.dim() > 0) sizes[dim] = n;
  return sizes;
}

Tensor index_select_meta(const Tensor& self, int64_t dim, const Tensor& index) {
  check_vector_index(index, "index_select");
  int64_t d = detail::wrap_dim(dim, ndim1(self), "index_select");
  return detail::empty_generic(replace_dim(self, d, index.numel()), self.dtype(), self.device());
}

Tensor index_select_kernel(const Tensor& self, int64_t dim, const Tensor& index) {
  Tensor out = index_select_meta(self, dim, index);
  const int64_t d = detail::wrap_dim(dim, ndim1(self), "index_select");
  if (self.is_contiguous() && self.dim() > 0) {
    // Whole rows are copied: the embedding-lookup path.
    Tensor idx = index.to(kLong).contiguous();
    const int64_t size = self.sizes()[d];
    const int64_t* p = idx.data_ptr<int64_t>();
    for (int64_t k = 0; k < idx.numel(); ++k) {
      BRASA_CHECK_INDEX(p[k] >= 0 && p[k] < size, "index_select: index ", p[k],
                        " is out of bounds for dimension ", d, " with size ", size);
    }
    int64_t outer = 1, inner = 1;
    for (int64_t k = 0; k < d; ++k) outer *= self.sizes()[k];
    for (int64_t k = d + 1; k < self.dim(); ++k) inner *= self.sizes()[k];
    const int64_t row_bytes = static_cast<int64_t>(self.itemsize()) * inner;
    if (out.numel() > 0) {
      index_select_rows_stub(static_cast<char*>(out.data_ptr()),
                             static_cast<const char*>(self.data_ptr()), p, idx.numel(), outer, size,
                             row_bytes);
    }
    return out;
  }
  scatter_gather_stub(ScatterMode::Gather, self, d, expand_index(index, d, out.sizes()), out, 0,
                      false, "index_select");
  return out;
}

/// The rule of index_add_/index_copy_/index_fill_ (in place: their meta functions return self):
/// the wrapped dim.
int64_t check_index_scatter(const Tensor& self, int64_t dim, const Tensor& index,
                            const Tensor& source, const char* op) {
  check_vector_index(index, op);
  int64_t d = detail::wrap_dim(dim, ndim1(self), op);
  DimVector sizes = replace_dim(self, d, index.numel());
  if (source.defined()) {
    BRASA_CHECK_TYPE(source.dtype() == self.dtype(), op, ": expected self.dtype (", self.dtype(),
                     ") to be equal to source.dtype (", source.dtype(), ")");
    BRASA_CHECK(source.sizes() == IntArrayRef(sizes) ||
                    (source.dim() <= 1 && self.dim() <= 1 && source.numel() == index.numel()),
                op, ": source of shape ", source.sizes(), " does not match the expected shape ",
                IntArrayRef(sizes), " (self ", self.sizes(), ", index of ", index.numel(),
                " elements)");
  }
  check_no_internal_overlap(self, op);
  return d;
}

/// index_add_/index_copy_/index_fill_: scatter along dim through an expanded vector index.
const Tensor& index_scatter(ScatterMode mode, const Tensor& self, int64_t dim, const Tensor& index,
                            const Tensor& source, const Scalar& value, bool wrap_negative,
                            const char* op) {
  const int64_t d = check_index_scatter(self, dim, index, source, op);
  DimVector sizes = replace_dim(self, d, index.numel());
  Tensor src = source.defined() ? source.reshape(sizes) : source;
  Tensor target = self.is_contiguous() ? self : self.contiguous();
  scatter_gather_stub(mode, target, d, expand_index(index, d, sizes), src, value, wrap_negative,
                      op);
  if (!target.is_same(self)) self.copy_(target);
  return self;
}

Tensor index_add_meta(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                      const Scalar&) {
  check_index_scatter(self, dim, index, source, "index_add_");
  return self;
}
Tensor index_add_kernel(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                        const Scalar& alpha) {
  Tensor scaled = source;
  if (source.defined() && !(alpha.type() != kBool && alpha.toDouble() == 1.0)) {
    scaled = source.mul(alpha).to(self.dtype());
  }
  return index_scatter(ScatterMode::ScatterAdd, self, dim, index, scaled, 0, false, "index_add_");
}
Tensor index_copy_meta(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  check_index_scatter(self, dim, index, source, "index_copy_");
  return self;
}
Tensor index_copy_kernel(const Tensor& self, int64_t dim, const Tensor& index,
                         const Tensor& source) {
  return index_scatter(ScatterMode::Scatter, self, dim, index, source, 0, false, "index_copy_");
}
Tensor index_fill_meta(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  detail::check_scalar_fits(value, self.dtype(), "index_fill_");
  check_index_scatter(self, dim, index, Tensor(), "index_fill_");
  return self;
}
Tensor index_fill_kernel(const Tensor& self, int64_t dim, const Tensor& index,
                         const Scalar& value) {
  detail::check_scalar_fits(value, self.dtype(), "index_fill_");
  return index_scatter(ScatterMode::ScatterValue, self, dim, index, Tensor(), value, true,
                       "index_fill_");
}

Tensor take_meta(const Tensor& self, const Tensor& index) {
  check_long_index(index, "take");
  return detail::empty_generic(index.sizes(), self.dtype(), self.device());
}

Tensor take_kernel(const Tensor& self, const Tensor& index) {
  Tensor out = take_meta(self, index);
  Tensor flat = self.reshape({-1});
  Tensor flat_index = index.reshape({-1});
  scatter_gather_stub(ScatterMode::Gather, flat, 0, flat_index, out.view({-1}), 0, true, "take");
  return out;
}

}  // namespace

BRASA_DEFINE_OP(gather_op)
BRASA_DEFINE_OP(scatter_src_op)
BRASA_DEFINE_OP(scatter_value_op)
BRASA_DEFINE_OP(scatter_add_op)
BRASA_DEFINE_OP(scatter_reduce_op)
BRASA_DEFINE_OP(index_select_op)
BRASA_DEFINE_OP(index_add_op)
BRASA_DEFINE_OP(index_copy_op)
BRASA_DEFINE_OP(index_fill_op)
BRASA_DEFINE_OP(take_op)

BRASA_REGISTER_KERNEL(gather_op, gather_kernel, CPU)
BRASA_REGISTER_KERNEL(gather_op, gather_meta, Meta)
BRASA_REGISTER_KERNEL(scatter_src_op, scatter_src_kernel, CPU)
BRASA_REGISTER_KERNEL(scatter_src_op, scatter_src_meta, Meta)
BRASA_REGISTER_KERNEL(scatter_value_op, scatter_value_kernel, CPU)
BRASA_REGISTER_KERNEL(scatter_value_op, scatter_value_meta, Meta)
BRASA_REGISTER_KERNEL(scatter_add_op, scatter_add_kernel, CPU)
BRASA_REGISTER_KERNEL(scatter_add_op, scatter_add_meta, Meta)
BRASA_REGISTER_KERNEL(scatter_reduce_op, scatter_reduce_kernel, CPU)
BRASA_REGISTER_KERNEL(scatter_reduce_op, scatter_reduce_meta, Meta)
BRASA_REGISTER_KERNEL(index_select_op, index_select_kernel, CPU)
BRASA_REGISTER_KERNEL(index_select_op, index_select_meta, Meta)
BRASA_REGISTER_KERNEL(index_add_op, index_add_kernel, CPU)
BRASA_REGISTER_KERNEL(index_add_op, index_add_meta, Meta)
BRASA_REGISTER_KERNEL(index_copy_op, index_copy_kernel, CPU)
BRASA_REGISTER_KERNEL(index_copy_op, index_copy_meta, Meta)
BRASA_REGISTER_KERNEL(index_fill_op, index_fill_kernel, CPU)
BRASA_REGISTER_KERNEL(index_fill_op, index_fill_meta, Meta)
BRASA_REGISTER_KERNEL(take_op, take_kernel, CPU)
BRASA_REGISTER_KERNEL(take_op, take_meta, Meta)

}  // namespace brasa::ops

namespace brasa {

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad) {
  return ops::gather_op().call(self, dim, index, sparse_grad);
}
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return ops::scatter_src_op().call(self.clone(), dim, index, src);
}
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return ops::scatter_value_op().call(self.clone(), dim, index, value);
}
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return ops::scatter_add_op().call(self.clone(), dim, index, src);
}
Tensor scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                      std::string_view reduce, bool include_self) {
  return ops::scatter_reduce_op().call(self, dim, index, src, std::string(reduce), include_self);
}
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  return ops::index_select_op().call(self, dim, index);
}
Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                 const Scalar& alpha) {
  return ops::index_add_op().call(self.clone(), dim, index, source, alpha);
}
Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  if (BRASA_UNLIKELY(autocast::is_active())) {  // Note [Autocast]: a promoting op
    const ScalarType dt = autocast::promote_dtype({&self, &source});
    autocast::AutocastExclude exclude;
    return index_copy(autocast::cached_cast(dt, self), dim, index,
                      autocast::cached_cast(dt, source));
  }
  return ops::index_copy_op().call(self.clone(), dim, index, source);
}
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return ops::index_fill_op().call(self.clone(), dim, index, value);
}
Tensor take(const Tensor& self, const Tensor& index) { return ops::take_op().call(self, index); }

Tensor Tensor::gather(int64_t dim, const Tensor& index, bool sparse_grad) const {
  return brasa::gather(*this, dim, index, sparse_grad);
}
Tensor Tensor::scatter(int64_t dim, const Tensor& index, const Tensor& src) const {
  return brasa::scatter(*this, dim, index, src);
}
Tensor Tensor::scatter(int64_t dim, const Tensor& index, const Scalar& value) const {
  return brasa::scatter(*this, dim, index, value);
}
const Tensor& Tensor::scatter_(int64_t dim, const Tensor& index, const Tensor& src) const {
  ops::scatter_src_op().call(*this, dim, index, src);
  return *this;
}
const Tensor& Tensor::scatter_(int64_t dim, const Tensor& index, const Scalar& value) const {
  ops::scatter_value_op().call(*this, dim, index, value);
  return *this;
}
Tensor Tensor::scatter_add(int64_t dim, const Tensor& index, const Tensor& src) const {
  return brasa::scatter_add(*this, dim, index, src);
}
const Tensor& Tensor::scatter_add_(int64_t dim, const Tensor& index, const Tensor& src) const {
  ops::scatter_add_op().call(*this, dim, index, src);
  return *this;
}
Tensor Tensor::index_select(int64_t dim, const Tensor& index) const {
  return brasa::index_select(*this, dim, index);
}
Tensor Tensor::index_add(int64_t dim, const Tensor& index, const Tensor& source,
                         const Scalar& alpha) const {
  return brasa::index_add(*this, dim, index, source, alpha);
}
const Tensor& Tensor::index_add_(int64_t dim, const Tensor& index, const Tensor& source,
                                 const Scalar& alpha) const {
  ops::index_add_op().call(*this, dim, index, source, alpha);
  return *this;
}
Tensor Tensor::index_copy(int64_t dim, const Tensor& index, const Tensor& source) const {
  return brasa::index_copy(*this, dim, index, source);
}
const Tensor& Tensor::index_copy_(int64_t dim, const Tensor& index, const Tensor& source) const {
  ops::index_copy_op().call(*this, dim, index, source);
  return *this;
}
Tensor Tensor::index_fill(int64_t dim, const Tensor& index, const Scalar& value) const {
  return brasa::index_fill(*this, dim, index, value);
}
const Tensor& Tensor::index_fill_(int64_t dim, const Tensor& index, const Scalar& value) const {
  ops::index_fill_op().call(*this, dim, index, value);
  return *this;
}
Tensor Tensor::take(const Tensor& index) const { return brasa::take(*this, index); }

}  // namespace brasa
