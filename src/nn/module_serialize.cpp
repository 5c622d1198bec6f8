// Module::save / load through archives: PyTorch's flat state_dict layout (dotted names).

#include "brasa/archive/archive.h"
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
  load_state_dict(*this, state, /*strict=*/true);
}

}  // namespace brasa::nn
