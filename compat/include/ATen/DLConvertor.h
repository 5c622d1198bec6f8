#pragma once
// <ATen/DLConvertor.h>: at::toDLPack / at::fromDLPack over brasa's DLPack support (brasa/dlpack.h).

#include "brasa/dlpack.h"
#include "c10/brasa_namespaces.h"

namespace at {

/// The legacy managed tensor viewing `src` (CPU only); the consumer calls its deleter once.
inline DLManagedTensor* toDLPack(const Tensor& src) { return brasa::to_dlpack(src); }

/// The DLPack 1.x managed tensor viewing `src` (CPU only); the consumer calls its deleter once.
inline DLManagedTensorVersioned* toDLPackVersioned(const Tensor& src) {
  return brasa::to_dlpack_versioned(src);
}

/// A tensor viewing the producer's memory; takes ownership (see Note [DLPack import ownership]).
inline Tensor fromDLPack(DLManagedTensor* src) { return brasa::from_dlpack(src); }
inline Tensor fromDLPack(const DLManagedTensor* src) {
  return brasa::from_dlpack(const_cast<DLManagedTensor*>(src));
}
inline Tensor fromDLPackVersioned(DLManagedTensorVersioned* src) { return brasa::from_dlpack(src); }

}  // namespace at
