// Optimizer state dicts <-> IValue trees.

#include "brasa/optim/state_ivalue.h"

#include "brasa/archive/error.h"

namespace brasa::optim {
namespace {

const char* const kTensors = "tensors";
const char* const kBuffers = "buffers";
const char* const kTensorLists = "tensor_lists";
const char* const kScalars = "scalars";
const char* const kStrings = "strings";

template <typename Map, typename Convert>
void put(GenericDict& out, const char* key, const Map& map, Convert convert) {
  if (map.empty()) return;
  GenericDict d;
  for (const auto& [name, value] : map) d.insert(IValue(name), convert(value));
  out.insert(IValue(key), IValue(d));
}

IValue entry_to_ivalue(const StateEntry& e) {
  GenericDict out;
  auto tensor = [](const Tensor& t) { return IValue(t); };
  put(out, kTensors, e.tensors, tensor);
  put(out, kBuffers, e.buffers, tensor);
  put(out, kTensorLists, e.tensor_lists, [](const std::vector<Tensor>& list) {
    std::vector<IValue> items(list.begin(), list.end());
    return IValue(std::move(items));
  });
  put(out, kScalars, e.scalars, [](double x) { return IValue(x); });
  put(out, kStrings, e.strings, [](const std::string& s) { return IValue(s); });
  return IValue(out);
}

const GenericDict dict_at(const IValue& v, const std::string& path) {
  BRASA_CHECK_TYPED(SerializationError, v.isGenericDict(), "optimizer state: ", path, " is a ",
                    v.tagKind(), ", expected a dict");
  return v.toGenericDict();
}

template <typename Fn>
void each(const GenericDict& d, const char* key, const std::string& path, Fn fn) {
  auto it = d.find(IValue(key));
  if (it == d.end()) return;
  const std::string sub = path + "." + key;
  for (const auto& e : dict_at(it->value(), sub)) {
    BRASA_CHECK_TYPED(SerializationError, e.key().isString(), "optimizer state: ", sub,
                      " has a key of kind ", e.key().tagKind(), ", expected strings");
    fn(e.key().toStringRef(), e.value(), sub + "." + e.key().toStringRef());
  }
}

const Tensor& tensor_at(const IValue& v, const std::string& path) {
  BRASA_CHECK_TYPED(SerializationError, v.isTensor(), "optimizer state: ", path, " is a ",
                    v.tagKind(), ", expected a Tensor");
  return v.toTensor();
}

StateEntry entry_from_ivalue(const IValue& v, const std::string& path) {
  const GenericDict d = dict_at(v, path);
  StateEntry e;
  each(d, kTensors, path, [&](const std::string& k, const IValue& x, const std::string& p) {
    e.tensors[k] = tensor_at(x, p);
  });
  each(d, kBuffers, path, [&](const std::string& k, const IValue& x, const std::string& p) {
    e.buffers[k] = tensor_at(x, p);
  });
  each(d, kTensorLists, path, [&](const std::string& k, const IValue& x, const std::string& p) {
    BRASA_CHECK_TYPED(SerializationError, x.isList(), "optimizer state: ", p, " is a ", x.tagKind(),
                      ", expected a list of tensors");
    auto& list = e.tensor_lists[k];
    for (const auto& item : x.toListRef()) list.push_back(tensor_at(item, p));
  });
  each(d, kScalars, path, [&](const std::string& k, const IValue& x, const std::string& p) {
    BRASA_CHECK_TYPED(SerializationError, x.isDouble() || x.isInt(), "optimizer state: ", p,
                      " is a ", x.tagKind(), ", expected a number");
    e.scalars[k] = x.isDouble() ? x.toDouble() : static_cast<double>(x.toInt());
  });
  each(d, kStrings, path, [&](const std::string& k, const IValue& x, const std::string& p) {
    BRASA_CHECK_TYPED(SerializationError, x.isString(), "optimizer state: ", p, " is a ",
                      x.tagKind(), ", expected a string");
    e.strings[k] = x.toStringRef();
  });
  return e;
}

}  // namespace

IValue optimizer_state_to_ivalue(const OptimizerStateDict& dict) {
  GenericDict state;
  for (const auto& [index, entry] : dict.state) state.insert(IValue(index), entry_to_ivalue(entry));
  std::vector<IValue> groups;
  for (const auto& g : dict.param_groups) {
    GenericDict group;
    std::vector<IValue> params(g.params.begin(), g.params.end());
    group.insert(IValue("params"), IValue(std::move(params)));
    group.insert(IValue("options"), entry_to_ivalue(g.options));
    groups.emplace_back(group);
  }
  GenericDict out;
  out.insert(IValue("state"), IValue(state));
  out.insert(IValue("param_groups"), IValue(std::move(groups)));
  return IValue(out);
}

OptimizerStateDict optimizer_state_from_ivalue(const IValue& value) {
  const GenericDict top = dict_at(value, "the top level");
  BRASA_CHECK_TYPED(SerializationError,
                    top.contains(IValue("state")) && top.contains(IValue("param_groups")),
                    "optimizer state: expected the keys 'state' and 'param_groups'");
  OptimizerStateDict dict;
  for (const auto& e : dict_at(top.at(IValue("state")), "'state'")) {
    BRASA_CHECK_TYPED(SerializationError, e.key().isInt(), "optimizer state: 'state' has a key of ",
                      "kind ", e.key().tagKind(), ", expected parameter indices");
    const int64_t index = e.key().toInt();
    dict.state[index] = entry_from_ivalue(e.value(), "state." + std::to_string(index));
  }
  const IValue& groups = top.at(IValue("param_groups"));
  BRASA_CHECK_TYPED(SerializationError, groups.isList(), "optimizer state: 'param_groups' is a ",
                    groups.tagKind(), ", expected a list");
  size_t g = 0;
  for (const auto& group : groups.toListRef()) {
    const std::string path = "param_groups[" + std::to_string(g++) + "]";
    const GenericDict d = dict_at(group, path);
    BRASA_CHECK_TYPED(SerializationError,
                      d.contains(IValue("params")) && d.contains(IValue("options")),
                      "optimizer state: ", path, " needs the keys 'params' and 'options'");
    GroupEntry entry;
    const IValue& params = d.at(IValue("params"));
    BRASA_CHECK_TYPED(SerializationError, params.isList(), "optimizer state: ", path,
                      ".params is a ", params.tagKind(), ", expected a list of ints");
    for (const auto& p : params.toListRef()) {
      BRASA_CHECK_TYPED(SerializationError, p.isInt(), "optimizer state: ", path,
                        ".params holds a ", p.tagKind(), ", expected ints");
      entry.params.push_back(p.toInt());
    }
    entry.options = entry_from_ivalue(d.at(IValue("options")), path + ".options");
    dict.param_groups.push_back(std::move(entry));
  }
  return dict;
}

}  // namespace brasa::optim
