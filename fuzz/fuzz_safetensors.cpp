// Fuzz target: the safetensors reader on arbitrary bytes. Any exception other than brasa::Error,
// a crash, a hang or an unbounded allocation is a finding.

#include <cstddef>
#include <cstdint>
#include <span>

#include "brasa/core/error.h"
#include "brasa/serialize/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const brasa::serialize::SafeTensors st =
        brasa::serialize::load_safetensors_from_bytes(brasa::ArrayRef<uint8_t>(data, size));
    size_t total = 0;
    for (const auto& item : st.tensors) total += item.value().nbytes();
    (void)total;
  } catch (const brasa::Error&) {
  }
  return 0;
}
