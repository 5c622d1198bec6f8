#pragma once
// <torch/csrc/jit/serialization/import.h>: torch::jit::load.
//
// Note [No TorchScript]
// brasa implements no TorchScript: no interpreter, no importer for TorchScript archives. Whatever
// else brasa lacks is a compile error, but a libtorch program's usual first lines are
// `torch::jit::load(path)` inside a try/catch of c10::Error, so that call compiles and throws a
// c10::NotImplementedError (a c10::Error) at run time that says so and names the way to move a
// model instead; torch::jit::Module compiles too and every method throws the same error.

#include <iosfwd>
#include <optional>
#include <string>

#include "torch/csrc/jit/api/module.h"

namespace torch::jit {

inline Module load(const std::string& filename, std::optional<::brasa::Device> = std::nullopt) {
  detail::no_torchscript("torch::jit::load(\"" + filename + "\")");
}
inline Module load(const std::string& filename, std::optional<::brasa::Device>, ExtraFilesMap&) {
  detail::no_torchscript("torch::jit::load(\"" + filename + "\")");
}
inline Module load(std::istream&, std::optional<::brasa::Device> = std::nullopt) {
  detail::no_torchscript("torch::jit::load(stream)");
}
inline Module load(std::istream&, std::optional<::brasa::Device>, ExtraFilesMap&) {
  detail::no_torchscript("torch::jit::load(stream)");
}

}  // namespace torch::jit
