#pragma once
// libtorch's basic autograd nodes that programs use directly: UndefinedGrad, whose outputs are
// copies of its inputs and whose backward passes undefined gradients on (what a function upstream
// sees when a gradient is "None"). brasa writes it as a custom Function.

#include <utility>

#include "brasa/autograd/custom_function.h"
#include "c10/brasa_namespaces.h"

namespace brasa::autograd {

namespace detail {
struct UndefinedGradFunction : Function<UndefinedGradFunction> {
  static variable_list forward(AutogradContext*, const variable_list& inputs) {
    variable_list out;
    out.reserve(inputs.size());
    for (const Variable& t : inputs) out.push_back(t.defined() ? t.clone() : Variable());
    return out;
  }
  static variable_list backward(AutogradContext*, const variable_list& grads) {
    return variable_list(grads.size());
  }
};
}  // namespace detail

/// `UndefinedGrad().apply({x})`: x's copy, whose gradient flows back as undefined.
struct UndefinedGrad {
  variable_list apply(variable_list&& inputs) const {
    return detail::UndefinedGradFunction::apply(std::move(inputs));
  }
  variable_list operator()(variable_list&& inputs) const { return apply(std::move(inputs)); }
};

}  // namespace brasa::autograd
