// OutputArchive / InputArchive over an insertion-ordered dict, stored as a torch.save file.

#include "brasa/archive/archive.h"

#include <istream>
#include <ostream>

#include "brasa/archive/error.h"
#include "brasa/archive/pt.h"
#include "brasa/autograd/grad_mode.h"

namespace brasa::serialize {
namespace {

IValue to_device(const IValue& v, Device device) {
  if (v.isTensor()) return IValue(v.toTensor().to(device));
  if (v.isGenericDict()) {
    GenericDict out;
    for (const auto& e : v.toGenericDict()) out.insert(e.key(), to_device(e.value(), device));
    return IValue(out);
  }
  if (v.isList()) {
    std::vector<IValue> out;
    for (const auto& x : v.toListRef()) out.push_back(to_device(x, device));
    return IValue(std::move(out));
  }
  if (v.isTuple()) {
    std::vector<IValue> out;
    for (const auto& x : v.toTupleRef().elements()) out.push_back(to_device(x, device));
    return IValue::tuple(std::move(out));
  }
  return v;
}

std::string key_list(const GenericDict& dict) {
  std::string keys;
  for (const auto& e : dict) {
    if (!keys.empty()) keys += ", ";
    keys += e.key().isString() ? "'" + e.key().toStringRef() + "'" : e.key().tagKind();
  }
  return keys.empty() ? "none" : keys;
}

}  // namespace

OutputArchive::OutputArchive() = default;

void OutputArchive::write(const std::string& key, const IValue& value) {
  dict_.insert_or_assign(IValue(key), value);
}

void OutputArchive::write(const std::string& key, const Tensor& tensor, bool /*is_buffer*/) {
  dict_.insert_or_assign(IValue(key), IValue(tensor.defined() ? tensor.detach() : tensor));
}

void OutputArchive::write(const std::string& key, OutputArchive& nested_archive) {
  dict_.insert_or_assign(IValue(key), nested_archive.ivalue());
}

void OutputArchive::save_to(const std::string& filename) { save_pt(ivalue(), filename); }

void OutputArchive::save_to(std::ostream& stream) {
  const std::vector<char> bytes = save_pt_bytes(ivalue());
  stream.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  BRASA_CHECK_TYPED(SerializationError, stream.good(),
                    "OutputArchive::save_to: writing to the stream failed");
}

void OutputArchive::save_to(const std::function<size_t(const void*, size_t)>& func) {
  const std::vector<char> bytes = save_pt_bytes(ivalue());
  const size_t written = func(bytes.data(), bytes.size());
  BRASA_CHECK_TYPED(SerializationError, written == bytes.size(),
                    "OutputArchive::save_to: the writer took ", written, " of ", bytes.size(),
                    " bytes");
}

InputArchive::InputArchive() = default;

InputArchive::InputArchive(const IValue& dict) { set(dict, "archive", std::nullopt); }

void InputArchive::set(const IValue& value, const std::string& origin,
                       std::optional<Device> device) {
  BRASA_CHECK_TYPED(SerializationError, value.isGenericDict(), "InputArchive: ", origin,
                    " holds a ", value.tagKind(), ", not a dict of named values");
  dict_ = (device ? to_device(value, *device) : value).toGenericDict();
  origin_ = origin;
}

const IValue* InputArchive::find(const std::string& key) const {
  auto it = dict_.find(IValue(key));
  return it == dict_.end() ? nullptr : &it->value();
}

bool InputArchive::try_read(const std::string& key, IValue& value) {
  const IValue* v = find(key);
  if (v == nullptr) return false;
  value = *v;
  return true;
}

void InputArchive::read(const std::string& key, IValue& value) {
  BRASA_CHECK_TYPED(SerializationError, try_read(key, value), "InputArchive: ", origin_,
                    " does not have a field with name '", key, "' (keys: ", key_list(dict_), ")");
}

bool InputArchive::try_read(const std::string& key, Tensor& tensor, bool /*is_buffer*/) {
  const IValue* v = find(key);
  if (v == nullptr || !v->isTensor()) return false;
  const Tensor& stored = v->toTensor();
  if (!tensor.defined()) {
    tensor = stored;
    return true;
  }
  BRASA_CHECK(tensor.sizes() == stored.sizes(), "InputArchive: '", key, "' in ", origin_,
              " has shape ", stored.sizes(), " but the tensor it is read into has shape ",
              tensor.sizes());
  NoGradGuard no_grad;
  tensor.copy_(stored);
  return true;
}

void InputArchive::read(const std::string& key, Tensor& tensor, bool is_buffer) {
  const IValue* v = find(key);
  BRASA_CHECK_TYPED(SerializationError, v != nullptr, "InputArchive: ", origin_,
                    " does not have a field with name '", key, "' (keys: ", key_list(dict_), ")");
  BRASA_CHECK_TYPED(SerializationError, v->isTensor(), "InputArchive: '", key, "' in ", origin_,
                    " is a ", v->tagKind(), ", not a Tensor");
  try_read(key, tensor, is_buffer);
}

// Note [Nested archives over flat state dicts]: brasa writes a module as PyTorch's flat state dict
// ("b.foo"), libtorch as nested archives ("b" holding "foo"); a program that reads a submodule's
// archive gets the entries under its prefix, with the prefix taken off.
bool InputArchive::try_read(const std::string& key, InputArchive& archive) {
  if (const IValue* v = find(key)) {
    if (!v->isGenericDict()) return false;
    archive.set(*v, origin_ + "/" + key, std::nullopt);
    return true;
  }
  const std::string prefix = key + ".";
  GenericDict nested;
  for (const auto& e : dict_) {
    if (e.key().isString() && e.key().toStringRef().rfind(prefix, 0) == 0)
      nested.insert(IValue(e.key().toStringRef().substr(prefix.size())), e.value());
  }
  if (nested.size() == 0) return false;
  archive.set(IValue(nested), origin_ + "/" + key, std::nullopt);
  return true;
}

void InputArchive::read(const std::string& key, InputArchive& archive) {
  if (try_read(key, archive)) return;
  const IValue* v = find(key);
  BRASA_CHECK_TYPED(SerializationError, v != nullptr, "InputArchive: ", origin_,
                    " does not have a field with name '", key, "' (keys: ", key_list(dict_), ")");
  BRASA_THROW(SerializationError, "InputArchive: '", key, "' in ", origin_, " is a ", v->tagKind(),
              ", not a nested archive");
}

void InputArchive::load_from(const std::string& filename, std::optional<Device> device) {
  set(load_pt(filename), "'" + filename + "'", device);
}

void InputArchive::load_from(std::istream& stream, std::optional<Device> device) {
  std::vector<uint8_t> bytes;
  char buf[1 << 16];
  while (stream.read(buf, sizeof buf) || stream.gcount() > 0)
    bytes.insert(bytes.end(), buf, buf + stream.gcount());
  // Reaching the end is no failure: the caller may seek back and read the stream again (libtorch
  // reads exactly the stream's size and leaves it good).
  if (stream.eof() && !stream.bad()) stream.clear();
  set(load_pt_bytes(bytes.data(), bytes.size()), "<stream>", device);
}

void InputArchive::load_from(const char* data, size_t size, std::optional<Device> device) {
  set(load_pt_bytes(reinterpret_cast<const uint8_t*>(data), size), "<buffer>", device);
}

void InputArchive::load_from(
    const std::function<size_t(uint64_t pos, void* buf, size_t nbytes)>& read_func,
    const std::function<size_t(void)>& size_func, std::optional<Device> device) {
  std::vector<uint8_t> bytes(size_func());
  const size_t got = read_func(0, bytes.data(), bytes.size());
  BRASA_CHECK_TYPED(SerializationError, got == bytes.size(), "InputArchive::load_from: read ", got,
                    " of ", bytes.size(), " bytes");
  set(load_pt_bytes(bytes.data(), bytes.size()), "<reader>", device);
}

std::vector<std::string> InputArchive::keys() {
  std::vector<std::string> out;
  for (const auto& e : dict_)
    if (e.key().isString()) out.push_back(e.key().toStringRef());
  return out;
}

}  // namespace brasa::serialize
