// DLPack export (a heap holder keeps the tensor alive) and import (from_blob over the producer's
// memory, whose deleter releases the producer). See Note [DLPack import ownership].

#include "brasa/dlpack.h"

#include <memory>
#include <utility>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/ops/factory.h"

namespace brasa {
namespace {

DLDataType to_dl_dtype(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return {kDLBool, 8, 1};
    case ScalarType::Byte: return {kDLUInt, 8, 1};
    case ScalarType::Char: return {kDLInt, 8, 1};
    case ScalarType::Short: return {kDLInt, 16, 1};
    case ScalarType::Int: return {kDLInt, 32, 1};
    case ScalarType::Long: return {kDLInt, 64, 1};
    case ScalarType::Half: return {kDLFloat, 16, 1};
    case ScalarType::Float: return {kDLFloat, 32, 1};
    case ScalarType::Double: return {kDLFloat, 64, 1};
    case ScalarType::BFloat16: return {kDLBfloat, 16, 1};
    default: break;
  }
  BRASA_THROW(ValueError, "to_dlpack: dtype ", t, " has no DLPack equivalent");
}

ScalarType from_dl_dtype(DLDataType t) {
  BRASA_CHECK(t.lanes == 1, "from_dlpack: vector dtypes are not supported (lanes = ", t.lanes, ")");
  const int key = t.code * 256 + t.bits;
  switch (key) {
    case kDLBool * 256 + 8: return ScalarType::Bool;
    case kDLUInt * 256 + 8: return ScalarType::Byte;
    case kDLInt * 256 + 8: return ScalarType::Char;
    case kDLInt * 256 + 16: return ScalarType::Short;
    case kDLInt * 256 + 32: return ScalarType::Int;
    case kDLInt * 256 + 64: return ScalarType::Long;
    case kDLFloat * 256 + 16: return ScalarType::Half;
    case kDLFloat * 256 + 32: return ScalarType::Float;
    case kDLFloat * 256 + 64: return ScalarType::Double;
    case kDLBfloat * 256 + 16: return ScalarType::BFloat16;
    default: break;
  }
  BRASA_THROW(ValueError, "from_dlpack: unsupported dtype (code ", int{t.code}, ", bits ",
              int{t.bits}, ")");
}

// The exported struct lives inside the holder, next to what it points to.
template <class Managed>
struct Holder {
  Tensor tensor;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  Managed managed{};
};

template <class Managed>
void delete_holder(Managed* self) {
  delete static_cast<Holder<Managed>*>(self->manager_ctx);
}

template <class Managed>
Managed* export_tensor(const Tensor& tensor, const char* op) {
  BRASA_CHECK(tensor.defined(), op, ": the tensor is undefined");
  BRASA_CHECK(tensor.is_cpu(), op, ": only CPU tensors can be exported, got a tensor on ",
              tensor.device());
  const DLDataType dtype = to_dl_dtype(tensor.scalar_type());
  auto holder = std::make_unique<Holder<Managed>>();
  holder->tensor = tensor;
  holder->shape.assign(tensor.sizes().begin(), tensor.sizes().end());
  holder->strides.assign(tensor.strides().begin(), tensor.strides().end());
  for (size_t d = 0; d < holder->shape.size(); ++d) {
    if (holder->shape[d] < 2) holder->strides[d] = 1;  // as PyTorch does (gh-83069)
  }
  DLTensor& dl = holder->managed.dl_tensor;
  dl.data = tensor.data_ptr();
  dl.device = {kDLCPU, 0};
  dl.ndim = static_cast<int32_t>(holder->shape.size());
  dl.dtype = dtype;
  dl.shape = holder->shape.data();
  dl.strides = holder->strides.data();
  dl.byte_offset = 0;
  holder->managed.manager_ctx = holder.get();
  holder->managed.deleter = &delete_holder<Managed>;
  return &holder.release()->managed;
}

// Releases the producer exactly once: from the tensor's deleter, or on an import error.
template <class Managed>
void release(Managed* managed) {
  if (managed->deleter != nullptr) managed->deleter(managed);
}

template <class Managed>
Tensor import_tensor(Managed* managed, bool copy) {
  const DLTensor& dl = managed->dl_tensor;
  BRASA_CHECK(dl.device.device_type == kDLCPU, "from_dlpack: only CPU memory can be imported, got ",
              "DLPack device type ", static_cast<int>(dl.device.device_type));
  const ScalarType dtype = from_dl_dtype(dl.dtype);
  BRASA_CHECK(dl.ndim >= 0, "from_dlpack: negative ndim ", dl.ndim);
  BRASA_CHECK(dl.ndim == 0 || dl.shape != nullptr, "from_dlpack: ndim is ", dl.ndim,
              " but shape is NULL");
  std::vector<int64_t> sizes(dl.shape, dl.shape + dl.ndim);
  std::vector<int64_t> strides;
  if (dl.strides != nullptr) {
    strides.assign(dl.strides, dl.strides + dl.ndim);
  } else {
    strides.assign(sizes.size(), 1);
    for (int64_t d = dl.ndim - 2; d >= 0; --d) {
      const auto next = static_cast<size_t>(d + 1);
      strides[static_cast<size_t>(d)] = strides[next] * std::max<int64_t>(sizes[next], 1);
    }
  }
  void* data = static_cast<char*>(dl.data) + dl.byte_offset;
  if (copy) {
    Tensor result = from_blob(data, sizes, strides, TensorOptions(dtype)).clone();
    release(managed);
    return result;
  }
  return from_blob(
      data, sizes, strides, [managed](void*) { release(managed); }, TensorOptions(dtype));
}

template <class Managed>
Tensor import_or_release(Managed* managed, bool copy) {
  try {
    return import_tensor(managed, copy);
  } catch (...) {
    release(managed);  // from_blob calls no deleter when it throws
    throw;
  }
}

}  // namespace

