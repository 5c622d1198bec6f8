// Fuzz target: the stored-ZIP reader of torch.save files on arbitrary bytes. Every record is read
// with its CRC checked; brasa::Error is the only acceptable failure.

#include <cstddef>
#include <cstdint>

#include "archive/zip.h"
#include "brasa/core/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    brasa::serialize::ZipReader reader(data, size, "<fuzz>");
    for (const auto& entry : reader.entries()) {
      auto bytes = reader.record(entry.name);
      if (reader.find(entry.name) != &entry || bytes.size() != entry.size) __builtin_trap();
    }
  } catch (const brasa::Error&) {
  }
  return 0;
}
