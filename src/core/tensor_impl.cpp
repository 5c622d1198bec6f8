#include "brasa/core/tensor_impl.h"

#include "brasa/core/error.h"

namespace brasa {

AutogradMetaInterface::~AutogradMetaInterface() = default;

namespace {
// Note [Initial-exec TLS] (src/dispatch/grad_mode.cpp).
thread_local bool t_inference_mode __attribute__((tls_model("initial-exec"))) = false;
thread_local bool t_grad_mode __attribute__((tls_model("initial-exec"))) = true;
}  // namespace

namespace detail {
bool inference_mode_enabled() { return t_inference_mode; }
void set_inference_mode_enabled(bool enabled) { t_inference_mode = enabled; }
bool grad_mode_enabled() { return t_grad_mode; }
void set_grad_mode_enabled(bool enabled) { t_grad_mode = enabled; }
}  // namespace detail

// Note [Inference tensors]
// libtorch marks every tensor created under InferenceMode as an inference tensor: it has no
// autograd history, and an in-place write to it outside InferenceMode is an error (it could have
// been saved for backward unseen). brasa keeps the flag on the TensorImpl, set from the thread's
// mode at construction; views and aliases copy their base's flag (a view of a normal tensor taken
// in InferenceMode stays normal, a view of an inference tensor taken outside is one), and the
// kernels' version bump is where writes are checked (TensorIterator checks its given outputs
// before it writes).
TensorImpl::TensorImpl(Storage storage, ScalarType dtype, Device device)
    : storage_(std::move(storage)),
      dtype_(dtype),
      device_(device),
      keys_(DispatchKeySet(backend_key(device.type()))),
      is_inference_(t_inference_mode) {}

void TensorImpl::check_inference_write() const {
  BRASA_CHECK_TYPED(RuntimeError, !is_inference_ || t_inference_mode,
                    "Inplace update to inference tensor outside InferenceMode is not allowed (an "
                    "inference tensor is one created in InferenceMode; sizes ",
                    sizes(), ", dtype ", dtype_, "): clone() it into a normal tensor first");
}

TensorImpl::~TensorImpl() = default;

void TensorImpl::set_sizes_contiguous(IntArrayRef sizes) {
  if (sizes.size() <= 1) {  // the common small case, without the general loops
    sizes_.resize(sizes.size());
    strides_.resize(sizes.size());
    numel_ = 1;
    if (!sizes.empty()) {
      sizes_[0] = numel_ = sizes[0];
      strides_[0] = 1;
    }
    is_contiguous_ = true;
    return;
  }
  sizes_ = sizes;
  strides_.resize(sizes.size());
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    strides_[d] = stride;
    stride *= std::max<int64_t>(sizes[d], 1);
  }
  refresh();
}

void TensorImpl::set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides,
                                       int64_t storage_offset) {
  BRASA_INTERNAL_ASSERT(sizes.size() == strides.size(), "sizes and strides differ in length");
  sizes_ = sizes;
  strides_ = strides;
  storage_offset_ = storage_offset;
  refresh();
}

void TensorImpl::refresh() {
  int64_t n = 1;
  for (int64_t s : sizes_) n *= s;
  numel_ = n;
  // Contiguous iff strides equal the row-major strides, ignoring dims of size 1.
  bool contiguous = true;
  if (n != 0) {
    int64_t expected = 1;
    for (int64_t d = static_cast<int64_t>(sizes_.size()) - 1; d >= 0; --d) {
      if (sizes_[d] == 1) continue;
      if (strides_[d] != expected) {
        contiguous = false;
        break;
      }
      expected *= sizes_[d];
    }
  }
  is_contiguous_ = contiguous;
}

void TensorImpl::set_autograd_meta(std::unique_ptr<AutogradMetaInterface> m) {
  autograd_meta_ = std::move(m);
}

}  // namespace brasa
