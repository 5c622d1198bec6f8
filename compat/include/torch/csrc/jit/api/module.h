#pragma once
// <torch/csrc/jit/api/module.h>: torch::jit::Module (also torch::jit::script::Module), the type a
// TorchScript program holds. brasa has no TorchScript (Note [No TorchScript] in
// <torch/csrc/jit/serialization/import.h>): the type exists so that such programs compile, and
// torch::jit::load, the only way to get a non-empty one, throws. Every method throws the same
// c10::NotImplementedError. Models move between brasa and PyTorch as safetensors files or
// torch::save archives (docs/compat.md).

#include <string>
#include <unordered_map>
#include <vector>

#include "ATen/core/ivalue.h"
#include "brasa/core/device.h"
#include "brasa/core/dtype.h"
#include "brasa/core/error.h"
#include "brasa/core/tensor.h"

namespace torch::jit {

using ::c10::IValue;
using Kwargs = std::unordered_map<std::string, IValue>;
using ExtraFilesMap = std::unordered_map<std::string, std::string>;

namespace detail {
/// Throws the error every TorchScript entry point gives; `what` names the call.
[[noreturn]] inline void no_torchscript(const std::string& what) {
  throw ::brasa::NotImplementedError(
      what +
      ": brasa has no TorchScript (it cannot load or run a TorchScript module). Save the "
      "model's weights with safetensors or torch.save from Python, define the model in "
      "C++ with torch::nn, and load them with torch::load or brasa's safetensors reader "
      "(docs/compat.md)");
}
}  // namespace detail

/// A TorchScript module; brasa cannot make one (see the top of this file).
class Module {
 public:
  Module() = default;
  IValue forward(std::vector<IValue> /*inputs*/, const Kwargs& /*kwargs*/ = Kwargs()) {
    detail::no_torchscript("torch::jit::Module::forward");
  }
  IValue operator()(std::vector<IValue> /*inputs*/) {
    detail::no_torchscript("torch::jit::Module::operator()");
  }
  IValue run_method(const std::string& name) {
    detail::no_torchscript("torch::jit::Module::run_method(\"" + name + "\")");
  }
  void train(bool /*on*/ = true) { detail::no_torchscript("torch::jit::Module::train"); }
  void eval() { detail::no_torchscript("torch::jit::Module::eval"); }
  bool is_training() const { detail::no_torchscript("torch::jit::Module::is_training"); }
  void to(::brasa::Device, ::brasa::ScalarType, bool /*non_blocking*/ = false) {
    detail::no_torchscript("torch::jit::Module::to");
  }
  void to(::brasa::ScalarType, bool /*non_blocking*/ = false) {
    detail::no_torchscript("torch::jit::Module::to");
  }
  void to(::brasa::Device, bool /*non_blocking*/ = false) {
    detail::no_torchscript("torch::jit::Module::to");
  }
  std::vector<::brasa::Tensor> parameters(bool /*recurse*/ = true) const {
    detail::no_torchscript("torch::jit::Module::parameters");
  }
  void save(const std::string& /*filename*/, const ExtraFilesMap& = ExtraFilesMap()) const {
    detail::no_torchscript("torch::jit::Module::save");
  }
};

namespace script {
using ::torch::jit::Module;
}  // namespace script

}  // namespace torch::jit
