#pragma once
// Factory functions (libtorch spellings). Options default to the default dtype (Float) on the CPU.
// Throws ValueError for negative sizes, TypeError for an unsupported dtype.

#include <functional>
#include <optional>

#include "brasa/core/generator.h"
#include "brasa/core/tensor.h"
#include "brasa/ops/tensor_data.h"

namespace brasa {

BRASA_API Tensor empty(IntArrayRef size, const TensorOptions& options = {});
BRASA_API Tensor empty_strided(IntArrayRef size, IntArrayRef stride,
                               const TensorOptions& options = {});
BRASA_API Tensor zeros(IntArrayRef size, const TensorOptions& options = {});
BRASA_API Tensor ones(IntArrayRef size, const TensorOptions& options = {});
BRASA_API Tensor full(IntArrayRef size, const Scalar& fill_value,
                      const TensorOptions& options = {});
/// The _like forms take sizes, dtype and device from `self` unless options override them.
/// A copy of self with its own storage (self.clone(); differentiable).
inline Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format = std::nullopt) {
  return self.clone(memory_format);
}
BRASA_API Tensor empty_like(const Tensor& self, const TensorOptions& options = {});
BRASA_API Tensor zeros_like(const Tensor& self, const TensorOptions& options = {});
BRASA_API Tensor ones_like(const Tensor& self, const TensorOptions& options = {});
BRASA_API Tensor full_like(const Tensor& self, const Scalar& fill_value,
                           const TensorOptions& options = {});
BRASA_API Tensor scalar_tensor(const Scalar& s, const TensorOptions& options = {});

// ---- ranges ----
/// 1-D [start, end) in steps of `step`: size ceil((end - start) / step), element i = start + i *
/// step. Without a dtype: Long when start, end and step are all integral, else the default float.
/// Throws ValueError for step 0, a step whose sign disagrees with end - start, or non-finite
/// bounds.
BRASA_API Tensor arange(const Scalar& end, const TensorOptions& options = {});
BRASA_API Tensor arange(const Scalar& start, const Scalar& end, const TensorOptions& options = {});
BRASA_API Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step,
                        const TensorOptions& options = {});
/// 1-D `steps` values evenly spaced from start to end inclusive (default float dtype). Throws
/// ValueError for negative steps, TypeError for Bool.
BRASA_API Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps,
                          const TensorOptions& options = {});
/// base ** linspace(start, end, steps).
BRASA_API Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base = 10.0,
                          const TensorOptions& options = {});
/// [n, m] (m defaults to n) with ones on the main diagonal. Throws ValueError for negative n or m.
BRASA_API Tensor eye(int64_t n, const TensorOptions& options = {});
BRASA_API Tensor eye(int64_t n, int64_t m, const TensorOptions& options = {});

// ---- external memory ----
/// A tensor viewing `data` (not copied, not owned, not resizable). With a deleter, the tensor owns
/// the memory: deleter(data) runs exactly once, when the last tensor or view of it dies. Throws
/// ValueError for negative sizes or sizes/strides of different lengths (the deleter is not called).
BRASA_API Tensor from_blob(void* data, IntArrayRef sizes, const TensorOptions& options = {});
BRASA_API Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides,
                           const TensorOptions& options = {});
BRASA_API Tensor from_blob(void* data, IntArrayRef sizes, const std::function<void(void*)>& deleter,
                           const TensorOptions& options = {});
BRASA_API Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides,
                           const std::function<void(void*)>& deleter,
                           const TensorOptions& options = {});

// ---- random (draws from `generator`, else default_generator(); see manual_seed) ----
/// Uniform on [0, 1); floating dtypes only (TypeError otherwise).
BRASA_API Tensor rand(IntArrayRef size, const TensorOptions& options = {});
BRASA_API Tensor rand(IntArrayRef size, std::optional<Generator> generator,
                      const TensorOptions& options = {});
/// Standard normal; floating dtypes only.
BRASA_API Tensor randn(IntArrayRef size, const TensorOptions& options = {});
BRASA_API Tensor randn(IntArrayRef size, std::optional<Generator> generator,
                       const TensorOptions& options = {});
/// Integers uniform on [low, high) (low defaults to 0); dtype Long unless options say otherwise.
/// Throws ValueError when low >= high or the range does not fit the dtype.
BRASA_API Tensor randint(int64_t high, IntArrayRef size, const TensorOptions& options = kLong);
BRASA_API Tensor randint(int64_t high, IntArrayRef size, std::optional<Generator> generator,
                         const TensorOptions& options = kLong);
BRASA_API Tensor randint(int64_t low, int64_t high, IntArrayRef size,
                         const TensorOptions& options = kLong);
BRASA_API Tensor randint(int64_t low, int64_t high, IntArrayRef size,
                         std::optional<Generator> generator, const TensorOptions& options = kLong);
/// A random permutation of 0..n-1 (dtype Long unless options say otherwise).
BRASA_API Tensor randperm(int64_t n, const TensorOptions& options = kLong);
BRASA_API Tensor randperm(int64_t n, std::optional<Generator> generator,
                          const TensorOptions& options = kLong);
/// Sizes, dtype and device from `self` unless options override them.
BRASA_API Tensor rand_like(const Tensor& self, const TensorOptions& options = {});
BRASA_API Tensor randn_like(const Tensor& self, const TensorOptions& options = {});
BRASA_API Tensor randint_like(const Tensor& self, int64_t high, const TensorOptions& options = {});
BRASA_API Tensor randint_like(const Tensor& self, int64_t low, int64_t high,
                              const TensorOptions& options = {});

}  // namespace brasa
