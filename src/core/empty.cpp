#include "brasa/core/empty.h"

#include <algorithm>
#include <limits>

#include "brasa/core/dispatch_type.h"
#include "brasa/core/error.h"
#include "core/device_hooks.h"

namespace brasa::detail {
namespace {
// A tensor of `nbytes` of fresh storage on `device` (none on meta), before sizes are set.
inline IntrusivePtr<TensorImpl> new_tensor(size_t nbytes, ScalarType dtype, Device device) {
  DataPtr data;
  Allocator* alloc = nullptr;
  if (BRASA_UNLIKELY(device.type() == kPrivateUse1)) {
    auto* allocate = core_hooks().allocate_privateuse1;
    BRASA_CHECK_NOT_IMPLEMENTED(allocate != nullptr, "empty: no backend provides ", device);
    data = allocate(device, nbytes, alloc);  // Note [Core hooks]
  } else if (!device.is_meta()) {
    alloc = get_allocator(device.type());
    data = alloc->allocate(nbytes);
  }
  auto storage = make_intrusive<StorageImpl>(std::move(data), nbytes, device, alloc);
  return make_intrusive<TensorImpl>(std::move(storage), dtype, device);
}
}  // namespace

DimVector contiguous_strides(IntArrayRef sizes) {
  DimVector strides(sizes.size());
  int64_t s = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    strides[d] = s;
    s *= std::max<int64_t>(sizes[d], 1);
  }
  return strides;
}

DimVector dense_strides_like(const Tensor& t) {
  const int64_t nd = t.dim();
  if (t.is_contiguous()) return contiguous_strides(t.sizes());
  IntArrayRef sizes = t.sizes(), strides = t.strides();
  // Order dims from outermost to innermost: larger stride first; ties keep the original order.
  DimVector order(nd);
  for (int64_t d = 0; d < nd; ++d) order[d] = d;
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    int64_t sa = sizes[a] == 1 ? 0 : strides[a], sb = sizes[b] == 1 ? 0 : strides[b];
    if (sa == 0 || sb == 0) return false;
    return sa > sb;
  });
  DimVector out(nd);
  int64_t s = 1;
  for (int64_t k = nd - 1; k >= 0; --k) {
    out[order[k]] = s;
    s *= std::max<int64_t>(sizes[order[k]], 1);
  }
  return out;
}

size_t storage_nbytes(IntArrayRef sizes, IntArrayRef strides, size_t itemsize, const char* op) {
  uint64_t max_offset = 0;
  for (size_t d = 0; d < sizes.size(); ++d) {
    BRASA_CHECK(sizes[d] >= 0, op, ": sizes must be non-negative, got ", sizes);
    if (sizes[d] == 0) return 0;
  }
  for (size_t d = 0; d < sizes.size(); ++d) {
    BRASA_CHECK(strides[d] >= 0, op, ": strides must be non-negative, got ", strides);
    uint64_t term;
    BRASA_CHECK(!__builtin_mul_overflow(uint64_t(sizes[d] - 1), uint64_t(strides[d]), &term) &&
                    !__builtin_add_overflow(max_offset, term, &max_offset),
                op, ": size ", sizes, " with strides ", strides, " overflows");
  }
  uint64_t bytes;
  BRASA_CHECK(!__builtin_mul_overflow(max_offset + 1, uint64_t(itemsize), &bytes) &&
                  bytes < (uint64_t(1) << 48),
              op, ": a tensor of size ", sizes, " is too large");
  return bytes;
}

Tensor empty_strided_generic(IntArrayRef sizes, IntArrayRef strides, ScalarType dtype,
                             Device device) {
  size_t nbytes = storage_nbytes(sizes, strides, element_size(dtype), "empty");
  auto impl = new_tensor(nbytes, dtype, device);
  impl->set_sizes_and_strides(sizes, strides, 0);
  return Tensor(std::move(impl));
}

Tensor empty_generic(IntArrayRef sizes, ScalarType dtype, Device device) {
  size_t nbytes = 0;
  if (BRASA_LIKELY(sizes.size() <= 1 && (sizes.empty() || sizes[0] >= 0))) {
    nbytes = (sizes.empty() ? 1 : sizes[0]) * element_size(dtype);
  } else {
    DimVector strides = contiguous_strides(sizes);
    nbytes = storage_nbytes(sizes, strides, element_size(dtype), "empty");
  }
  auto impl = new_tensor(nbytes, dtype, device);
  impl->set_sizes_contiguous(sizes);
  return Tensor(std::move(impl));
}

