#pragma once
// The dispatcher: every op is an OperatorHandle holding one kernel slot per DispatchKey.
//
// Note [Dispatch]
// A call computes the key set = (union of the tensor arguments' keys | thread's included keys)
// minus the thread's excluded keys, keeps only keys that have a kernel (or a backend fallback), and
// runs the kernel of the highest one. A kernel that wants the next key "redispatches" by calling
// the op again with its own key excluded (ExcludeDispatchKeyGuard). Each kernel is stored unboxed
// (a typed function pointer, the fast path) and boxed (a function over a Stack of Values), so a
// single generic boxed function can serve every op, and an op whose kernel is only boxed can still
// be called unboxed.

#include <atomic>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "brasa/core/dispatch_key.h"
#include "brasa/dispatch/boxing.h"
#include "brasa/dispatch/local_dispatch_keys.h"
#include "brasa/dispatch/op_declaration.h"
#include "brasa/dispatch/schema.h"

namespace brasa {

class OperatorHandle;
using BoxedKernel = void (*)(const OperatorHandle& op, DispatchKeySet keys, Stack& stack);

namespace detail {
BRASA_API extern std::atomic<uint32_t> g_fallback_mask;
BRASA_API extern bool g_log_dispatch;
BRASA_API BoxedKernel backend_fallback(DispatchKey k);

// Note [Profiling dispatched ops]
// While a profiler records, Op::call opens a scope named after the op on the calling thread's
// scope stack (brasa/dispatch/record_function.h) and closes it when the call returns or throws.
// A kernel that redispatches by calling the same op again (Autograd, Autocast) opens no second
// scope. When nothing records, the only cost is the load and test of g_record_ops.
BRASA_API extern std::atomic<bool> g_record_ops;
/// Opens a scope for `op`; returns its slot on the thread's scope stack, or -1 when none opened.
BRASA_API int open_op_scope(const OperatorHandle& op);
/// Whether the scope at `slot` records input shapes (the profiler's record_shapes).
BRASA_API bool scope_wants_inputs(int slot);
/// Records the shapes of the tensors among `inputs` (one entry per argument) on the scope.
BRASA_API void set_scope_inputs(int slot, const Stack& inputs);
/// Closes the scope at `slot`, recording its event.
BRASA_API void close_scope(int slot) noexcept;
}  // namespace detail

class BRASA_API OperatorHandle {
 public:
  /// `signature` names the unboxed C++ type (typeid(R(Args...)).name()), so kernels registered by
  /// name can be checked against it; `num_arguments` is its parameter count; `declared_in` is the
  /// file that declares the op (Note [Op declarations]); `aten` its BRASA_ATEN statement.
  OperatorHandle(const char* name, const char* schema, const char* signature, int num_arguments,
                 const char* declared_in, const char* aten = "");
  OperatorHandle(const OperatorHandle&) = delete;
  OperatorHandle& operator=(const OperatorHandle&) = delete;
  ~OperatorHandle();  // out of line: one copy, not one per signature

  const std::string& name() const { return name_; }
  /// Human-readable signature, e.g. "add(Tensor self, Tensor other, Scalar alpha) -> Tensor".
  const std::string& schema() const { return schema_; }
  /// The parsed schema: argument names, which arguments are written, view ops.
  const SchemaInfo& schema_info() const { return info_; }
  const char* signature() const { return signature_; }
  /// Parameter count of the unboxed C++ signature.
  int num_arguments() const { return num_arguments_; }
  /// The header that declares the op, relative to the source root ("" when unknown).
  const std::string& declared_in() const { return declared_in_; }
  /// How aten's overloads of the op differ from its schema ("" when they don't; Note [aten forms]).
  const char* aten_statement() const { return aten_; }
  /// The file that registered the kernel at `k` ("" when none, or when the registrar did not say).
  const std::string& kernel_file(DispatchKey k) const { return kernel_files_[static_cast<int>(k)]; }
  int id() const { return id_; }
  bool has_kernel(DispatchKey k) const { return kernel_mask_ & DispatchKeySet(k).raw(); }
  /// The unboxed kernel registered at `k` (null when none or boxed-only), for identity checks.
  const void* unboxed_kernel(DispatchKey k) const { return unboxed_[static_cast<int>(k)]; }

