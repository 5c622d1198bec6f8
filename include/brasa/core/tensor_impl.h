#pragma once
// TensorImpl: storage + sizes/strides/offset + dtype/device + dispatch keys; autograd metadata only
// when a tensor takes part in autograd.

#include <memory>

#include "brasa/core/dispatch_key.h"
#include "brasa/core/dtype.h"
#include "brasa/core/object_pool.h"
#include "brasa/core/small_vector.h"
#include "brasa/core/storage.h"

namespace brasa {

/// Filled in by autograd; a TensorImpl owns at most one.
struct BRASA_API AutogradMetaInterface {
  virtual ~AutogradMetaInterface();
  virtual bool requires_grad() const = 0;
  virtual void set_requires_grad(bool requires_grad) = 0;
};

/// The mode a view was made in (libtorch's torch::autograd::CreationMeta; Note [View creation
/// meta]): a view made in no-grad mode or InferenceMode of a tensor that requires grad cannot be
/// modified in place once grad mode is back. The first three are libtorch's other kinds.
enum class CreationMeta : uint8_t {
  DEFAULT,
  IN_CUSTOM_FUNCTION,
  MULTI_OUTPUT_NODE,
  NO_GRAD_MODE,
  INFERENCE_MODE
};

namespace detail {
/// Whether InferenceMode is on in this thread. brasa::InferenceMode (dispatch layer) sets it; it
/// lives in core because tensors read it when they are created.
BRASA_API bool inference_mode_enabled();
BRASA_API void set_inference_mode_enabled(bool enabled);
/// Whether grad mode is on in this thread; brasa::GradMode (dispatch layer) sets it. In core for
/// the same reason: a view records the mode it was made in.
BRASA_API bool grad_mode_enabled();
BRASA_API void set_grad_mode_enabled(bool enabled);
}  // namespace detail

class BRASA_API TensorImpl : public RefCounted, public detail::PooledObject<TensorImpl> {
 public:
  TensorImpl(Storage storage, ScalarType dtype, Device device);
  ~TensorImpl() override;

  ArrayRef<int64_t> sizes() const { return sizes_; }
  ArrayRef<int64_t> strides() const { return strides_; }
  int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
  int64_t numel() const { return numel_; }
  int64_t storage_offset() const { return storage_offset_; }
  ScalarType dtype() const { return dtype_; }
  size_t itemsize() const { return element_size(dtype_); }
  Device device() const { return device_; }
  DispatchKeySet key_set() const { return keys_; }
  const Storage& storage() const { return storage_; }
  bool is_contiguous() const { return is_contiguous_; }

  /// Pointer to element [0, ..., 0]; null for meta tensors.
  void* data() const {
    char* base = static_cast<char*>(storage_->data());
    return base ? base + storage_offset_ * static_cast<int64_t>(itemsize()) : nullptr;
  }

  /// Sets sizes and contiguous strides.
  void set_sizes_contiguous(IntArrayRef sizes);
  void set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset);
  void set_storage_offset(int64_t offset) { storage_offset_ = offset; }
  void set_storage(Storage s) { storage_ = std::move(s); }
  void set_dtype(ScalarType t) { dtype_ = t; }
  /// Moves the tensor's identity to another device (set_data with data of another device): the
  /// backend dispatch key follows the device.
  void set_device(Device d) {
    keys_ = keys_.remove(backend_key(device_.type())).add(backend_key(d.type()));
    device_ = d;
  }

  bool is_wrapped_number() const { return is_wrapped_number_; }
  void set_wrapped_number(bool w) { is_wrapped_number_ = w; }

  /// Note [Inference tensors]: a tensor created while InferenceMode is on is an inference tensor
  /// (libtorch's rule); a view or alias takes its base's kind instead (make_view sets it).
  bool is_inference() const { return is_inference_; }
  void set_inference(bool i) { is_inference_ = i; }

  AutogradMetaInterface* autograd_meta() const { return autograd_meta_.get(); }
  void set_autograd_meta(std::unique_ptr<AutogradMetaInterface> m);
  void add_key(DispatchKey k) { keys_ = keys_.add(k); }
  void remove_key(DispatchKey k) { keys_ = keys_.remove(k); }

  /// The tensor this one is a view of (null if it owns its storage's layout).
  const IntrusivePtr<TensorImpl>& view_base() const { return view_base_; }
  void set_view_base(IntrusivePtr<TensorImpl> base) { view_base_ = std::move(base); }
  /// For a view: the mode it was made in, and the storage version then (make_view sets both).
  CreationMeta creation_meta() const { return creation_meta_; }
  uint32_t creation_version() const { return creation_version_; }
  void set_creation_meta(CreationMeta m, uint32_t version) {
    creation_meta_ = m;
    creation_version_ = version;
  }

  uint32_t version() const { return storage_->version(); }
  /// Counts an in-place write; throws for an inference tensor outside InferenceMode (Note
  /// [Inference tensors]).
  void bump_version() {
    if (is_inference_) check_inference_write();
    storage_->bump_version();
  }
  /// bump_version's check, for kernels to call before they write.
  void check_inference_write() const;

 private:
  void refresh();

  Storage storage_;
  DimVector sizes_;
  DimVector strides_;
  int64_t storage_offset_ = 0;
  int64_t numel_ = 1;
  ScalarType dtype_;
  Device device_;
  DispatchKeySet keys_;
  bool is_contiguous_ = true;
  bool is_wrapped_number_ = false;
  bool is_inference_;
  CreationMeta creation_meta_ = CreationMeta::DEFAULT;
  uint32_t creation_version_ = 0;
  std::unique_ptr<AutogradMetaInterface> autograd_meta_;
  IntrusivePtr<TensorImpl> view_base_;
};

}  // namespace brasa