DLManagedTensorVersioned* to_dlpack_versioned(const Tensor& tensor, uint64_t flags) {
  constexpr uint64_t known = DLPACK_FLAG_BITMASK_READ_ONLY | DLPACK_FLAG_BITMASK_IS_COPIED;
  BRASA_CHECK((flags & ~known) == 0, "to_dlpack_versioned: unsupported flags 0x", std::hex, flags,
              " (only READ_ONLY and IS_COPIED)");
  const bool copy = (flags & DLPACK_FLAG_BITMASK_IS_COPIED) != 0;
  const char* op = "to_dlpack_versioned";
  auto* managed = export_tensor<DLManagedTensorVersioned>(
      copy && tensor.defined() ? tensor.clone(MemoryFormat::Contiguous) : tensor, op);
  managed->version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  managed->flags = flags;
  return managed;
}

DLManagedTensor* to_dlpack(const Tensor& tensor) {
  return export_tensor<DLManagedTensor>(tensor, "to_dlpack");
}

Tensor from_dlpack(DLManagedTensorVersioned* managed, bool allow_read_only_view) {
  BRASA_CHECK(managed != nullptr, "from_dlpack: the managed tensor is NULL");
  if (managed->version.major != DLPACK_MAJOR_VERSION) {
    // The spec allows touching nothing but the version and the deleter here.
    const uint32_t major = managed->version.major;
    const uint32_t minor = managed->version.minor;
    release(managed);
    BRASA_THROW(ValueError, "from_dlpack: DLPack version ", major, ".", minor,
                " is not supported (brasa reads major version ", DLPACK_MAJOR_VERSION, ")");
  }
  const bool read_only = (managed->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
  return import_or_release(managed, read_only && !allow_read_only_view);
}

Tensor from_dlpack(DLManagedTensor* managed) {
  BRASA_CHECK(managed != nullptr, "from_dlpack: the managed tensor is NULL");
  return import_or_release(managed, false);
}

}  // namespace brasa
