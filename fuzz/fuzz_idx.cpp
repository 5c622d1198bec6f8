// Fuzzes the idx (MNIST) parser: any bytes, parsed as a 1-d (labels) and a 3-d (images) file.
// A parse that succeeds must describe exactly the bytes present; anything but brasa::Error
// escaping, or a sanitizer report, is a finding.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "brasa/core/error.h"
#include "data/idx_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  for (const int64_t ndim : {int64_t{1}, int64_t{3}}) {
    try {
      const auto idx =
          brasa::data::detail::parse_idx(std::vector<uint8_t>(data, data + size), ndim, "fuzz");
      unsigned __int128 numel = 1;  // 3 dims below 2^32 each: no overflow in 128 bits
      for (const int64_t d : idx.dims) numel *= static_cast<uint64_t>(d);
      if (static_cast<int64_t>(idx.dims.size()) != ndim || idx.payload_offset > idx.bytes.size() ||
          numel != idx.bytes.size() - idx.payload_offset) {
        __builtin_trap();  // the header does not describe the payload: readers would overrun
      }
    } catch (const brasa::Error&) {
    }
  }
  return 0;
}
