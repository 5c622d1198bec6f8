// Optimizer::save / load through archives.

#include "brasa/archive/archive.h"
#include "brasa/optim/state_ivalue.h"

namespace brasa::optim {

void Optimizer::save(serialize::OutputArchive& archive) const {
  const IValue v = optimizer_state_to_ivalue(state_dict());
  for (const auto& e : v.toGenericDict()) archive.write(e.key().toStringRef(), e.value());
}

void Optimizer::load(serialize::InputArchive& archive) {
  GenericDict d;
  for (const char* key : {"state", "param_groups"}) {
    IValue v;
    archive.read(key, v);
    d.insert(IValue(key), v);
  }
  load_state_dict(optimizer_state_from_ivalue(IValue(d)));
}

}  // namespace brasa::optim
