#pragma once
#if __cplusplus < 202002L
#error \
    "<brasa/compile/module.h> needs C++20 (brasa::compile takes std::source_location): set CMAKE_CXX_STANDARD 20 or pass -std=c++20"
#endif
// compile(module): a module whose forward is compiled with its parameters and buffers passed as
// graph inputs, so optimizer updates (in place) and replaced tensors (load_state_dict, to())
// never leave a compiled graph reading stale tensors: a replaced tensor fails or passes the
// guards like any input. Training and eval mode have separate graphs.

#include <memory>
#include <source_location>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "brasa/compile.h"
#include "brasa/nn/module.h"
#include "brasa/nn/pimpl.h"

namespace brasa {

template <typename Impl>
class CompiledModule {
 public:
  CompiledModule(std::shared_ptr<Impl> module, CompileOptions options)
      : module_(std::move(module)),
        train_(compile_detail::make_compiled(options)),
        eval_(compile_detail::make_compiled(options)) {}

  template <typename... Args>
  auto operator()(const Args&... args) const {
    using R = std::decay_t<decltype(std::declval<Impl&>().forward(args...))>;
    const auto& impl = module_->is_training() ? train_ : eval_;
    if (!impl) return module_->forward(args...);
    std::vector<Tensor> inputs{Tensor(args)...};
    for (const Tensor& p : module_->parameters()) inputs.push_back(p);
    for (const Tensor& b : module_->buffers()) inputs.push_back(b);
    std::vector<Tensor> outputs;
    compile_detail::call(*impl, inputs, &run<R, Args...>, module_.get(), outputs);
    return compile_detail::Results<R>::unflatten(outputs);
  }
  const std::shared_ptr<Impl>& module() const { return module_; }

 private:
  template <typename R, typename... Args, size_t... I>
  static R invoke(Impl& m, const std::vector<Tensor>& in, std::index_sequence<I...>) {
    return m.forward(static_cast<const Args&>(in[I])...);
  }
  // Calls forward with the leading inputs; the parameters and buffers that follow are the
  // module's own tensors, so the tracer sees them as the graph inputs they were passed as.
  template <typename R, typename... Args>
  static void run(const void* m, const std::vector<Tensor>& in, std::vector<Tensor>& out) {
    R r = invoke<R, Args...>(*static_cast<Impl*>(const_cast<void*>(m)), in,
                             std::index_sequence_for<Args...>{});
    compile_detail::Results<R>::flatten(r, out);
  }

  std::shared_ptr<Impl> module_;
  std::shared_ptr<compile_detail::CompiledFunction> train_, eval_;
};

/// Compiles `module`'s forward (see CompiledModule); the module is shared, not copied.
template <typename Holder>
requires nn::detail::is_module_holder_v<Holder>
    CompiledModule<typename std::decay_t<Holder>::ContainedType> compile(
        Holder&& module, CompileOptions options = {},
        std::source_location where = std::source_location::current()) {
  using Impl = typename std::decay_t<Holder>::ContainedType;
  if (options.name.empty())
    options.name = std::string("the module compiled at ") + where.file_name() + ":" +
                   std::to_string(where.line());
  return CompiledModule<Impl>(module.ptr(), std::move(options));
}

}  // namespace brasa
