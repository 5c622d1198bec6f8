#pragma once
// Activation checkpointing of modules: checkpoint_sequential (torch.utils.checkpoint's) and
// CheckpointWrapper, a module that checkpoints the module it wraps (as
// torch.distributed.algorithms._checkpoint.checkpoint_wrapper does). See brasa/utils/checkpoint.h.

#include <memory>
#include <string>

#include "brasa/nn/module.h"
#include "brasa/nn/modules/container/any.h"
#include "brasa/nn/modules/container/sequential.h"
#include "brasa/nn/pimpl.h"
#include "brasa/utils/checkpoint.h"

namespace brasa::utils {

/// Runs `modules` on `input` in `segments` runs of consecutive modules (the last run takes the
/// remainder); every run but the last is checkpointed, as in PyTorch. Each module must take and
/// return one Tensor. ValueError when segments is not in [1, modules->size()].
BRASA_API Tensor checkpoint_sequential(const nn::Sequential& modules, int64_t segments,
                                       const Tensor& input, CheckpointOptions options = {});

/// Wraps a module of one Tensor in, one Tensor out, and checkpoints its forward. The wrapped
/// module is the child "module", so its parameters are named "module.<name>". A plain Module (not
/// Cloneable), like PyTorch's checkpoint_wrapper: clone the wrapped module instead.
class BRASA_API CheckpointWrapperImpl : public nn::Module {
 public:
  template <typename ModuleHolder>
  explicit CheckpointWrapperImpl(const ModuleHolder& module, CheckpointOptions options = {})
      : module_(module), options_(options) {
    register_module("module", module_.ptr());
  }
  Tensor forward(const Tensor& input);
  const nn::AnyModule& module() const { return module_; }

 private:
  nn::AnyModule module_;
  CheckpointOptions options_;
};
BRASA_MODULE(CheckpointWrapper);

}  // namespace brasa::utils
