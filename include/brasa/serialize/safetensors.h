#pragma once
// safetensors files (Hugging Face): an 8-byte little-endian header length, a JSON header naming
// each tensor's dtype, shape and byte range, then the raw little-endian data. Loading from a path
// memory-maps the file and returns tensors viewing the map (zero-copy; each tensor keeps the map
// alive; tensors whose data is not aligned to their element size are copied). Readers validate
// every rule of the reference implementation, plus: no duplicate JSON keys, the header starts with
// '{', only spaces pad it, and "__metadata__" is a string -> string map.

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "brasa/core/tensor.h"
#include "brasa/nn/module.h"
#include "brasa/nn/ordered_dict.h"
#include "brasa/nn/state_dict.h"

namespace brasa::serialize {

/// The content of a safetensors file: tensors in header order, and the "__metadata__" map.
struct SafeTensors {
  OrderedDict<std::string, Tensor> tensors{"Tensor"};
  std::map<std::string, std::string> metadata;
};

/// Named tensors to save, from a braced list, a vector of pairs, a std::map or an OrderedDict.
struct NamedTensors {
  NamedTensors(std::initializer_list<std::pair<std::string, Tensor>> list) : items(list) {}
  NamedTensors(std::vector<std::pair<std::string, Tensor>> list) : items(std::move(list)) {}
  NamedTensors(const std::map<std::string, Tensor>& map) : items(map.begin(), map.end()) {}
  NamedTensors(const OrderedDict<std::string, Tensor>& dict) {
    for (const auto& item : dict) items.push_back(item.pair());
  }
  std::vector<std::pair<std::string, Tensor>> items;
};

/// Loads `path` memory-mapped (zero-copy). Throws SerializationError naming the file, the tensor
/// and what was expected when the file is malformed, or when a tensor's dtype is one brasa lacks
/// (U16, U32, U64, F8_*, F4, F6_*, C64).
BRASA_API SafeTensors load_safetensors(const std::string& path);
/// Parses a safetensors image held in memory; tensors are copies. Same errors, naming "<bytes>".
BRASA_API SafeTensors load_safetensors_from_bytes(ArrayRef<uint8_t> bytes);

/// Writes the reference layout (tensors sorted by descending dtype rank then name, compact JSON
/// header padded with spaces to a multiple of 8), atomically (temporary file + rename).
/// Non-contiguous or non-CPU tensors are written as contiguous CPU copies. Throws ValueError for
/// an undefined tensor, an empty, duplicate or "__metadata__" name, or two non-empty tensors
/// sharing storage (the file would duplicate them); SerializationError for I/O failures.
BRASA_API void save_safetensors(const std::string& path, const NamedTensors& tensors,
                                const std::map<std::string, std::string>& metadata = {});
/// The same image, in memory.
BRASA_API std::vector<uint8_t> save_safetensors_to_bytes(
    const NamedTensors& tensors, const std::map<std::string, std::string>& metadata = {});

/// Saves nn::state_dict(module).
BRASA_API void save_safetensors(const nn::Module& module, const std::string& path,
                                const std::map<std::string, std::string>& metadata = {});
/// Loads `path` into the module with nn::load_state_dict (same errors and result).
BRASA_API nn::LoadStateDictResult load_safetensors(nn::Module& module, const std::string& path,
                                                   bool strict = true);

}  // namespace brasa::serialize
