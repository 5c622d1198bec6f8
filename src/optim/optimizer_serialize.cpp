// Optimizer::save / load through archives, and the archives of libtorch before 1.5.

#include <algorithm>
#include <string>
#include <vector>

#include "brasa/archive/archive.h"
#include "brasa/core/error.h"
#include "brasa/core/warning.h"
#include "brasa/optim/state_ivalue.h"

namespace brasa::optim {

void Optimizer::save(serialize::OutputArchive& archive) const {
  const IValue v = optimizer_state_to_ivalue(state_dict());
  for (const auto& e : v.toGenericDict()) archive.write(e.key().toStringRef(), e.value());
}

void Optimizer::load(serialize::InputArchive& archive) {
  IValue state, groups;
  if (!archive.try_read("state", state)) {
    const std::vector<LegacyField> legacy = legacy_fields();
    const std::vector<std::string> keys = archive.keys();
    if (!legacy.empty() && std::any_of(keys.begin(), keys.end(), [&](const std::string& k) {
          return k == legacy[0].archive_key || k == std::string(legacy[0].archive_key) + "/size";
        })) {
      load_legacy(archive);
      return;
    }
    archive.read("state", state);  // throws, naming the key
  }
  archive.read("param_groups", groups);
  GenericDict d;
  d.insert(IValue("state"), state);
  d.insert(IValue("param_groups"), groups);
  load_state_dict(optimizer_state_from_ivalue(IValue(d)));
}

// Note [Legacy optimizer archives]
void Optimizer::load_legacy(serialize::InputArchive& archive) {
  warn(
      "Optimizer::load: this archive is in libtorch's old serialization format (before 1.5); it "
      "was read, but save the optimizer again to keep it readable");
  // The groups and options stay this optimizer's; the state comes from the archive, through
  // load_state_dict's checks (parameter i of the first group is state index i).
  OptimizerStateDict dict = state_dict();
  dict.state.clear();
  auto entry = [&](size_t i) -> StateEntry& {
    auto [it, fresh] = dict.state.try_emplace(static_cast<int64_t>(i));
    if (fresh) make_param_state()->save(it->second);
    return it->second;
  };
  for (const LegacyField& f : legacy_fields()) {
    const std::string key = f.archive_key;
    if (f.kind == LegacyField::kBuffer || f.kind == LegacyField::kScalar) {
      Tensor t;
      archive.read(key, t, /*is_buffer=*/true);
      if (f.kind == LegacyField::kBuffer)
        entry(0).buffers[f.state_key] = t;
      else
        entry(0).scalars[f.state_key] = t.item<double>();
      continue;
    }
    Tensor size;
    archive.read(key + "/size", size);
    std::vector<Tensor> tensors(static_cast<size_t>(size.item<int64_t>()));
    for (size_t i = 0; i < tensors.size(); ++i)
      archive.read(key + "/" + std::to_string(i), tensors[i], /*is_buffer=*/true);
    if (f.kind == LegacyField::kList) {
      entry(0).tensor_lists[f.state_key] = std::move(tensors);
      continue;
    }
    for (size_t i = 0; i < tensors.size(); ++i) {
      if (f.kind == LegacyField::kPerParamStep)
        entry(i).scalars[f.state_key] = tensors[i].item<double>();
      else
        entry(i).tensors[f.state_key] = tensors[i];
    }
  }
  load_state_dict(dict);
}

}  // namespace brasa::optim
