#pragma once
// <ATen/record_function.h>: RECORD_FUNCTION and the other record scopes compile and cost nothing.
// brasa has no profiler yet, so nothing is recorded: the macros do not even evaluate their
// arguments (they stay odr-used, so variables named only there raise no unused warnings).
// at::RecordFunction exists for code that names the type; it records nothing either.

#include <cstdint>
#include <string>

#include "c10/brasa_namespaces.h"

namespace at {

/// libtorch's record scopes (the kinds of scope a profiler callback can filter on).
enum class RecordScope : uint8_t {
  FUNCTION = 0,
  BACKWARD_FUNCTION,
  TORCHSCRIPT_FUNCTION,
  KERNEL_FUNCTION_DTYPE,
  CUSTOM_CLASS,
  BUILD_FEATURE,
  LITE_INTERPRETER,
  USER_SCOPE,
  STATIC_RUNTIME_OP,
  STATIC_RUNTIME_MODEL,
  NUM_SCOPES,
};

/// A scope guard that a profiler would time; without one, inactive and free.
class RecordFunction {
 public:
  explicit RecordFunction(RecordScope scope = RecordScope::FUNCTION) : scope_(scope) {}
  RecordFunction(const RecordFunction&) = delete;
  RecordFunction& operator=(const RecordFunction&) = delete;
  bool isActive() const { return false; }
  RecordScope scope() const { return scope_; }
  template <typename... Args>
  void before(const Args&... /*args*/) {}
  void end() {}

 private:
  RecordScope scope_;
};

/// Whether any profiler callback is registered: never, in brasa.
inline bool hasCallbacks() { return false; }

}  // namespace at

#define BRASA_RECORD_UNEVALUATED(...) static_cast<void>(sizeof(((void)(__VA_ARGS__), 0)))
#define RECORD_FUNCTION(fn, inputs, ...) BRASA_RECORD_UNEVALUATED(fn, inputs)
#define RECORD_FUNCTION_WITH_SCOPE(scope, fn, inputs, ...) \
  BRASA_RECORD_UNEVALUATED(scope, fn, inputs)
#define RECORD_USER_SCOPE(fn) BRASA_RECORD_UNEVALUATED(fn)
#define RECORD_USER_SCOPE_WITH_INPUTS(fn, inputs) BRASA_RECORD_UNEVALUATED(fn, inputs)
#define RECORD_TORCHSCRIPT_FUNCTION(mn, inputs) BRASA_RECORD_UNEVALUATED(mn, inputs)
