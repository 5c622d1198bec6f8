#include "backends/cpu/tensor_iterator.h"

#include <algorithm>

#include "backends/cpu/new_tensor_writes.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/core/parallel.h"
#include "brasa/core/type_promotion.h"

namespace brasa::cpu {

DimVector broadcast_shapes(IntArrayRef a, IntArrayRef b, const char* op) {
  if (a.equals(b)) return DimVector(a);
  size_t n = std::max(a.size(), b.size());
  DimVector out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    BRASA_CHECK(da == db || da == 1 || db == 1, op, ": shapes ", a, " and ", b,
                " are not broadcastable (dim ", i, ": ", da, " vs ", db, ")");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

namespace {

Tensor convert_0d(const Tensor& t, ScalarType dtype) {
  Tensor r = detail::empty_generic({}, dtype, t.device());
  detail::store_scalar(t.item(), dtype, r.data_ptr());
  return r;
}

void resize_out(const Tensor& out, IntArrayRef shape) {
  TensorImpl* impl = out.unsafeGetTensorImpl();
  impl->set_sizes_contiguous(shape);
  size_t need = impl->numel() * impl->itemsize();
  if (need > impl->storage()->nbytes() && out.is_meta()) {
    impl->storage()->set_data(DataPtr(), need);  // no bytes: only the size grows, as resize_'s
  } else if (need > impl->storage()->nbytes()) {
    BRASA_CHECK(impl->storage()->resizable(), "resize: cannot grow a tensor over external memory");
    DataPtr fresh = impl->storage()->allocator()->allocate(need);
    impl->storage()->set_data(std::move(fresh), need);
  }
}
}  // namespace

TensorIteratorConfig& TensorIteratorConfig::add_output(const Tensor& t) {
  BRASA_INTERNAL_ASSERT(ninputs_ == 0 && noutputs_ < 2, name_, ": outputs go first, at most 2");
  operands_[noutputs_++].borrow(t);
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::add_output(Tensor&& t) {
  BRASA_INTERNAL_ASSERT(ninputs_ == 0 && noutputs_ < 2, name_, ": outputs go first, at most 2");
  operands_[noutputs_++].own(std::move(t));
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::add_input(const Tensor& t) {
  BRASA_INTERNAL_ASSERT(noutputs_ + ninputs_ < kMaxOperands, name_, ": too many operands");
  BRASA_CHECK(t.defined(), name_, ": got an undefined tensor as input");
  operands_[noutputs_ + ninputs_++].borrow(t);
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::add_input(Tensor&& t) {
  BRASA_INTERNAL_ASSERT(noutputs_ + ninputs_ < kMaxOperands, name_, ": too many operands");
  BRASA_CHECK(t.defined(), name_, ": got an undefined tensor as input");
  operands_[noutputs_ + ninputs_++].own(std::move(t));
  return *this;
}

void TensorIterator::build(TensorIteratorConfig& config) {
  name_ = config.name_;
  noutputs_ = config.noutputs_;
  ntensors_ = config.noutputs_ + config.ninputs_;
  for (int i = 0; i < ntensors_; ++i) operands_[i].take_from(config.operands_[i]);
  for (int i = 0; i < noutputs_; ++i) {
    user_given_[i] = operand(i).defined();
    if (!user_given_[i]) continue;
    TensorImpl* out = operand(i).unsafeGetTensorImpl();
    if (out->is_inference()) out->check_inference_write();  // before anything is written
    if (operands_[i].is_borrowed())
      user_outputs_[i].borrow(operand(i));
    else
      user_outputs_[i].own(operand(i));
  }
  if (try_fast_setup(config)) return;
  compute_shape(config);
  compute_types(config);
  allocate_outputs(config);
  reorder_and_coalesce();
}

void TensorIterator::compute_shape(TensorIteratorConfig& config) {
  // Device: every operand on one device, except 0-d CPU tensors (scalars) which mix with any.
  std::optional<Device> dev;
  for (int i = 0; i < ntensors_; ++i) {
    const Tensor& t = operand(i);
    if (!t.defined() || (t.dim() == 0 && t.is_cpu())) continue;
    if (!dev) dev = t.device();
    BRASA_CHECK_TYPE(t.device() == *dev, name_,
                     ": expected all tensors to be on the same device, but found ", *dev, " and ",
                     t.device());
  }
  if (!dev) dev = Device(kCPU);
  device_ = *dev;
  is_meta_ = dev->is_meta();

  if (config.has_static_shape_) {
    shape_ = config.static_shape_;
  } else {
    bool first = true;
    for (int i = noutputs_; i < ntensors(); ++i) {
      if (first) {
        shape_ = operand(i).sizes();
        first = false;
      } else if (!operand(i).sizes().equals(shape_)) {
        shape_ = broadcast_shapes(shape_, operand(i).sizes(), name_);
      }
    }
  }
  numel_ = 1;
  for (int64_t s : shape_) numel_ *= s;
  for (int i = 0; i < noutputs_; ++i) {
    const Tensor& out = operand(i);
    if (!out.defined() || out.sizes().equals(shape_)) continue;
    if (config.resize_outputs_ && out.numel() == 0) {
      resize_out(out, shape_);
      continue;
    }
    BRASA_THROW(ValueError, name_, ": output with shape ", out.sizes(),
                " doesn't match the broadcast shape ", shape_);
  }
  if (config.has_static_shape_) {
    for (int i = noutputs_; i < ntensors(); ++i) {
      DimVector b = broadcast_shapes(shape_, operand(i).sizes(), name_);
      BRASA_CHECK(b == DimVector(shape_), name_, ": input of shape ", operand(i).sizes(),
                  " does not broadcast to ", shape_);
    }
  }
}

void TensorIterator::compute_types(TensorIteratorConfig& config) {
  if (config.common_dtype_) {
    common_dtype_ = *config.common_dtype_;
  } else {
    ResultTypeState st;
    for (int i = noutputs_; i < ntensors(); ++i) st.add(operand(i));
    common_dtype_ = st.result();
    if (common_dtype_ == ScalarType::Undefined) common_dtype_ = get_default_dtype();
  }
  if (config.int_to_float_ && is_integral_type(common_dtype_, true))
    common_dtype_ = get_default_dtype();
  if (config.same_dtype_) {
    for (int i = noutputs_; i < ntensors(); ++i)
      BRASA_CHECK_TYPE(operand(i).dtype() == common_dtype_, name_,
                       ": expected all inputs to have dtype ", common_dtype_, ", got ",
                       operand(i).dtype());
  }
  ScalarType out_dtype = config.output_dtype_.value_or(common_dtype_);
  for (int i = 0; i < noutputs_; ++i) {
    const Tensor& out = operand(i);
    if (!out.defined() || out.dtype() == out_dtype) continue;
    BRASA_CHECK_TYPE(!config.safe_cast_ || can_cast(out_dtype, out.dtype()), name_,
                     ": result type ", out_dtype, " can't be cast to the desired output type ",
                     out.dtype());
    needs_copy_back_[i] = true;
    operands_[i].own(Tensor());  // computed into a temporary, copied back in finish()
  }
  if (config.promote_inputs_) {
    for (int i = noutputs_; i < ntensors(); ++i) {
      const Tensor& in = operand(i);
      if (in.dtype() == common_dtype_) continue;
      // A 0-d CPU operand (usually a wrapped Python-style scalar) converts by value, without a
      // dispatched copy.
      operands_[i].own(in.dim() == 0 && in.is_cpu() ? convert_0d(in, common_dtype_)
                                                    : in.to(common_dtype_));
    }
  }
  out_dtype_ = out_dtype;
}

}  // namespace brasa::cpu

namespace brasa::cpu {

void TensorIterator::allocate_outputs(TensorIteratorConfig&) {
  int64_t nd = static_cast<int64_t>(shape_.size());
  // perm_[k] = tensor dim iterated at position k (k = 0 fastest). Start row-major, then let the
  // inputs' strides decide (so transposed inputs give a transposed-layout result, read in order).
  perm_.resize(nd);
  for (int64_t k = 0; k < nd; ++k) perm_[k] = nd - 1 - k;
  auto stride_of = [&](const Tensor& t, int64_t d) -> int64_t {
    int64_t td = d - (nd - t.dim());
    if (td < 0 || t.size(td) == 1) return 0;
    return t.stride(td);
  };
  auto should_swap = [&](int64_t d0, int64_t d1) {  // d0 currently faster than d1
    for (int i = 0; i < ntensors(); ++i) {
      const Tensor& t = operand(i);
      if (!t.defined()) continue;
      int64_t s0 = stride_of(t, d0), s1 = stride_of(t, d1);
      if (s0 == 0 || s1 == 0) continue;
      if (s0 != s1) return s0 > s1;
    }
    return false;
  };
  for (int64_t i = 1; i < nd; ++i)
    for (int64_t j = i; j > 0 && should_swap(perm_[j - 1], perm_[j]); --j)
      std::swap(perm_[j - 1], perm_[j]);

  for (int i = 0; i < noutputs_; ++i) {
    if (operand(i).defined()) continue;
    bool identity = true;
    for (int64_t k = 0; k < nd; ++k) identity &= perm_[k] == nd - 1 - k;
    if (identity) {
      operands_[i].own(detail::empty_generic(shape_, out_dtype_, device_));
    } else {
      DimVector strides(nd);
      int64_t s = 1;
      for (int64_t k = 0; k < nd; ++k) {
        strides[perm_[k]] = s;
        s *= std::max<int64_t>(shape_[perm_[k]], 1);
      }
      operands_[i].own(detail::empty_strided_generic(shape_, strides, out_dtype_, device_));
    }
    if (!needs_copy_back_[i]) user_outputs_[i].own(operand(i));
  }
}

void TensorIterator::reorder_and_coalesce() {
  int64_t nd = static_cast<int64_t>(shape_.size());
  DimVector shape(nd);
  for (int64_t k = 0; k < nd; ++k) shape[k] = shape_[perm_[k]];
  for (int i = 0; i < ntensors(); ++i) {
    const Tensor& t = operand(i);
    DimVector& st = strides_[i];
    st.resize(nd);
    int64_t item = static_cast<int64_t>(t.itemsize());
    for (int64_t k = 0; k < nd; ++k) {
      int64_t td = perm_[k] - (nd - t.dim());
      st[k] = (td < 0 || t.size(td) == 1) ? 0 : t.stride(td) * item;
    }
    data_[i] = static_cast<char*>(t.data_ptr());
  }
  // Coalesce: merge dim k+1 into k when every operand steps through them as one dim.
  int64_t out = 0;
  for (int64_t k = 1; k < nd; ++k) {
    bool can = shape[out] == 1 || shape[k] == 1;
    if (!can) {
      can = true;
      for (int i = 0; i < ntensors() && can; ++i)
        can = strides_[i][out] * shape[out] == strides_[i][k];
    }
    if (can) {
      if (shape[out] == 1) {
        for (int i = 0; i < ntensors(); ++i) strides_[i][out] = strides_[i][k];
      }
      shape[out] *= shape[k];
    } else {
      ++out;
      shape[out] = shape[k];
      for (int i = 0; i < ntensors(); ++i) strides_[i][out] = strides_[i][k];
    }
  }
  int64_t new_nd = nd == 0 ? 0 : out + 1;
  shape.resize(new_nd);
  for (int i = 0; i < ntensors(); ++i) strides_[i].resize(new_nd);
  shape_ = shape;
}

bool TensorIterator::is_contiguous() const {
  if (ndim() > 1) return false;
  for (int i = 0; i < ntensors(); ++i) {
    int64_t s = ndim() == 0 ? 0 : strides_[i][0];
    if (s != static_cast<int64_t>(operand(i).itemsize()) && numel_ > 1) return false;
  }
  return true;
}

bool TensorIterator::is_scalar_input(int i) const {
  for (int64_t s : strides_[noutputs_ + i])
    if (s != 0) return false;
  return true;
}

void TensorIterator::serial_for_each(Loop1d loop, void* ctx, int64_t begin, int64_t end) const {
  int n = ntensors();
  char* ptrs[kMaxOperands];
  int64_t inner[kMaxOperands];
  int nd = ndim();
  if (nd <= 1) {
    for (int i = 0; i < n; ++i) {
      inner[i] = nd == 0 ? 0 : strides_[i][0];
      ptrs[i] = data_[i] + begin * inner[i];
    }
    loop(ptrs, inner, end - begin, ctx);
    return;
  }
  int64_t idx[16];
  BRASA_INTERNAL_ASSERT(nd <= 16, "iterator with more than 16 dims after coalescing");
  int64_t rem = begin;
  for (int d = 0; d < nd; ++d) {
    idx[d] = rem % shape_[d];
    rem /= shape_[d];
  }
  for (int i = 0; i < n; ++i) {
    inner[i] = strides_[i][0];
    ptrs[i] = data_[i];
    for (int d = 0; d < nd; ++d) ptrs[i] += idx[d] * strides_[i][d];
  }
  int64_t pos = begin;
  while (pos < end) {
    int64_t count = std::min(shape_[0] - idx[0], end - pos);
    char* call_ptrs[kMaxOperands];
    std::copy(ptrs, ptrs + n, call_ptrs);
    loop(call_ptrs, inner, count, ctx);
    pos += count;
    if (pos >= end) break;
    // Dim 0 is finished: rewind it and carry into the higher dims.
    for (int i = 0; i < n; ++i) ptrs[i] -= idx[0] * strides_[i][0];
    idx[0] = 0;
    int d = 1;
    for (; d < nd; ++d) {
      ++idx[d];
      for (int i = 0; i < n; ++i) ptrs[i] += strides_[i][d];
      if (idx[d] < shape_[d]) break;
      for (int i = 0; i < n; ++i) ptrs[i] -= shape_[d] * strides_[i][d];
      idx[d] = 0;
    }
  }
}

void TensorIterator::for_each(Loop1d loop, void* ctx, int64_t grain_size) const {
  if (numel_ == 0 || is_meta_) return;
  if (numel_ < grain_size || get_num_threads() == 1) {
    serial_for_each(loop, ctx, 0, numel_);
    return;
  }
  parallel_for(0, numel_, grain_size,
               [&](int64_t b, int64_t e) { serial_for_each(loop, ctx, b, e); });
}

void TensorIterator::finish() {
  for (int i = 0; i < noutputs_; ++i) {
    if (needs_copy_back_[i])
      output(i).copy_(operand(i));
    else if (user_given_[i])
      count_write(output(i));
  }
}

}  // namespace brasa::cpu

namespace brasa::cpu {

// Note [Small op cost]
// Most calls see inputs of one dtype, one shape, contiguous, on one device. For them the general
// build (broadcast, promotion, permutation, coalescing) reduces to "one flat dim of numel
// elements", so it is skipped: a 1-element add must cost far less than a microsecond.
bool TensorIterator::try_fast_setup(TensorIteratorConfig& config) {
  if (config.has_static_shape_ || ntensors_ == noutputs_) return false;
  const Tensor& first = operand(noutputs_);
  const ScalarType dt = first.dtype();
  const Device dev = first.device();
  IntArrayRef sizes = first.sizes();
  for (int i = noutputs_; i < ntensors_; ++i) {
    const Tensor& t = operand(i);
    if (t.dtype() != dt || !t.is_contiguous() || t.device() != dev || !t.sizes().equals(sizes))
      return false;
  }
  ScalarType common = config.common_dtype_.value_or(dt);
  if (config.int_to_float_ && is_integral_type(common, true)) return false;
  if (common != dt && config.promote_inputs_) return false;
  ScalarType out_dtype = config.output_dtype_.value_or(common);
  for (int i = 0; i < noutputs_; ++i) {
    const Tensor& o = operand(i);
    if (o.defined() && (o.dtype() != out_dtype || !o.is_contiguous() || o.device() != dev ||
                        !o.sizes().equals(sizes)))
      return false;
  }
  common_dtype_ = common;
  out_dtype_ = out_dtype;
  device_ = dev;
  is_meta_ = dev.is_meta();
  for (int i = 0; i < noutputs_; ++i) {
    if (!operand(i).defined()) {
      operands_[i].own(detail::empty_generic(sizes, out_dtype, dev));
      user_outputs_[i].own(operand(i));
    }
  }
  numel_ = first.numel();
  shape_.assign(1, numel_);
  for (int i = 0; i < ntensors_; ++i) {
    strides_[i].assign(1, static_cast<int64_t>(operand(i).itemsize()));
    data_[i] = static_cast<char*>(operand(i).data_ptr());
  }
  return true;
}

}  // namespace brasa::cpu
