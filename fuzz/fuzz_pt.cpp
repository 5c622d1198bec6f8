// Fuzz target: torch.save files (load_pt_bytes) on arbitrary bytes; input not starting with a ZIP
// header goes straight to the restricted unpickler, with zero-filled storages, so the pickle layer
// is reached without a valid archive around it. A loaded value must save and load again.
// brasa::Error is the only acceptable failure.

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "archive/pickle.h"
#include "brasa/archive/pt.h"
#include "brasa/core/error.h"
#include "brasa/ops/factory.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace brasa;
  try {
    IValue value;
    if (size >= 2 && std::memcmp(data, "PK", 2) == 0) {
      value = serialize::load_pt_bytes(data, size);
    } else {
      serialize::StorageLoader zero_storage = [](const std::string&, ScalarType dtype,
                                                 uint64_t nbytes, const std::string&) {
        if (nbytes > (uint64_t{1} << 24)) BRASA_THROW(ValueError, "fuzz: storage too large");
        return zeros({static_cast<int64_t>(nbytes / element_size(dtype))},
                     TensorOptions().dtype(dtype));
      };
      value = serialize::unpickle(data, size, zero_storage, "<fuzz>");
    }
    std::vector<char> saved = serialize::save_pt_bytes(value);
    serialize::load_pt_bytes(saved.data(), saved.size());
  } catch (const brasa::Error&) {
  }
  return 0;
}
