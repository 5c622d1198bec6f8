// State dicts of a model with fully_shard units: sharded (DTensor per entry) and full.

#include <set>

#include "brasa/brasa.h"
#include "distributed/fsdp/fsdp_registry.h"

namespace brasa::distributed {
namespace {

std::vector<Placement> replicated(const DeviceMesh& mesh) {
  return std::vector<Placement>(static_cast<size_t>(mesh.ndim()), Replicate());
}

// Every entry of `model` as a DTensor whose local piece shares the entry's storage.
std::vector<std::pair<std::string, DTensor>> entries(nn::Module& model, const DeviceMesh& mesh) {
  std::vector<std::pair<std::string, DTensor>> out;
  for (const auto& item : model.named_parameters()) {
    auto unit = detail::unit_of(item.value());
    if (unit) {
      BRASA_CHECK(
          !unit->is_unsharded(), "state dict of '", model.name(), "': the unit of module '",
          unit->module().name(),
          "' is unsharded (inside its forward or backward); take state dicts between steps");
      out.emplace_back(item.key(), unit->sharded_parameter(item.value()));
    } else {
      out.emplace_back(item.key(),
                       DTensor::from_local(item.value().detach(), mesh, replicated(mesh)));
    }
  }
  for (const auto& item : model.named_buffers()) {
    out.emplace_back(item.key(), DTensor::from_local(item.value(), mesh, replicated(mesh)));
  }
  return out;
}

template <typename T>
void check_names(const char* op, const std::vector<std::pair<std::string, DTensor>>& have,
                 const std::vector<std::pair<std::string, T>>& given) {
  std::set<std::string> names;
  for (const auto& e : given) names.insert(e.first);
  for (const auto& e : have) {
    BRASA_CHECK(names.count(e.first), op, ": the state dict has no entry '", e.first, "'");
  }
  for (const auto& e : given) {
    bool known = false;
    for (const auto& h : have) known = known || h.first == e.first;
    BRASA_CHECK(known, op, ": unexpected entry '", e.first, "' (the model has no such ",
                "parameter or buffer)");
  }
}

template <typename T>
const T& find(const std::vector<std::pair<std::string, T>>& v, const std::string& name) {
  for (const auto& e : v) {
    if (e.first == name) return e.second;
  }
  BRASA_THROW(InternalError, "state dict entry '", name, "' vanished");
}

}  // namespace

std::vector<std::pair<std::string, DTensor>> get_sharded_state_dict(nn::Module& model,
                                                                    const DeviceMesh& mesh) {
  auto out = entries(model, mesh);
  NoGradGuard no_grad;
  for (auto& e : out) {
    e.second = DTensor::from_local(e.second.to_local().clone(), e.second.device_mesh(),
                                   e.second.placements(), e.second.shape());
  }
  return out;
}

std::vector<std::pair<std::string, Tensor>> get_full_state_dict(nn::Module& model,
                                                                const DeviceMesh& mesh) {
  std::vector<std::pair<std::string, Tensor>> out;
  for (const auto& e : entries(model, mesh)) {
    out.emplace_back(e.first, e.second.full_tensor().detach().clone());
  }
  return out;
}

void set_full_state_dict(nn::Module& model,
                         const std::vector<std::pair<std::string, Tensor>>& state) {
  const char* op = "set_full_state_dict";
  DeviceMesh mesh = [&] {
    for (const auto& item : model.named_parameters()) {
      if (auto unit = detail::unit_of(item.value())) return unit->mesh();
    }
    BRASA_THROW(ValueError, op, ": '", model.name(), "' has no fully_shard unit");
  }();
  const auto have = entries(model, mesh);
  check_names(op, have, state);
  for (const auto& e : have) {
    const Tensor& t = find(state, e.first);
    BRASA_CHECK(t.sizes() == IntArrayRef(e.second.shape()), op, ": entry '", e.first,
                "' has shape ", t.sizes(), " but the model's is ", IntArrayRef(e.second.shape()));
  }
  NoGradGuard no_grad;
  for (const auto& e : have) {
    const DTensor& d = e.second;
    Tensor piece =
        DTensor::distribute(find(state, e.first), d.device_mesh(), d.placements()).to_local();
    Tensor local = d.to_local();
    local.copy_(piece);
  }
}

void set_sharded_state_dict(nn::Module& model,
                            const std::vector<std::pair<std::string, DTensor>>& state) {
  const char* op = "set_sharded_state_dict";
  BRASA_CHECK(!state.empty(), op, ": the state dict is empty");
  const auto have = entries(model, state.front().second.device_mesh());
  check_names(op, have, state);
  for (const auto& e : have) {
    const DTensor& d = find(state, e.first);
    BRASA_CHECK(d.shape() == e.second.shape() && d.placements() == e.second.placements() &&
                    d.device_mesh() == e.second.device_mesh(),
                op, ": entry '", e.first, "' is ", d.to_string(), " but the model's is ",
                e.second.to_string());
  }
  NoGradGuard no_grad;
  for (const auto& e : have) {
    Tensor local = e.second.to_local();
    local.copy_(find(state, e.first).to_local());
  }
}

}  // namespace brasa::distributed
