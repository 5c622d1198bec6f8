#pragma once
#if __cplusplus < 202002L
#error \
    "<brasa/compile.h> needs C++20 (brasa::compile takes std::source_location): set CMAKE_CXX_STANDARD 20 or pass -std=c++20"
#endif
// brasa::compile: the optional, additive compile step (docs/compile.md). `compile(fn)` returns a
// callable that computes what `fn` computes: the first call runs `fn` under the Trace dispatch key
// and records its ops into a graph; later calls whose inputs pass the graph's guards replay the
// optimised graph (pointwise chains fused into generated C++, compiled once and cached on disk)
// without running `fn` again. Eager stays the default; BRASA_COMPILE=0 makes `compile` the
// identity. Lives in libbrasa_compile (link brasa::compile).

#include <cstdint>
#include <memory>
#include <source_location>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "brasa/core/tensor.h"

namespace brasa {
namespace nn::detail {
struct ModuleHolderIndicator;  // modules are compiled by brasa/compile/module.h
}

enum class CompileMode : uint8_t {
  Default,    ///< passes, pointwise fusion, generated C++
  NoFuse,     ///< passes, then every op through the dispatcher
  Interpret,  ///< the captured graph as recorded, every op through the dispatcher
};

/// Which input sizes a compiled graph accepts without a new trace (Note [Guards] in
/// src/compile/guards.cpp). Automatic: exact sizes first; a second signature that differs only in
/// sizes and traces to the same graph makes those dims symbolic. All: every dim symbolic from the
/// first trace. Static: every new size is a new trace (still no compiler run: kernels take sizes
/// as arguments). Automatic and All assume that `fn`'s C++ control flow does not branch on sizes.
enum class Dynamic : uint8_t { Static, Automatic, All };

struct CompileOptions {
  Dynamic dynamic = Dynamic::Automatic;
  /// Graphs per compiled function; a new signature beyond it runs eagerly (warned once).
  int recompile_limit = 8;
  /// A graph break (item(), nonzero, printing, ...) throws instead of running eagerly.
  bool fullgraph = false;
  CompileMode mode = CompileMode::Default;
  /// Shown in logs, warnings and errors; empty: "the function compiled at FILE:LINE".
  std::string name;
};

/// Process-wide counters of the compile step (all compiled functions together).
struct CompileStats {
  int64_t traces = 0;               ///< runs of a user function under the tracer
  int64_t graphs = 0;               ///< graphs built (one per guard entry)
  int64_t compiler_runs = 0;        ///< invocations of the C++ compiler
  int64_t compiler_failures = 0;    ///< compiler missing or failing: the graph ran op by op
  int64_t disk_cache_hits = 0;      ///< shared objects loaded from the disk cache
  int64_t memory_cache_hits = 0;    ///< shared objects already loaded in this process
  int64_t recompiles = 0;           ///< guard failures that led to a new trace
  int64_t graph_breaks = 0;         ///< traces that met an op needing data (ran eagerly)
  int64_t compiled_calls = 0;       ///< calls served by a compiled graph
  int64_t eager_calls = 0;          ///< calls that ran `fn` eagerly (breaks, limit, disabled)
  int64_t fused_kernels = 0;        ///< generated kernels in built graphs (row kernels included)
  int64_t row_kernels = 0;          ///< of which fuse reductions over the last dim
  int64_t column_kernels = 0;       ///< of which fuse a sum/mean over every dim but the last
  int64_t matmul_epilogues = 0;     ///< mm/addmm with pointwise epilogues, and convolutions with
                                    ///< a relu, as oneDNN primitives with post-ops
  int64_t backward_graphs = 0;      ///< compiled backward graphs (joint capture)
  int64_t saved_for_backward = 0;   ///< forward values those graphs keep for backward, summed
  int64_t saved_by_eager = 0;       ///< forward values eager's nodes keep for the same graphs
  int64_t fused_eager_ops = 0;      ///< pointwise ops fused eager deferred (Note [Fused eager])
  int64_t fused_eager_flushes = 0;  ///< times fused eager computed its pending ops
  std::vector<std::string> recompile_reasons;  ///< the failing guard of each recompile, in words
};
BRASA_API CompileStats compile_stats();
BRASA_API void reset_compile_stats();

/// Makes dim `dim` of `t` dynamic in every graph traced with `t` as an input, from the first trace
/// (no specialised graph first), for sizes in [min, max] (min is at least 2). Throws ValueError
/// when t's size there is outside the range. The mark stays with t's TensorImpl.
BRASA_API void mark_dynamic(const Tensor& t, int64_t dim, int64_t min = 2, int64_t max = INT64_MAX);

/// Fused eager (docs/compile.md, "Fused eager"): while on, this thread's pointwise ops (add, mul,
/// exp, gelu, ... with no autograd) are deferred and fused on the fly into generated kernels (the
/// compile step's code generation and disk cache), computed when anything else needs them: another
/// op, item(), typed data_ptr<T>(), printing, autograd hooks, saving, 64 pending ops, turning the
/// mode off. BRASA_FUSED_EAGER=1 turns it on for the thread that loads libbrasa_compile (the main
/// thread of a program linked with it). Results are those of compile (bitwise eager's for exact
/// ops). Call fused_eager_flush() before writing into a tensor through an untyped data_ptr().
BRASA_API void set_fused_eager(bool enabled);
BRASA_API bool fused_eager_enabled();
/// Computes this thread's pending fused-eager ops now.
BRASA_API void fused_eager_flush();
/// RAII: fused eager on (or off) for a scope on this thread; the previous state is restored (and
/// pending ops computed) when it ends.
class BRASA_API FusedEagerGuard {
 public:
  explicit FusedEagerGuard(bool enabled = true);
  ~FusedEagerGuard();
  FusedEagerGuard(const FusedEagerGuard&) = delete;
  FusedEagerGuard& operator=(const FusedEagerGuard&) = delete;

