#pragma once
// PooledObject<T>: class-specific operator new/delete that recycle blocks through a small
// per-thread free list, so creating a tensor (TensorImpl + StorageImpl) does not go to malloc each
// time.

#include <cstddef>
#include <new>

#include "brasa/core/macros.h"

namespace brasa::detail {

BRASA_API void* pool_allocate(size_t size);
BRASA_API void pool_free(void* p, size_t size);

template <typename T>
struct PooledObject {
  static void* operator new(size_t size) { return pool_allocate(size); }
  static void operator delete(void* p, size_t size) { pool_free(p, size); }
};

}  // namespace brasa::detail
