#pragma once
// Thread-local autocast state (libtorch's at::autocast switches) and the casts its kernels make.
//
// Note [Autocast]
// Turning CPU autocast on adds DispatchKey::Autocast to the thread's included keys. Only the ops on
// PyTorch 1.13's CPU lists have a kernel at that key (src/ops/autocast/autocast_policy.cpp), so
// every other op skips it at no cost. Such a kernel casts the op's floating arguments by the op's
// policy (lower precision, float32, or the widest of its inputs), excludes the Autocast key and
// calls the op again: ops called inside it are not cast again, as in PyTorch. Composite functions
// on the lists that are not dispatched ops (linear, matmul, the losses) make the same casts at
// their top through `autocast::is_active()`. Casts of float32 leaves that require grad are cached
// per thread until `clear_cache()` (AutocastGuard clears it when its outermost region ends), so a
// weight used by several ops in one forward is converted once.

#include <vector>

#include "brasa/core/tensor.h"
#include "brasa/dispatch/local_dispatch_keys.h"

namespace brasa::autocast {

/// Whether CPU autocast is on for this thread.
BRASA_API bool is_cpu_enabled();
/// Turns CPU autocast on or off for this thread.
BRASA_API void set_cpu_enabled(bool enabled);
/// The lower-precision dtype of CPU autocast (BFloat16 unless set).
BRASA_API ScalarType get_autocast_cpu_dtype();
/// Throws ValueError unless `dtype` is BFloat16, the only lower precision CPU autocast supports.
BRASA_API void set_autocast_cpu_dtype(ScalarType dtype);
/// Whether casts of float32 leaves that require grad are cached (on unless set).
BRASA_API bool is_autocast_cache_enabled();
BRASA_API void set_autocast_cache_enabled(bool enabled);
/// Drops this thread's cached casts.
BRASA_API void clear_cache();
/// Nesting depth of autocast regions on this thread, after the change.
BRASA_API int increment_nesting();
BRASA_API int decrement_nesting();
/// Number of casts in this thread's cache (for tests).
BRASA_API size_t cache_size();

/// Whether autocast applies to an op called now: enabled, and not inside an autocast kernel.
inline bool is_active() {
  const LocalDispatchKeySet& tls = tls_dispatch_keys;
  return tls.included.has(DispatchKey::Autocast) && !tls.excluded.has(DispatchKey::Autocast);
}

/// How an op's floating arguments are cast (PyTorch's CastPolicy, CPU subset).
enum class CastPolicy {
  LowerPrecision,  // to the autocast dtype
  Float32,         // to float32
  Promote,         // to the widest floating dtype among the arguments
};

/// `t` cast to `dtype` when it is a defined floating tensor other than float64 (PyTorch's
/// eligibility rule); cached when it is a float32 leaf that requires grad cast to the autocast
/// dtype. Anything else is returned as it is.
BRASA_API Tensor cached_cast(ScalarType dtype, const Tensor& t);
/// The dtype Promote casts to: the autocast dtype when every eligible tensor has it, else float32.
BRASA_API ScalarType promote_dtype(const std::vector<const Tensor*>& tensors);
/// The dtype `policy` casts to for these tensors.
BRASA_API ScalarType policy_dtype(CastPolicy policy, const std::vector<const Tensor*>& tensors);

/// RAII for composite functions on autocast's lists: excludes the Autocast key for its lifetime,
/// so the ops the composite calls with the cast arguments are not cast again.
class AutocastExclude : public ExcludeDispatchKeyGuard {
 public:
  AutocastExclude() : ExcludeDispatchKeyGuard(DispatchKey::Autocast) {}
};

}  // namespace brasa::autocast

namespace brasa {

/// RAII autocast region (Python's `torch.autocast("cpu", dtype)`): sets enabled and the dtype,
/// restores both on exit, and clears the cast cache when the outermost region ends. Throws
/// ValueError for a dtype other than BFloat16 when enabled.
class BRASA_API AutocastGuard {
 public:
  explicit AutocastGuard(ScalarType dtype = kBFloat16, bool enabled = true,
                         bool cache_enabled = true);
  ~AutocastGuard();
  AutocastGuard(const AutocastGuard&) = delete;
  AutocastGuard& operator=(const AutocastGuard&) = delete;

 private:
  bool prev_enabled_;
  ScalarType prev_dtype_;
  bool prev_cache_enabled_;
};

}  // namespace brasa
