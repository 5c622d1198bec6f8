#pragma once
// OutputArchive / InputArchive (libtorch's torch::serialize archives): a tree of named values —
// tensors, IValues and nested archives — saved as one torch.save-format file (a dict of dicts that
// Python's torch.load(weights_only=True) reads too). Modules, optimizers, schedulers, samplers and
// data loaders save their state into archives; torch::save / torch::load wrap them. The archive
// layer sits below nn (docs/contributing.md, "Layers"); its types keep libtorch's namespace,
// serialize.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "brasa/archive/ivalue.h"
#include "brasa/core/device.h"

namespace brasa::serialize {

class BRASA_API OutputArchive {
 public:
  OutputArchive();
  OutputArchive(OutputArchive&&) = default;
  OutputArchive& operator=(OutputArchive&&) = default;
  OutputArchive(const OutputArchive&) = delete;
  OutputArchive& operator=(const OutputArchive&) = delete;

  /// Stores `value` under `key` (replacing an earlier value of that key).
  void write(const std::string& key, const IValue& value);
  /// Stores the tensor's data (detached); is_buffer is accepted for libtorch compatibility.
  void write(const std::string& key, const Tensor& tensor, bool is_buffer = false);
  void write(const std::string& key, OutputArchive& nested_archive);

  /// Writes the archive as a torch.save file, atomically (temporary file, fsync, rename).
  void save_to(const std::string& filename);
  void save_to(std::ostream& stream);
  /// Hands the file's bytes to `func`, which returns how many it consumed (all, or it is an error).
  void save_to(const std::function<size_t(const void*, size_t)>& func);

  template <typename... Ts>
  void operator()(Ts&&... ts) {
    write(std::forward<Ts>(ts)...);
  }

  /// The archive as a dict of its keys (nested archives are nested dicts).
  IValue ivalue() const { return IValue(dict_); }

 private:
  GenericDict dict_;
};

class BRASA_API InputArchive {
 public:
  InputArchive();
  /// An archive over a dict (such as OutputArchive::ivalue() or a loaded .pt file's content).
  explicit InputArchive(const IValue& dict);
  InputArchive(InputArchive&&) = default;
  InputArchive& operator=(InputArchive&&) = default;
  InputArchive(const InputArchive&) = delete;
  InputArchive& operator=(const InputArchive&) = delete;

  /// The value of `key`; throws SerializationError naming the key (and the keys present) if absent.
  void read(const std::string& key, IValue& value);
  bool try_read(const std::string& key, IValue& value);
  /// Reads a tensor. If `tensor` is defined, the stored values are copied into it (with dtype
  /// conversion, without recording autograd history) and the shapes must match (ValueError naming
  /// the key and both shapes); otherwise `tensor` becomes the stored tensor.
  void read(const std::string& key, Tensor& tensor, bool is_buffer = false);
  bool try_read(const std::string& key, Tensor& tensor, bool is_buffer = false);
  void read(const std::string& key, InputArchive& archive);
  bool try_read(const std::string& key, InputArchive& archive);

  /// Loads a torch.save-format file (or bytes) whose top level is a dict. Tensors are placed on
  /// `device` if given, else on the CPU. Throws SerializationError for a malformed file.
  void load_from(const std::string& filename, std::optional<Device> device = std::nullopt);
  void load_from(std::istream& stream, std::optional<Device> device = std::nullopt);
  void load_from(const char* data, size_t size, std::optional<Device> device = std::nullopt);
  void load_from(const std::function<size_t(uint64_t pos, void* buf, size_t nbytes)>& read_func,
                 const std::function<size_t(void)>& size_func,
                 std::optional<Device> device = std::nullopt);

  std::vector<std::string> keys();

  template <typename... Ts>
  void operator()(Ts&&... ts) {
    read(std::forward<Ts>(ts)...);
  }

  IValue ivalue() const { return IValue(dict_); }

 private:
  void set(const IValue& value, const std::string& origin, std::optional<Device> device);
  const IValue* find(const std::string& key) const;

  GenericDict dict_;
  std::string origin_ = "archive";
};

}  // namespace brasa::serialize