 private:
  bool previous_;
};

namespace compile_detail {

class CompiledFunction;
/// Runs the user's function on `inputs`, appending its results to `outputs`.
using Runner = void (*)(const void* fn, const std::vector<Tensor>& inputs,
                        std::vector<Tensor>& outputs);
/// Null when compilation is disabled (BRASA_COMPILE=0).
BRASA_API std::shared_ptr<CompiledFunction> make_compiled(CompileOptions options);
BRASA_API void call(CompiledFunction& f, const std::vector<Tensor>& inputs, Runner run,
                    const void* fn, std::vector<Tensor>& outputs);

template <typename R>
struct Results;
template <>
struct Results<Tensor> {
  static void flatten(const Tensor& r, std::vector<Tensor>& out) { out.push_back(r); }
  static Tensor unflatten(std::vector<Tensor>& v) { return std::move(v.at(0)); }
};
template <>
struct Results<std::vector<Tensor>> {
  static void flatten(const std::vector<Tensor>& r, std::vector<Tensor>& out) {
    out.insert(out.end(), r.begin(), r.end());
  }
  static std::vector<Tensor> unflatten(std::vector<Tensor>& v) { return std::move(v); }
};
template <typename... Ts>
struct Results<std::tuple<Ts...>> {
  static_assert((std::is_same_v<Ts, Tensor> && ...), "compile: tuples of Tensors only");
  static void flatten(const std::tuple<Ts...>& r, std::vector<Tensor>& out) {
    std::apply([&](const auto&... t) { (out.push_back(t), ...); }, r);
  }
  static std::tuple<Ts...> unflatten(std::vector<Tensor>& v) {
    return unflatten_at(v, std::index_sequence_for<Ts...>{});
  }
  template <size_t... I>
  static std::tuple<Ts...> unflatten_at(std::vector<Tensor>& v, std::index_sequence<I...>) {
    return std::tuple<Ts...>(std::move(v.at(I))...);
  }
};

}  // namespace compile_detail

/// The callable `compile` returns: call it with the tensors `fn` takes.
template <typename F>
class Compiled {
 public:
  Compiled(F fn, CompileOptions options)
      : fn_(std::move(fn)), impl_(compile_detail::make_compiled(std::move(options))) {}

  template <typename... Args>
  auto operator()(const Args&... args) const {
    static_assert((std::is_convertible_v<const Args&, const Tensor&> && ...),
                  "compile: the compiled function takes tensors only");
    using R = std::decay_t<std::invoke_result_t<const F&, const Args&...>>;
    if (!impl_) return fn_(args...);
    std::vector<Tensor> inputs{Tensor(args)...};
    std::vector<Tensor> outputs;
    compile_detail::call(*impl_, inputs, &run<R, Args...>, &fn_, outputs);
    return compile_detail::Results<R>::unflatten(outputs);
  }
  /// False when BRASA_COMPILE=0 made this the identity.
  bool enabled() const { return impl_ != nullptr; }

 private:
  template <typename R, typename... Args, size_t... I>
  static R invoke(const F& f, const std::vector<Tensor>& in, std::index_sequence<I...>) {
    return f(static_cast<const Args&>(in[I])...);
  }
  template <typename R, typename... Args>
  static void run(const void* fn, const std::vector<Tensor>& in, std::vector<Tensor>& out) {
    R r = invoke<R, Args...>(*static_cast<const F*>(fn), in, std::index_sequence_for<Args...>{});
    compile_detail::Results<R>::flatten(r, out);
  }

  F fn_;
  std::shared_ptr<compile_detail::CompiledFunction> impl_;
};

/// Compiles a callable of tensors returning a Tensor, a std::vector<Tensor> or a tuple of
/// Tensors. The first call traces `fn` (and returns its eager result); see CompileOptions.
/// (Modules: include brasa/compile/module.h.)
template <typename F>
requires(!std::is_base_of_v<nn::detail::ModuleHolderIndicator, std::decay_t<F>>)
    Compiled<std::decay_t<F>> compile(
        F&& fn, CompileOptions options = {},
        std::source_location where = std::source_location::current()) {
  if (options.name.empty())
    options.name = std::string("the function compiled at ") + where.file_name() + ":" +
                   std::to_string(where.line());
  return Compiled<std::decay_t<F>>(std::forward<F>(fn), std::move(options));
}

}  // namespace brasa