  /// The key whose kernel runs for `keys`; throws NotImplementedError if none.
  DispatchKey pick(DispatchKeySet keys) const {
    uint32_t eff =
        keys.raw() & (kernel_mask_ | detail::g_fallback_mask.load(std::memory_order_relaxed));
    if (BRASA_UNLIKELY(eff == 0)) no_kernel(keys);
    DispatchKey k = DispatchKeySet::from_raw(eff).highest();
    if (BRASA_UNLIKELY(detail::g_log_dispatch)) log_dispatch(k);
    return k;
  }
  /// Boxed call: arguments on the stack, results left on it.
  void call_boxed(Stack& stack) const;
  void call_boxed(DispatchKeySet keys, Stack& stack) const;
  /// Runs the boxed kernel of exactly `k` (or its backend fallback).
  void call_boxed_at(DispatchKey k, DispatchKeySet keys, Stack& stack) const;

  /// Registers a boxed-only kernel for key k; `file` names the registering file.
  void impl_boxed(DispatchKey k, BoxedKernel kernel, const char* file = nullptr);
  /// Keys computed from a boxed stack's tensors plus thread-local adjustments.
  static DispatchKeySet keys_from_stack(const Stack& stack);

 protected:
  void set_kernel(DispatchKey k, void* unboxed, BoxedKernel boxed, const char* file);
  /// Calls an unboxed kernel of this op's signature with the stack's arguments, leaving the results
  /// on it: the boxed form of every typed kernel (one function per signature, Note [Typed kernels
  /// boxed]).
  using StackCaller = void (*)(const void* kernel, Stack& stack);
  StackCaller stack_caller_ = nullptr;
  [[noreturn]] void no_kernel(DispatchKeySet keys) const;
  void log_dispatch(DispatchKey k) const;

  void* unboxed_[kNumDispatchKeys] = {};
  BoxedKernel boxed_[kNumDispatchKeys] = {};
  uint32_t kernel_mask_ = 0;

 private:
  std::string name_;
  std::string schema_;
  SchemaInfo info_;
  const char* signature_;
  int num_arguments_;
  int id_;
  std::string declared_in_;
  const char* aten_;
  std::string kernel_files_[kNumDispatchKeys];
};

/// Looks an op up by name (for boxed callers); null if unknown.
BRASA_API OperatorHandle* find_op(const std::string& name);
/// Every registered op, in registration order.
BRASA_API std::vector<OperatorHandle*> all_ops();
/// Installs a boxed kernel used for every op that has no kernel of its own at `k`.
BRASA_API void set_backend_fallback(DispatchKey k, BoxedKernel kernel);

inline DispatchKeySet compute_keys(uint32_t tensor_keys) {
  const LocalDispatchKeySet& tls = tls_dispatch_keys;
  return DispatchKeySet::from_raw((tensor_keys | tls.included.raw()) & ~tls.excluded.raw());
}

template <typename Sig>
class Op;

/// A typed op: `op.call(args...)` dispatches; `op.impl<fn>(key)` registers a kernel.
template <typename R, typename... Args>
class Op<R(Args...)> : public OperatorHandle {
 public:
  using Fn = R (*)(Args...);
  Op(const char* name, const char* schema, const char* declared_in = "", const char* aten = "")
      : OperatorHandle(name, schema, typeid(R(Args...)).name(), sizeof...(Args), declared_in,
                       aten) {
    stack_caller_ = &call_from_stack;
  }

  R call(Args... args) const {
    uint32_t k = (0u | ... | detail::keys_of(args));
    if (BRASA_UNLIKELY(detail::g_record_ops.load(std::memory_order_relaxed)))
      return call_recorded(k, std::forward<Args>(args)...);
    return redispatch(compute_keys(k), std::forward<Args>(args)...);
  }
  R redispatch(DispatchKeySet keys, Args... args) const {
    DispatchKey k = pick(keys);
    void* fn = unboxed_[static_cast<int>(k)];
    if (BRASA_LIKELY(fn != nullptr)) return reinterpret_cast<Fn>(fn)(std::forward<Args>(args)...);
    return call_via_boxed(k, keys, args...);
  }

