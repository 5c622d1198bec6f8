#pragma once
// Profiler scopes: what a profiler records. While a profiler runs (brasa/profiler/profiler.h),
// every dispatched op (Note [Profiling dispatched ops]), every autograd node the engine applies and
// every RecordScope opens a scope on its thread's scope stack; closing it records an Event in the
// thread's buffer. When nothing records, a RecordScope tests one flag and does nothing else: it
// neither allocates nor reads the clock.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::profiler {

/// What opened a scope (libtorch's RecordScope FUNCTION, BACKWARD_FUNCTION, USER_SCOPE).
enum class EventKind : uint8_t { Op, Backward, User };

/// One closed scope.
struct Event {
  std::string name;
  EventKind kind = EventKind::Op;
  uint64_t thread_id = 0;  // the OS thread id (gettid)
  int64_t start_ns = 0;    // steady clock
  int64_t end_ns = 0;
  /// JSON array with one entry per argument: a tensor's sizes ("[2, 3]"), a tensor list's sizes
  /// ("[[2], [3]]"), "[]" for anything else. Empty when shapes were not recorded.
  std::string input_shapes;

  int64_t duration_ns() const { return end_ns - start_ns; }
};

namespace detail {
/// Opens a scope named `name` on this thread; -1 when nothing records.
BRASA_API int open_scope(std::string_view name, EventKind kind);
/// Starts recording on every thread; `record_shapes` makes scopes keep their inputs' shapes.
/// Throws RuntimeError when a recording already runs.
BRASA_API void start_recording(bool record_shapes);
/// Stops recording and returns every thread's events, in no particular order. Scopes still open
/// on some thread are dropped.
BRASA_API std::vector<Event> stop_recording();
/// Whether a recording runs.
BRASA_API bool is_recording();
}  // namespace detail

/// A user range (RECORD_USER_SCOPE, Python's record_function): timed from construction to end()
/// or destruction while a profiler runs, free otherwise.
class RecordScope {
 public:
  RecordScope() = default;
  explicit RecordScope(std::string_view name, EventKind kind = EventKind::User) {
    open(name, kind);
  }
  RecordScope(const RecordScope&) = delete;
  RecordScope& operator=(const RecordScope&) = delete;
  ~RecordScope() { end(); }

  /// Starts timing (when a profiler records and this scope is not timing already).
  void open(std::string_view name, EventKind kind = EventKind::User) {
    if (BRASA_UNLIKELY(brasa::detail::g_record_ops.load(std::memory_order_relaxed)) && slot_ < 0)
      slot_ = detail::open_scope(name, kind);
  }
  /// Whether a profiler is timing this scope.
  bool active() const { return slot_ >= 0; }
  /// Whether the profiler wants the inputs' shapes (set_inputs does nothing otherwise).
  bool wants_inputs() const { return slot_ >= 0 && brasa::detail::scope_wants_inputs(slot_); }
  /// Records the shapes of the tensors among `inputs`, one entry per input.
  void set_inputs(const Stack& inputs) {
    if (wants_inputs()) brasa::detail::set_scope_inputs(slot_, inputs);
  }
  /// Closes the scope now (the destructor then does nothing).
  void end() {
    if (slot_ >= 0) brasa::detail::close_scope(slot_);
    slot_ = -1;
  }

 private:
  int slot_ = -1;
};

}  // namespace brasa::profiler
