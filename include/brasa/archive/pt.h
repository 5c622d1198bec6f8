#pragma once
// torch.save / torch.load files (.pt): a stored ZIP archive with a protocol-2 pickle (data.pkl)
// and one record per tensor storage (data/<key>). Loading mirrors torch.load(weights_only=True):
// only tensors, dicts, lists, tuples, strings and scalars; nothing is executed.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "brasa/archive/ivalue.h"

namespace brasa {
namespace serialize {

/// Loads a file written by torch.save (e.g. of a state_dict) or save_pt. The file is mapped;
/// storages whose data is aligned for their dtype view the map without copying (writes to the
/// tensors don't reach the file). Tensors saved on any device load to CPU. Throws
/// SerializationError naming the file on malformed, unsupported (legacy, PYTORCH1) or unsafe input.
BRASA_API IValue load_pt(const std::string& path);
/// Loads torch.save bytes (copied into the tensors). Throws SerializationError like load_pt.
BRASA_API IValue load_pt_bytes(const void* data, size_t size);

/// torch.load's map_location as a function: called once per storage with the storage (a 1-d CPU
/// tensor of its dtype) and the location it was saved from ("cpu", "cuda:0", ...); returns the
/// tensor the file's tensors are views of (same dtype and number of elements, any device), e.g.
/// the storage itself or a copy of it on another device.
using RestoreLocation = std::function<Tensor(const Tensor& storage, const std::string& location)>;
/// load_pt with every storage passed through `restore` (which may throw; the error propagates).
/// A result of another dtype or size throws ValueError naming the storage.
BRASA_API IValue load_pt(const std::string& path, const RestoreLocation& restore);
BRASA_API IValue load_pt_bytes(const void* data, size_t size, const RestoreLocation& restore);

/// Writes `value` (tensors, dicts with str/int keys, lists, tuples, strings, scalars) so that
/// torch.load(path, weights_only=True) reads it back: dicts as OrderedDict, tensors keep their
/// dtype, strides and storage sharing. Atomic: the file is replaced only once fully written.
/// Throws ValueError for undefined or non-CPU tensors, SerializationError for I/O errors.
BRASA_API void save_pt(const IValue& value, const std::string& path);
/// The bytes save_pt would write (records under "archive/").
BRASA_API std::vector<char> save_pt_bytes(const IValue& value);

}  // namespace serialize

/// libtorch's torch::pickle_save: the torch.save format, as bytes.
BRASA_API std::vector<char> pickle_save(const IValue& value);
/// libtorch's torch::pickle_load: reads torch.save bytes (what pickle_save or Python's torch.save
/// wrote).
BRASA_API IValue pickle_load(const std::vector<char>& data);

}  // namespace brasa
