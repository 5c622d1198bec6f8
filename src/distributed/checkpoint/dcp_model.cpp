// get_state_dict / load_state_dict: a model's parameters and buffers and its optimizer's state as
// checkpoint entries, placed like fully_shard places the parameters.

#include <algorithm>
#include <map>

#include "brasa/brasa.h"
#include "brasa/distributed/checkpoint.h"
#include "brasa/distributed/fsdp.h"
#include "brasa/distributed/tensor_parallel.h"
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

// The model's entries: DTensors with a mesh, whole tensors without; and the tensor-parallel
// layouts of the parameters parallelize_module took (Note [DCP of tensor parallel]).
struct ModelEntries {
  std::vector<std::pair<std::string, DTensor>> sharded;  // with a mesh
  std::vector<std::pair<std::string, Tensor>> plain;     // without
  std::map<std::string, size_t> index;                   // name -> position
  std::map<std::string, TensorParallelLayout> tp;        // parameters under tensor parallel
  int tp_rank = 0;  // on the TP mesh (all TP parameters share it): replicas store at 0 only
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
  std::optional<DeviceMesh> tp_mesh;
  for (const auto& item : model.named_parameters()) {
    auto layout = tensor_parallel_layout(item.value());
    if (!layout) continue;
    BRASA_CHECK(!tp_mesh || *tp_mesh == layout->mesh, "checkpoint: parameter '", item.key(),
                "' is tensor parallel over ", layout->mesh.to_string(), " but others over ",
                tp_mesh->to_string(), "; one TP mesh per model");
    tp_mesh = layout->mesh;
    m.tp.emplace(item.key(), std::move(*layout));
  }
  if (tp_mesh) m.tp_rank = tp_mesh->get_local_rank();
  return m;
}

// Note [DCP of tensor parallel]. A parameter parallelize_module took holds, on TP rank t of n,
// the piece of its global tensor its layout says; fully_shard over the other mesh dim then
// dim-0-shards that piece. The entry's box in TP-local coordinates (what the DTensor over the
// FSDP mesh gives) maps to global ones on the TP-sharded dim d: local index i of block j (a
// fused dim has k blocks of L/k, each sharded alone; otherwise one block of L) is global
// j*(L/k)*n + t*(L/k) + i - j*(L/k). The box is cut where blocks end, so a rank may add
// several pieces of one tensor (fused q/k/v under FSDP); replicated parameters, and those TP
// left alone, are stored by TP rank 0 only.
void add_entry(StateDict& sd, const std::string& key, const StateDict::Entry& e,
               const ModelEntries& m, const std::string& name) {
  auto it = m.tp.find(name);
  if (it == m.tp.end() || it->second.placement.is_replicate()) {
    if (e.plain) {  // rank 0 of the group stores it (TP rank 0 of any mesh)
      sd.add(key, e.local);
    } else {
      sd.add_piece(key, e.local, e.shape, e.offsets, e.writer && m.tp_rank == 0);
    }
    return;
  }
  const TensorParallelLayout& l = it->second;
  const int64_t nd = static_cast<int64_t>(e.shape.size());
  const int64_t d = l.placement.dim < 0 ? l.placement.dim + nd : l.placement.dim;
  const int64_t n = l.mesh.size(), t = m.tp_rank, k = l.fused;
  const int64_t block = e.shape[static_cast<size_t>(d)] / k;  // TP-local rows of one block
  const int64_t lo = e.offsets[static_cast<size_t>(d)], len = e.local.size(d);
  bool added = false;
  for (int64_t j = 0; j < k; ++j) {
    const int64_t a = std::max(lo, j * block), b = std::min(lo + len, (j + 1) * block);
    if (b <= a) continue;
    std::vector<int64_t> offsets = e.offsets;
    offsets[static_cast<size_t>(d)] = j * block * n + t * block + (a - j * block);
    sd.add_piece(key, e.local.narrow(d, a - lo, b - a), l.shape, offsets, e.writer);
    added = true;
  }
  if (!added) {  // an empty FSDP shard: the name still appears on every rank
    sd.add_piece(key, e.local.narrow(0, 0, 0), l.shape,
                 std::vector<int64_t>(static_cast<size_t>(nd), 0), false);
  }
}

// The entry a DTensor (over the FSDP mesh) or a whole tensor would make, before TP's mapping.
StateDict::Entry local_entry(const DTensor& d) {
  StateDict one;
  one.add("x", d);
  return one.entries()[0];
}
StateDict::Entry local_entry(const Tensor& t) {
  StateDict one;
  one.add("x", t);
  return one.entries()[0];
}

void add_model(StateDict& sd, const ModelEntries& m) {
  for (const auto& [name, d] : m.sharded) add_entry(sd, model_key(name), local_entry(d), m, name);
  for (const auto& [name, t] : m.plain)
    add_entry(sd, model_key(name), local_entry(t.detach()), m, name);
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
    add_entry(sd, key, local_entry(local), m, name);
    return;
  }
  const DTensor& p = m.sharded[m.index.at(name)].second;
  add_entry(sd, key,
            local_entry(DTensor::from_local(local, p.device_mesh(), p.placements(), p.shape())), m,
            name);
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
    Tensor base;  // the whole local tensor its pieces view
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
      Tensor base;
      if (is_tensor) {
        const Tensor& p = by_index[it->second];
        base = empty(p.sizes(), TensorOptions().dtype(t.dtype));
        add_like_param(sd, t.name, base, m, param);
      } else {
        base = scalar(0);
        sd.add(t.name, base);
      }
      slots.push_back({index, key, t.name, is_tensor, base});
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
      if (s.is_tensor) {
        entry.tensors[s.key] = s.base;
      } else {
        entry.scalars[s.key] = s.base.item<double>();
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
