#pragma once
// <ATen/record_function.h>: RECORD_FUNCTION, RECORD_USER_SCOPE and at::RecordFunction time a scope
// while a brasa profiler records (brasa/profiler/profiler.h) and cost one flag test otherwise:
// the macros evaluate their name and inputs only while recording.

#include <cstdint>
#include <string>
#include <string_view>

#include "brasa/archive/ivalue.h"
#include "brasa/dispatch/record_function.h"
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

/// A scope guard: active when a profiler records at construction; before(name[, inputs]) starts
/// the timed range, end() or the destructor closes it.
class RecordFunction {
 public:
  explicit RecordFunction(RecordScope scope = RecordScope::FUNCTION)
      : scope_(scope), active_(brasa::profiler::detail::is_recording()) {}
  RecordFunction(const RecordFunction&) = delete;
  RecordFunction& operator=(const RecordFunction&) = delete;
  bool isActive() const { return active_; }
  RecordScope scope() const { return scope_; }

  void before(std::string_view name, int64_t /*sequence_nr*/ = -1) {
    if (active_) range_.open(name, kind());
  }
  /// Starts the range with the shapes of the tensors among `inputs` (IValues).
  template <typename Inputs>
  void before(std::string_view name, const Inputs& inputs, int64_t sequence_nr = -1) {
    before(name, sequence_nr);
    if (!range_.wants_inputs()) return;
    brasa::Stack stack;
    for (const c10::IValue& v : inputs)
      stack.push_back(v.isTensor() ? brasa::Value(v.toTensor()) : brasa::Value());
    range_.set_inputs(stack);
  }
  template <typename Inputs>
  void before(std::string_view name, const Inputs* inputs, int64_t sequence_nr = -1) {
    before(name, *inputs, sequence_nr);
  }
  void end() { range_.end(); }

 private:
  brasa::profiler::EventKind kind() const {
    if (scope_ == RecordScope::BACKWARD_FUNCTION) return brasa::profiler::EventKind::Backward;
    if (scope_ == RecordScope::USER_SCOPE) return brasa::profiler::EventKind::User;
    return brasa::profiler::EventKind::Op;
  }
  RecordScope scope_;
  bool active_;
  brasa::profiler::RecordScope range_;
};

/// Whether a profiler records now (libtorch: whether any RecordFunction callback is registered).
inline bool hasCallbacks() { return brasa::profiler::detail::is_recording(); }

}  // namespace at

#define BRASA_RECORD_GUARD_NAME BRASA_CONCAT(brasa_record_function_, __LINE__)
#define RECORD_FUNCTION_WITH_SCOPE(scope, fn, inputs, ...)     \
  ::at::RecordFunction BRASA_RECORD_GUARD_NAME(scope);         \
  if (BRASA_RECORD_GUARD_NAME.isActive()) {                    \
    BRASA_RECORD_GUARD_NAME.before(fn, inputs, ##__VA_ARGS__); \
  }
#define RECORD_FUNCTION(fn, inputs, ...) \
  RECORD_FUNCTION_WITH_SCOPE(::at::RecordScope::FUNCTION, fn, inputs, ##__VA_ARGS__)
#define RECORD_TORCHSCRIPT_FUNCTION(mn, inputs) \
  RECORD_FUNCTION_WITH_SCOPE(::at::RecordScope::TORCHSCRIPT_FUNCTION, mn, inputs)
#define RECORD_USER_SCOPE(fn)                                                  \
  ::at::RecordFunction BRASA_RECORD_GUARD_NAME(::at::RecordScope::USER_SCOPE); \
  if (BRASA_RECORD_GUARD_NAME.isActive()) {                                    \
    BRASA_RECORD_GUARD_NAME.before(fn);                                        \
  }
#define RECORD_USER_SCOPE_WITH_INPUTS(fn, inputs) \
  RECORD_FUNCTION_WITH_SCOPE(::at::RecordScope::USER_SCOPE, fn, inputs)
