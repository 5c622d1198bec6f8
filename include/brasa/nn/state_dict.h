#pragma once
// state_dict / load_state_dict as free functions over nn::Module (PyTorch's Module.state_dict and
// Module.load_state_dict): a flat, ordered name -> tensor map of every parameter and buffer.

#include <map>
#include <string>
#include <vector>

#include "brasa/core/tensor.h"
#include "brasa/nn/module.h"
#include "brasa/nn/ordered_dict.h"

namespace brasa::nn {

/// Keys load_state_dict did not match (PyTorch's _IncompatibleKeys).
struct LoadStateDictResult {
  std::vector<std::string> missing_keys;
  std::vector<std::string> unexpected_keys;
};

/// Every parameter and buffer of `module` and its descendants, detached (sharing storage), named
/// with dotted paths, in PyTorch's order: a module's own parameters, then its own buffers, then
/// each child's entries in registration order.
BRASA_API OrderedDict<std::string, Tensor> state_dict(const Module& module);

/// Copies `state` into the module's parameters and buffers in place (no autograd recording; dtype
/// converted like copy_). Shape mismatches always throw ValueError naming the keys and both
/// shapes; with `strict`, missing or unexpected keys throw too, all listed in ONE ValueError.
/// Nothing is copied when it throws. Returns the missing and unexpected keys (non-strict).
BRASA_API LoadStateDictResult load_state_dict(Module& module,
                                              const OrderedDict<std::string, Tensor>& state,
                                              bool strict = true);
BRASA_API LoadStateDictResult load_state_dict(Module& module,
                                              const std::map<std::string, Tensor>& state,
                                              bool strict = true);

}  // namespace brasa::nn