  /// `file` names the registering file (BRASA_REGISTER_KERNEL passes __FILE__).
  template <Fn kernel>
  void impl(DispatchKey k, const char* file = nullptr) {
    set_kernel(k, reinterpret_cast<void*>(kernel), nullptr, file);
  }

 private:
  /// call() while a profiler records (Note [Profiling dispatched ops]); out of line so that the
  /// inlined call stays small.
  [[gnu::noinline]] R call_recorded(uint32_t tensor_keys, Args... args) const {
    struct Scope {
      int slot;
      ~Scope() {
        if (slot >= 0) detail::close_scope(slot);
      }
    } scope{detail::open_op_scope(*this)};
    if (scope.slot >= 0 && detail::scope_wants_inputs(scope.slot)) {
      Stack stack;
      stack.reserve(sizeof...(Args));
      (stack.push_back(detail::boxer_t<Args>::to_value(args)), ...);
      detail::set_scope_inputs(scope.slot, stack);
    }
    return redispatch(compute_keys(tensor_keys), std::forward<Args>(args)...);
  }
  R call_via_boxed(DispatchKey k, DispatchKeySet keys, const Args&... args) const {
    Stack stack;
    stack.reserve(sizeof...(Args));
    (stack.push_back(detail::boxer_t<Args>::to_value(args)), ...);
    call_boxed_at(k, keys, stack);
    return detail::pop_result<R>(stack);
  }
  template <size_t... I>
  static R call_unpacked(Fn kernel, Stack& s, std::index_sequence<I...>) {
    return kernel(detail::boxer_t<Args>::from_value(s[I])...);
  }
  static void call_from_stack(const void* kernel, Stack& s) {
    Fn fn = reinterpret_cast<Fn>(const_cast<void*>(kernel));
    if constexpr (std::is_void_v<R>) {
      call_unpacked(fn, s, std::index_sequence_for<Args...>{});
      s.clear();
    } else {
      R r = call_unpacked(fn, s, std::index_sequence_for<Args...>{});
      s.clear();
      detail::push_result(s, std::move(r));
    }
  }
};

}  // namespace brasa

#define BRASA_CONCAT_INNER(a, b) a##b
#define BRASA_CONCAT(a, b) BRASA_CONCAT_INNER(a, b)
/// Registers `fn` as op's kernel for the given keys at load time: BRASA_REGISTER_KERNEL(add_op,
/// add_cpu, CPU, Meta).
#define BRASA_REGISTER_KERNEL(op, fn, ...)                                          \
  static const bool BRASA_CONCAT(brasa_reg_, __COUNTER__) = [] {                    \
    for (auto k : {BRASA_KEYS_(__VA_ARGS__)}) op().template impl<&fn>(k, __FILE__); \
    return true;                                                                    \
  }();
#define BRASA_KEY_(k) ::brasa::DispatchKey::k
#define BRASA_KEYS_(...) BRASA_MAP_KEYS_(__VA_ARGS__)
#define BRASA_MAP_KEYS_1(a) BRASA_KEY_(a)
#define BRASA_MAP_KEYS_2(a, b) BRASA_KEY_(a), BRASA_KEY_(b)
#define BRASA_MAP_KEYS_3(a, b, c) BRASA_KEY_(a), BRASA_KEY_(b), BRASA_KEY_(c)
#define BRASA_MAP_KEYS_4(a, b, c, d) BRASA_KEY_(a), BRASA_KEY_(b), BRASA_KEY_(c), BRASA_KEY_(d)
#define BRASA_GET_5TH_(a, b, c, d, e, ...) e
#define BRASA_MAP_KEYS_(...)                                                        \
  BRASA_GET_5TH_(__VA_ARGS__, BRASA_MAP_KEYS_4, BRASA_MAP_KEYS_3, BRASA_MAP_KEYS_2, \
                 BRASA_MAP_KEYS_1)                                                  \
  (__VA_ARGS__)
