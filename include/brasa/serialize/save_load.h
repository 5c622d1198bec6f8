#pragma once
// brasa::save / brasa::load (torch::save / torch::load): a tensor, a vector of tensors, a module
// or an optimizer to and from a torch.save-format file, stream or writer function, through an
// archive. A module is written as PyTorch's flat state_dict, so Python's
// `model.load_state_dict(torch.load(path, weights_only=True))` reads it.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "brasa/archive/archive.h"
#include "brasa/nn/module.h"
#include "brasa/nn/pimpl.h"
#include "brasa/optim/optimizer.h"

namespace brasa {
namespace serialize {

inline OutputArchive& operator<<(OutputArchive& archive, const Tensor& tensor) {
  archive.write("0", tensor);
  return archive;
}
inline InputArchive& operator>>(InputArchive& archive, Tensor& tensor) {
  archive.read("0", tensor);
  return archive;
}
inline OutputArchive& operator<<(OutputArchive& archive, const std::shared_ptr<nn::Module>& m) {
  m->save(archive);
  return archive;
}
inline InputArchive& operator>>(InputArchive& archive, const std::shared_ptr<nn::Module>& m) {
  m->load(archive);
  return archive;
}
template <typename Contained>
OutputArchive& operator<<(OutputArchive& archive, const nn::ModuleHolder<Contained>& m) {
  m->save(archive);
  return archive;
}
template <typename Contained>
InputArchive& operator>>(InputArchive& archive, nn::ModuleHolder<Contained>& m) {
  m->load(archive);
  return archive;
}
inline OutputArchive& operator<<(OutputArchive& archive, const optim::Optimizer& optimizer) {
  optimizer.save(archive);
  return archive;
}
inline InputArchive& operator>>(InputArchive& archive, optim::Optimizer& optimizer) {
  optimizer.load(archive);
  return archive;
}

}  // namespace serialize

/// Saves `value` (anything with `archive << value`) to `args`: a file name (written atomically),
/// an std::ostream, or a function taking (data, size) and returning the bytes it consumed.
template <typename Value, typename... SaveToArgs>
void save(const Value& value, SaveToArgs&&... args) {
  serialize::OutputArchive archive;
  archive << value;
  archive.save_to(std::forward<SaveToArgs>(args)...);
}

/// Saves the tensors under the keys "0", "1", ...
template <typename... SaveToArgs>
void save(const std::vector<Tensor>& tensor_vec, SaveToArgs&&... args) {
  serialize::OutputArchive archive;
  for (size_t i = 0; i < tensor_vec.size(); ++i) archive.write(std::to_string(i), tensor_vec[i]);
  archive.save_to(std::forward<SaveToArgs>(args)...);
}

/// Loads into `value` (anything with `archive >> value`) from a file name, an std::istream or
/// bytes; a module or optimizer is filled in place. Throws SerializationError for a bad file.
template <typename Value, typename... LoadFromArgs>
void load(Value& value, LoadFromArgs&&... args) {
  serialize::InputArchive archive;
  archive.load_from(std::forward<LoadFromArgs>(args)...);
  archive >> value;
}

/// Loads the tensors saved under "0", "1", ... (replacing the vector's content).
template <typename... LoadFromArgs>
void load(std::vector<Tensor>& tensor_vec, LoadFromArgs&&... args) {
  serialize::InputArchive archive;
  archive.load_from(std::forward<LoadFromArgs>(args)...);
  tensor_vec.clear();
  Tensor t;
  for (size_t i = 0; archive.try_read(std::to_string(i), t); ++i) {
    tensor_vec.push_back(t);
    t = Tensor();
  }
}

}  // namespace brasa