// Note [View creation meta]
// libtorch remembers in which mode a differentiable view was made (CreationMeta). A view made in
// no-grad mode or in InferenceMode got no history, so once grad mode is back, writing into it in
// place cannot be recorded correctly (its base's history would not see the write): autograd
// refuses it when the base requires grad (check_inplace), and refuses to rebuild the view's
// grad_fn after its base or another view of it was written (gradient_edge). A view of such a view
// keeps the stricter kind (InferenceMode's is the strictest). make_view records the kind and the
// storage version at creation on the TensorImpl (autograd metadata does not exist yet then, and
// may never), and gives the view the Autograd key of a root that has it, so that ops on the view
// in grad mode reach autograd: the view requires grad, as its base does. libtorch's two other
// kinds are set after make_view by what made the view, and refused the same way: the outputs of
// view ops that return several views (Note [Multi-output views] in ops/view/slice_ops.cpp) and
// the views a custom Function returns (Note [Custom Function outputs]). autograd's
// view_write_checks.cpp raises libtorch's errors for every kind.
static void record_creation_meta(TensorImpl& view, const TensorImpl& base, const TensorImpl& root) {
  CreationMeta now = inference_mode_enabled() ? CreationMeta::INFERENCE_MODE
                     : grad_mode_enabled()    ? CreationMeta::DEFAULT
                                              : CreationMeta::NO_GRAD_MODE;
  CreationMeta before = base.view_base() ? base.creation_meta() : CreationMeta::DEFAULT;
  CreationMeta kind =
      now == CreationMeta::DEFAULT || before == CreationMeta::INFERENCE_MODE ? before : now;
  if (kind == CreationMeta::DEFAULT) return;
  view.set_creation_meta(kind, view.version());
  if (root.key_set().has(DispatchKey::Autograd)) view.add_key(DispatchKey::Autograd);
}

Tensor make_view(const Tensor& base, IntArrayRef sizes, IntArrayRef strides,
                 int64_t storage_offset) {
  TensorImpl* b = base.unsafeGetTensorImpl();
  auto impl = make_intrusive<TensorImpl>(b->storage(), b->dtype(), b->device());
  impl->set_sizes_and_strides(sizes, strides, storage_offset);
  impl->set_inference(b->is_inference());
  // A view of an inference tensor is no view to autograd, as in libtorch (is_view() is false,
  // _base() undefined): autograd never records through inference tensors, so it needs no base.
  if (b->is_inference()) return Tensor(std::move(impl));
  const IntrusivePtr<TensorImpl>& root = b->view_base() ? b->view_base() : base.impl();
  impl->set_view_base(root);
  record_creation_meta(*impl, *b, *root);
  return Tensor(std::move(impl));
}

Tensor wrap_scalar(const Scalar& s, Device device) {
  ScalarType dt = s.type();
  Tensor t = empty_generic({}, dt, device);
  if (!device.is_meta()) {
    void* p = t.data_ptr();
    switch (dt) {
      case kBool: *static_cast<bool*>(p) = s.toBool(); break;
      case kLong: *static_cast<int64_t*>(p) = s.toLong(); break;
      case kComplexDouble: *static_cast<complex<double>*>(p) = s.toComplexDouble(); break;
      default: *static_cast<double*>(p) = s.toDouble(); break;
    }
  }
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

void store_scalar(const Scalar& s, ScalarType dtype, void* dst) {
  BRASA_DISPATCH_ALL_TYPES_AND_COMPLEX(dtype, "store_scalar",
                                       [&] { *static_cast<scalar_t*>(dst) = s.to<scalar_t>(); });
}

int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op) {
  int64_t n = std::max<int64_t>(ndim, 1);  // 0-d tensors accept dim 0 and -1
  BRASA_CHECK_INDEX(dim >= -n && dim < n, op, ": dim ", dim, " is out of range for a tensor of ",
                    ndim, " dims (expected a dim in [", -n, ", ", n - 1, "])");
  return dim < 0 ? dim + n : dim;
}

}  // namespace brasa::detail
