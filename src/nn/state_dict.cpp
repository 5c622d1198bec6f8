#include "brasa/nn/state_dict.h"

#include <sstream>

#include "brasa/autograd/grad_mode.h"
#include "brasa/core/error.h"

namespace brasa::nn {

namespace {

// PyTorch's order: own parameters, own buffers, then each child (recursively).
void collect(const Module& module, const std::string& prefix,
             OrderedDict<std::string, Tensor>& out) {
  for (const auto& item : module.named_parameters(/*recurse=*/false)) {
    out.insert(prefix + item.key(), item.value());
  }
  for (const auto& item : module.named_buffers(/*recurse=*/false)) {
    out.insert(prefix + item.key(), item.value());
  }
  for (const auto& child : module.named_children()) {
    collect(*child.value(), prefix + child.key() + ".", out);
  }
}

std::string shape_str(IntArrayRef s) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < s.size(); ++i) os << (i ? ", " : "") << s[i];
  os << ']';
  return os.str();
}

std::string join(const std::vector<std::string>& keys) {
  std::string s;
  for (const auto& k : keys) s += (s.empty() ? "\"" : ", \"") + k + "\"";
  return s;
}

}  // namespace

OrderedDict<std::string, Tensor> state_dict(const Module& module) {
  OrderedDict<std::string, Tensor> live("Key");
  collect(module, "", live);
  OrderedDict<std::string, Tensor> out("Key");
  for (const auto& item : live) out.insert(item.key(), item.value().detach());
  return out;
}

LoadStateDictResult load_state_dict(Module& module, const OrderedDict<std::string, Tensor>& state,
                                    bool strict) {
  OrderedDict<std::string, Tensor> own("Key");
  collect(module, "", own);
  LoadStateDictResult result;
  std::vector<std::string> mismatches;
  for (const auto& item : own) {
    const Tensor* src = state.find(item.key());
    if (src == nullptr) {
      result.missing_keys.push_back(item.key());
    } else if (!src->defined() || src->sizes() != item.value().sizes()) {
      mismatches.push_back(brasa::detail::str_cat(
          "size mismatch for ", item.key(), ": copying a param with shape ",
          src->defined() ? shape_str(src->sizes()) : std::string("<undefined>"),
          " from checkpoint, the shape in current model is ", shape_str(item.value().sizes()),
          "."));
    }
  }
  for (const auto& item : state) {
    if (!own.contains(item.key())) result.unexpected_keys.push_back(item.key());
  }
  const bool key_errors =
      strict && (!result.missing_keys.empty() || !result.unexpected_keys.empty());
  if (key_errors || !mismatches.empty()) {
    std::string msg = "Error(s) in loading state_dict for " + module.name() + ":";
    if (strict && !result.missing_keys.empty()) {
      msg += "\n\tMissing key(s) in state_dict: " + join(result.missing_keys) + ".";
    }
    if (strict && !result.unexpected_keys.empty()) {
      msg += "\n\tUnexpected key(s) in state_dict: " + join(result.unexpected_keys) + ".";
    }
    for (const auto& m : mismatches) msg += "\n\t" + m;
    BRASA_THROW(ValueError, msg);
  }
  NoGradGuard no_grad;
  for (const auto& item : own) {
    if (const Tensor* src = state.find(item.key())) item.value().copy_(*src);
  }
  return result;
}

LoadStateDictResult load_state_dict(Module& module, const std::map<std::string, Tensor>& state,
                                    bool strict) {
  OrderedDict<std::string, Tensor> dict("Key");
  for (const auto& [k, v] : state) dict.insert(k, v);
  return load_state_dict(module, dict, strict);
}

}  // namespace brasa::nn
