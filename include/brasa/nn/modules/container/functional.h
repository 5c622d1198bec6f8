#pragma once
// Functional (torch::nn::Functional): wraps a function of one Tensor (a free function, a lambda, or
// a function with extra arguments bound after the input: `Functional(torch::elu, 1.0, 0, 1)`)
// as a module, so it can sit in a Sequential.

#include <functional>
#include <memory>
#include <utility>

#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

class BRASA_API FunctionalImpl : public Cloneable<FunctionalImpl> {
 public:
  using Function = std::function<Tensor(Tensor)>;

  explicit FunctionalImpl(Function function);
  template <typename SomeFunction, typename... Args,
            typename = std::enable_if_t<(sizeof...(Args) > 0)>>
  explicit FunctionalImpl(SomeFunction original_function, Args&&... args)
      : function_([f = std::move(original_function),
                   bound = std::make_tuple(std::forward<Args>(args)...)](Tensor input) {
          return std::apply([&](const auto&... a) { return Tensor(f(input, a...)); }, bound);
        }) {}

  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  /// Calls the wrapped function on `input`.
  Tensor forward(Tensor input);
  Tensor operator()(Tensor input) { return forward(std::move(input)); }
  bool is_serializable() const override { return false; }

 private:
  Function function_;
};
BRASA_MODULE(Functional);

}  // namespace brasa::nn
