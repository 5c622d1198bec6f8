#pragma once
// DLPack v1.1 (zero-copy tensor exchange): the C structs, and brasa's export/import functions.
//
// Note [DLPack declarations]
// The structs and enums below are written from the DLPack v1.1 specification and are ABI-identical
// to dlpack.h (checked by static_asserts on sizes and offsets). When a real dlpack.h >= 1.0 was
// included first, brasa uses its types instead; a pre-1.0 dlpack.h (no DLManagedTensorVersioned)
// is rejected at compile time. Defining DLPACK_DLPACK_H_ makes a later #include <dlpack/dlpack.h>
// a no-op, so both spellings can be mixed in any order after this header.

#include <cstddef>
#include <cstdint>

#include "brasa/core/macros.h"
#include "brasa/core/tensor.h"

#if !defined(DLPACK_MAJOR_VERSION) && defined(DLPACK_VERSION)
#error "brasa/dlpack.h needs DLPack >= 1.0: include it before (or instead of) an older dlpack.h"
#endif

#ifndef DLPACK_MAJOR_VERSION
#define DLPACK_DLPACK_H_
#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 1
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)

extern "C" {

typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

typedef enum : int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
  kDLTrn = 18,
} DLDeviceType;

typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

typedef enum {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6,
  kDLFloat8_e3m4 = 7,
  kDLFloat8_e4m3 = 8,
  kDLFloat8_e4m3b11fnuz = 9,
  kDLFloat8_e4m3fn = 10,
  kDLFloat8_e4m3fnuz = 11,
  kDLFloat8_e5m2 = 12,
  kDLFloat8_e5m2fnuz = 13,
  kDLFloat8_e8m0fnu = 14,
  kDLFloat6_e2m3fn = 15,
  kDLFloat6_e3m2fn = 16,
  kDLFloat4_e2m1fn = 17,
} DLDataTypeCode;

typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

typedef struct {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
} DLTensor;

/// Legacy (pre-1.0) managed tensor: no version, no flags.
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

}  // extern "C"
#endif  // DLPACK_MAJOR_VERSION

static_assert(DLPACK_MAJOR_VERSION == 1, "brasa/dlpack.h speaks DLPack 1.x");
static_assert(sizeof(DLPackVersion) == 8 && sizeof(DLDevice) == 8 && sizeof(DLDataType) == 4);
static_assert(sizeof(DLTensor) == 48 && offsetof(DLTensor, device) == 8 &&
              offsetof(DLTensor, ndim) == 16 && offsetof(DLTensor, dtype) == 20 &&
              offsetof(DLTensor, shape) == 24 && offsetof(DLTensor, strides) == 32 &&
              offsetof(DLTensor, byte_offset) == 40);
static_assert(sizeof(DLManagedTensor) == 64 && offsetof(DLManagedTensor, manager_ctx) == 48 &&
              offsetof(DLManagedTensor, deleter) == 56);
static_assert(sizeof(DLManagedTensorVersioned) == 80 &&
              offsetof(DLManagedTensorVersioned, manager_ctx) == 8 &&
              offsetof(DLManagedTensorVersioned, deleter) == 16 &&
              offsetof(DLManagedTensorVersioned, flags) == 24 &&
              offsetof(DLManagedTensorVersioned, dl_tensor) == 32);

namespace brasa {

/// Exports a CPU tensor (any dtype, any strides, 0-d and empty included) without copying: version
/// {1, 1}, strides in elements (1 for dims of size < 2), byte_offset 0. The result keeps the
/// tensor's storage alive until its deleter runs (exactly once, by the consumer). `flags` may hold
/// DLPACK_FLAG_BITMASK_READ_ONLY (passed on) and DLPACK_FLAG_BITMASK_IS_COPIED (exports a fresh
/// contiguous copy instead of a view). Throws ValueError for a non-CPU tensor or other flag bits.
BRASA_API DLManagedTensorVersioned* to_dlpack_versioned(const Tensor& tensor, uint64_t flags = 0);

/// The legacy (unversioned) form of to_dlpack_versioned, for pre-1.0 consumers.
BRASA_API DLManagedTensor* to_dlpack(const Tensor& tensor);

/// Note [DLPack import ownership]
/// from_dlpack takes ownership of `managed` in every case (like PyTorch's consumers): on success
/// the producer's deleter (may be NULL) runs exactly once, when the last tensor or view of the
/// result dies; on error it runs before the exception leaves. The result views the producer's
/// memory (data + byte_offset, NULL strides = row-major) — except when the READ_ONLY flag is set:
/// brasa tensors have no read-only bit, so a read-only tensor is copied (and the producer released
/// at once) unless `allow_read_only_view` is true, in which case the caller promises not to write.
/// Throws ValueError for a major version other than 1, a non-CPU device, lanes != 1, an unknown
/// (code, bits) dtype, a null pointer, or inconsistent ndim/shape/strides.
BRASA_API Tensor from_dlpack(DLManagedTensorVersioned* managed, bool allow_read_only_view = false);

/// Imports a legacy (unversioned) managed tensor; ownership as for the versioned form.
BRASA_API Tensor from_dlpack(DLManagedTensor* managed);

}  // namespace brasa
