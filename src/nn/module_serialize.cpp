// Module::save / load through archives: PyTorch's flat state_dict layout (dotted names).

#include "brasa/archive/archive.h"
#include "brasa/archive/error.h"
#include "brasa/core/error.h"
#include "brasa/nn/module.h"
#include "brasa/nn/state_dict.h"

namespace brasa::nn {

void Module::save(serialize::OutputArchive& archive) const {
  for (const auto& item : state_dict(*this)) archive.write(item.key(), item.value());
}

void Module::load(serialize::InputArchive& archive) {
  OrderedDict<std::string, Tensor> state;
  for (const std::string& key : archive.keys()) {
    Tensor t;
    if (archive.try_read(key, t)) state.insert(key, t);
  }
  // libtorch's loader walks the submodules, so what it reports is the first missing submodule or
  // tensor; say the same, then load_state_dict's list of every difference.
  auto has_prefix = [&](const std::string& prefix) {
    for (const auto& item : state)
      if (item.key().rfind(prefix, 0) == 0) return true;
    return false;
  };
  std::string first_missing;
  for (const auto& item : nn::state_dict(*this)) {
    const std::string& key = item.key();
    if (state.contains(key)) continue;
    first_missing = "No such serialized tensor '" + key + "'";
    for (size_t dot = key.find('.'); dot != std::string::npos; dot = key.find('.', dot + 1)) {
      if (!has_prefix(key.substr(0, dot + 1))) {
        first_missing = "No such serialized submodule: '" + key.substr(0, dot) + "'";
        break;
      }
    }
    break;
  }
  if (first_missing.empty()) {
    load_state_dict(*this, state, /*strict=*/true);
    return;
  }
  try {
    load_state_dict(*this, state, /*strict=*/true);
  } catch (const ValueError& e) {
    BRASA_THROW(SerializationError, "Module::load: ", first_missing, ". ", e.what());
  }
}

}  // namespace brasa::nn
