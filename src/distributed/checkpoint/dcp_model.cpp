// get_state_dict / load_state_dict: a model's parameters and buffers and its optimizer's state as
// checkpoint entries, placed like fully_shard places the parameters.

#include <map>

#include "brasa/brasa.h"
#include "brasa/distributed/checkpoint.h"
#include "brasa/distributed/fsdp.h"
#include "brasa/optim/optimizer.h"

namespace brasa::distributed::checkpoint {
namespace {

// Names: "model.<name>", "optim.<param>/<tensor state>", "optim.<param>#<scalar state>",
// "optim.group<g>#<option>". Parameter names have no '/' or '#', so they stay unambiguous.
std::string model_key(const std::string& name) { return "model." + name; }
std::string tensor_key(const std::string& param, const std::string& key) {
  return "optim." + param + "/" + key;
}
std::string scalar_key(const std::string& param, const std::string& key) {
  return "optim." + param + "#" + key;
}
std::string option_key(size_t group, const std::string& key) {
  return "optim.group" + std::to_string(group) + "#" + key;
}

Tensor scalar(double v) { return scalar_tensor(v, TensorOptions().dtype(kDouble)); }

// The model's entries: DTensors with a mesh, whole tensors without.
struct ModelEntries {
  std::vector<std::pair<std::string, DTensor>> sharded;  // with a mesh
  std::vector<std::pair<std::string, Tensor>> plain;     // without
  std::map<std::string, size_t> index;                   // name -> position
};

ModelEntries model_entries(nn::Module& model, const std::optional<DeviceMesh>& mesh) {
  ModelEntries m;
  if (mesh) {
    m.sharded = get_sharded_state_dict(model, *mesh);
    for (size_t i = 0; i < m.sharded.size(); ++i) m.index[m.sharded[i].first] = i;
  } else {
    for (const auto& item : model.named_parameters())
      m.plain.emplace_back(item.key(), item.value());
    for (const auto& item : model.named_buffers()) m.plain.emplace_back(item.key(), item.value());
    for (size_t i = 0; i < m.plain.size(); ++i) m.index[m.plain[i].first] = i;
  }
  return m;
}

void add_model(StateDict& sd, const ModelEntries& m) {
  for (const auto& [name, d] : m.sharded) sd.add(model_key(name), d);
  for (const auto& [name, t] : m.plain) sd.add(model_key(name), t.detach());
}

// The optimizer's parameters by state-dict index, named as the model names them.
std::vector<std::string> optimizer_param_names(nn::Module& model, const optim::Optimizer& opt) {
  std::map<std::string, std::string> by_key;
  for (const auto& item : model.named_parameters())
    by_key[optim::param_key(item.value())] = item.key();
  std::vector<std::string> names;
  for (const auto& group : opt.param_groups()) {
    for (const auto& p : group.params()) {
      auto it = by_key.find(optim::param_key(p));
      BRASA_CHECK(it != by_key.end(), "checkpoint: the optimizer has a parameter of shape ",
                  p.sizes(), " that is not a parameter of '", model.name(), "'");
      names.push_back(it->second);
    }
  }
  return names;
}

// A piece of state shaped like parameter `name`, placed like it.
void add_like_param(StateDict& sd, const std::string& key, const Tensor& local,
                    const ModelEntries& m, const std::string& name) {
  if (m.sharded.empty()) {
    sd.add(key, local);
    return;
  }
  const DTensor& p = m.sharded[m.index.at(name)].second;
  sd.add(key, DTensor::from_local(local, p.device_mesh(), p.placements(), p.shape()));
}

void check_supported(const optim::StateEntry& e, const std::string& param) {
  BRASA_CHECK_NOT_IMPLEMENTED(e.buffers.empty() && e.tensor_lists.empty() && e.strings.empty(),
                              "checkpoint: the optimizer state of parameter '", param,
                              "' has buffers, tensor lists or strings; distributed checkpoints ",
                              "hold parameter-shaped tensors and scalars only");
}

}  // namespace

StateDict get_state_dict(nn::Module& model, optim::Optimizer* optimizer,
                         const std::optional<DeviceMesh>& mesh) {
  StateDict sd;
  const ModelEntries m = model_entries(model, mesh);
  add_model(sd, m);
  if (!optimizer) return sd;
  const auto names = optimizer_param_names(model, *optimizer);
  const optim::OptimizerStateDict osd = optimizer->state_dict();
  for (const auto& [index, entry] : osd.state) {
    const std::string& name = names.at(static_cast<size_t>(index));
    check_supported(entry, name);
    for (const auto& [key, t] : entry.tensors) {
      if (t.defined()) add_like_param(sd, tensor_key(name, key), t, m, name);
    }
    for (const auto& [key, v] : entry.scalars) sd.add(scalar_key(name, key), scalar(v));
  }
  for (size_t g = 0; g < osd.param_groups.size(); ++g) {
    for (const auto& [key, v] : osd.param_groups[g].options.scalars) {
      sd.add(option_key(g, key), scalar(v));
    }
  }
  return sd;
}

LoadInfo load_state_dict(nn::Module& model, optim::Optimizer* optimizer, const std::string& dir,
                         const std::optional<DeviceMesh>& mesh, ProcessGroup* group) {
  const ModelEntries m = model_entries(model, mesh);
  StateDict sd;
  add_model(sd, m);
  optim::OptimizerStateDict osd;
  // Tensor pieces of optimizer state to fill: (state index, key) -> entry name.
  struct Slot {
    int64_t index;
    std::string key;
    std::string name;
    bool is_tensor;
  };
  std::vector<Slot> slots;
  if (optimizer) {
    const auto names = optimizer_param_names(model, *optimizer);
    osd = optimizer->state_dict();
    const serialize::dcp::Metadata meta = read_metadata(dir);
    std::map<std::string, size_t> param_index;
    for (size_t i = 0; i < names.size(); ++i) param_index[names[i]] = i;
    std::vector<Tensor> by_index;
    for (const auto& g : optimizer->param_groups()) {
      for (const auto& p : g.params()) by_index.push_back(p);
    }
    for (const auto& t : meta.tensors) {
      if (t.name.rfind("optim.", 0) != 0 || t.name.rfind("optim.group", 0) == 0) continue;
      const std::string rest = t.name.substr(6);
      const size_t sep = rest.find_first_of("/#");
      BRASA_CHECK_TYPED(SerializationError, sep != std::string::npos,
                        "checkpoint::load_state_dict: entry '", t.name, "' of ", dir,
                        " is not an optimizer state name");
      const std::string param = rest.substr(0, sep), key = rest.substr(sep + 1);
      auto it = param_index.find(param);
      BRASA_CHECK(it != param_index.end(), "checkpoint::load_state_dict: ", dir,
                  " has optimizer state for '", param, "', which the optimizer does not have");
      const int64_t index = static_cast<int64_t>(it->second);
      const bool is_tensor = rest[sep] == '/';
      if (is_tensor) {
        const Tensor& p = by_index[it->second];
        add_like_param(sd, t.name, empty(p.sizes(), TensorOptions().dtype(t.dtype)), m, param);
      } else {
        sd.add(t.name, scalar(0));
      }
      slots.push_back({index, key, t.name, is_tensor});
    }
    for (size_t g = 0; g < osd.param_groups.size(); ++g) {
      for (const auto& [key, v] : osd.param_groups[g].options.scalars) {
        if (meta.find(option_key(g, key))) sd.add(option_key(g, key), scalar(v));
      }
    }
  }
  const LoadInfo info = load(sd, dir, group);
  if (mesh) {
    set_sharded_state_dict(model, m.sharded);  // the DTensors' locals were filled in place
  }
  if (optimizer) {
    osd.state.clear();
    for (const auto& s : slots) {
      auto& entry = osd.state[s.index];
      const Tensor& t = sd.find(s.name)->local;
      if (s.is_tensor) {
        entry.tensors[s.key] = t;
      } else {
        entry.scalars[s.key] = t.item<double>();
      }
    }
    for (size_t g = 0; g < osd.param_groups.size(); ++g) {
      for (auto& [key, v] : osd.param_groups[g].options.scalars) {
        if (const auto* e = sd.find(option_key(g, key))) v = e->local.item<double>();
      }
    }
    optimizer->load_state_dict(osd);
  }
  return info;
}

}  // namespace brasa::distributed::checkpoint
