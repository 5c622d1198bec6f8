#pragma once
// Pickle protocol 2 for torch.save's data.pkl: a restricted unpickler mirroring PyTorch's
// weights_only unpickler (opcode allow-list, fixed global table, no code execution), and a pickler
// that writes the same subset PyTorch writes for state_dicts.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "brasa/archive/ivalue.h"
#include "brasa/core/dtype.h"
#include "brasa/core/storage.h"

namespace brasa::serialize {

/// Nesting depth of lists, tuples and dicts accepted by the unpickler and the pickler.
constexpr int kMaxPickleDepth = 200;

/// Gives storage `key`, saved from `location` ("cpu", "cuda:0", ...), as a 1-d contiguous tensor
/// of `dtype` holding exactly `nbytes` bytes; throws SerializationError when the record is missing
/// or has another size. Called once per key.
using StorageLoader = std::function<Tensor(const std::string& key, ScalarType dtype,
                                           uint64_t nbytes, const std::string& location)>;

/// Unpickles `data` (a data.pkl). Persistent ids ('storage', torch.<X>Storage, key, location,
/// numel) are resolved through `load_storage`. Throws
/// SerializationError naming `origin` and the byte offset on anything outside the allowed subset,
/// unknown globals, malformed or truncated input, and tensors reaching outside their storage.
BRASA_API IValue unpickle(const uint8_t* data, size_t size, const StorageLoader& load_storage,
                          const std::string& origin);

/// Pickles `value`; each distinct storage of the tensors in it is appended to `storages`, and
/// its key in the pickle is its index there. Throws ValueError for undefined or non-CPU tensors,
/// unsupported dtypes, one storage viewed with two dtypes, and nesting deeper than kMaxPickleDepth.
BRASA_API std::vector<uint8_t> pickle(const IValue& value, std::vector<Storage>& storages);

/// "Float" for kFloat, ... : torch's storage class name without "Storage".
const char* storage_type_name(ScalarType dtype);

}  // namespace brasa::serialize
