// Fuzz target: the distributed checkpoint's metadata parser (brasa/serialize/dcp_metadata.h) on
// arbitrary bytes, with the checksum not compared (so mutations reach the structure checks). Any
// exception other than brasa::Error, a crash, a hang or an unbounded allocation is a finding. A
// successful parse must describe a consistent checkpoint: it formats back to text that parses to
// the same structure, every chunk lies in its tensor and its file, and the chunks cover each
// tensor exactly.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "brasa/core/error.h"
#include "brasa/serialize/dcp_metadata.h"

namespace dcp = brasa::serialize::dcp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  dcp::Metadata m;
  try {
    m = dcp::parse_metadata(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz",
                            /*verify_checksum=*/false);
  } catch (const brasa::Error&) {
    return 0;
  }
  for (const auto& t : m.tensors) {
    int64_t covered = 0;
    for (const auto& c : t.chunks) {
      if (c.offsets.size() != t.shape.size() || c.lengths.size() != t.shape.size()) std::abort();
      for (size_t d = 0; d < t.shape.size(); ++d) {
        if (c.lengths[d] < 1 || c.offsets[d] + c.lengths[d] > t.shape[d]) std::abort();
      }
      const auto& f = m.files.at(static_cast<size_t>(c.file));
      const int64_t bytes = c.numel() * static_cast<int64_t>(brasa::element_size(t.dtype));
      if (c.file_offset + bytes > f.size) std::abort();
      covered += c.numel();
    }
    if (covered != t.numel()) std::abort();
  }
  const std::string again = dcp::format_metadata(m);
  const dcp::Metadata back = dcp::parse_metadata(again, "fuzz (formatted)");
  if (back.tensors.size() != m.tensors.size() || dcp::format_metadata(back) != again) std::abort();
  return 0;
}
