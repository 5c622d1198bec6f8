// The scope stacks and event buffers behind brasa/dispatch/record_function.h.
//
// Note [Profiler threads]
// Recording is process-wide: once started, every thread records (DataLoader workers, OpenMP
// callers, the autograd engine), each into a buffer of its own, so threads never contend while
// recording. A thread registers its buffer with the running session the first time it closes a
// scope in it; the session keeps the buffer alive when the thread exits. Each buffer has a mutex,
// taken by its thread per event and by stop_recording once, so stopping while other threads still
// run is safe: their later events go to a buffer nobody reads, or find no session and are dropped.

#include "brasa/dispatch/record_function.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <mutex>

#include "brasa/core/error.h"

namespace brasa {
namespace detail {
std::atomic<bool> g_record_ops{false};
}  // namespace detail

namespace profiler::detail {
namespace {

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct ThreadBuffer {
  std::mutex mutex;
  std::vector<Event> events;
};

struct Session {
  uint64_t id = 0;
  bool record_shapes = false;
  std::mutex mutex;  // guards buffers
  std::vector<std::shared_ptr<ThreadBuffer>> buffers;
};

std::mutex g_session_mutex;
std::shared_ptr<Session> g_session;  // guarded by g_session_mutex
std::atomic<uint64_t> g_session_id{0};
std::atomic<bool> g_record_shapes{false};

struct OpenScope {
  std::string name;
  const void* op = nullptr;  // the OperatorHandle of an op scope
  EventKind kind = EventKind::Op;
  bool closed = false;
  bool wants_inputs = false;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  std::string input_shapes;
};

struct ThreadState {
  std::vector<OpenScope> stack;
  size_t depth = 0;  // open scopes: stack[0, depth) are in use
  uint64_t session = 0;
  std::shared_ptr<ThreadBuffer> buffer;
  uint64_t tid = static_cast<uint64_t>(::syscall(SYS_gettid));
};

ThreadState& thread_state() {
  // Note [Initial-exec TLS] (src/dispatch/grad_mode.cpp).
  thread_local ThreadState state __attribute__((tls_model("initial-exec")));
  return state;
}

int push(ThreadState& t, std::string_view name, const void* op, EventKind kind) {
  if (t.depth == t.stack.size()) t.stack.emplace_back();
  OpenScope& s = t.stack[t.depth];
  s.name.assign(name.data(), name.size());
  s.op = op;
  s.kind = kind;
  s.closed = false;
  s.wants_inputs = g_record_shapes.load(std::memory_order_relaxed);
  s.input_shapes.clear();
  s.start_ns = now_ns();
  return static_cast<int>(t.depth++);
}

/// The thread's buffer in the running session, registering it on first use; null when none runs.
ThreadBuffer* session_buffer(ThreadState& t) {
  if (t.buffer && t.session == g_session_id.load(std::memory_order_acquire)) return t.buffer.get();
  std::lock_guard<std::mutex> lock(g_session_mutex);
  if (!g_session) return nullptr;
  t.buffer = std::make_shared<ThreadBuffer>();
  t.session = g_session->id;
  g_session->buffers.push_back(t.buffer);
  return t.buffer.get();
}

void emit(ThreadState& t, OpenScope& s) {
  if (!brasa::detail::g_record_ops.load(std::memory_order_relaxed)) return;
  ThreadBuffer* buffer = session_buffer(t);
  if (!buffer) return;
  std::lock_guard<std::mutex> lock(buffer->mutex);
  buffer->events.push_back(
      Event{std::move(s.name), s.kind, t.tid, s.start_ns, s.end_ns, std::move(s.input_shapes)});
}

void append_sizes(std::string& out, IntArrayRef sizes) {
  out += '[';
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(sizes[i]);
  }
  out += ']';
}

}  // namespace

int open_scope(std::string_view name, EventKind kind) {
  if (!brasa::detail::g_record_ops.load(std::memory_order_relaxed)) return -1;
  return push(thread_state(), name, nullptr, kind);
}

void start_recording(bool record_shapes) {
  std::lock_guard<std::mutex> lock(g_session_mutex);
  BRASA_CHECK_TYPED(RuntimeError, !g_session,
                    "profiler: a profiler is already recording; stop it before starting another");
  g_session = std::make_shared<Session>();
  g_session->id = g_session_id.load() + 1;
  g_session->record_shapes = record_shapes;
  g_record_shapes.store(record_shapes, std::memory_order_relaxed);
  g_session_id.store(g_session->id, std::memory_order_release);
  brasa::detail::g_record_ops.store(true, std::memory_order_release);
}

std::vector<Event> stop_recording() {
  std::shared_ptr<Session> session;
  {
    std::lock_guard<std::mutex> lock(g_session_mutex);
    brasa::detail::g_record_ops.store(false, std::memory_order_release);
    session = std::move(g_session);
    g_session = nullptr;
  }
  std::vector<Event> events;
  if (!session) return events;
  for (const auto& buffer : session->buffers) {
    std::lock_guard<std::mutex> lock(buffer->mutex);
    for (Event& e : buffer->events) events.push_back(std::move(e));
    buffer->events.clear();
  }
  return events;
}

bool is_recording() { return brasa::detail::g_record_ops.load(std::memory_order_relaxed); }

}  // namespace profiler::detail

namespace detail {

int open_op_scope(const OperatorHandle& op) {
  if (!g_record_ops.load(std::memory_order_relaxed)) return -1;
  profiler::detail::ThreadState& t = profiler::detail::thread_state();
  // The Autograd or Autocast kernel calling the op again below itself: one op, one scope.
  if (t.depth > 0 && t.stack[t.depth - 1].op == &op) return -1;
  return profiler::detail::push(t, op.name(), &op, profiler::EventKind::Op);
}

bool scope_wants_inputs(int slot) {
  profiler::detail::ThreadState& t = profiler::detail::thread_state();
  return slot >= 0 && static_cast<size_t>(slot) < t.depth && t.stack[slot].wants_inputs;
}

void set_scope_inputs(int slot, const Stack& inputs) {
  if (!scope_wants_inputs(slot)) return;
  std::string& out = profiler::detail::thread_state().stack[slot].input_shapes;
  out = "[";
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i) out += ", ";
    const Value& v = inputs[i];
    if (v.is_tensor() && v.tensor().defined()) {
      profiler::detail::append_sizes(out, v.tensor().sizes());
    } else if (v.is_tensor_list()) {
      out += '[';
      const auto& list = v.get<std::vector<Tensor>>();
      for (size_t j = 0; j < list.size(); ++j) {
        if (j) out += ", ";
        if (list[j].defined())
          profiler::detail::append_sizes(out, list[j].sizes());
        else
          out += "[]";
      }
      out += ']';
    } else {
      out += "[]";
    }
  }
  out += ']';
}

void close_scope(int slot) noexcept {
  profiler::detail::ThreadState& t = profiler::detail::thread_state();
  if (slot < 0 || static_cast<size_t>(slot) >= t.depth) return;
  t.stack[slot].closed = true;
  t.stack[slot].end_ns = profiler::detail::now_ns();
  // Scopes close in reverse order of opening, unless a user ended one early: an early one waits
  // on the stack until the scopes above it have closed.
  while (t.depth > 0 && t.stack[t.depth - 1].closed) {
    --t.depth;
    try {
      profiler::detail::emit(t, t.stack[t.depth]);
    } catch (...) {
      // Out of memory while recording: the event is lost, the program goes on.
    }
  }
}

}  // namespace detail
}  // namespace brasa
