// Writing torch.save archives (backends_formats.md §4 writer checklist 1-4).

#include <bit>
#include <cstdio>

#include "archive/pickle.h"
#include "archive/zip.h"
#include "brasa/archive/file_io.h"
#include "brasa/archive/pt.h"
#include "core/device_hooks.h"

namespace brasa::serialize {
namespace {

// 40 digits identifying the content (PyTorch's is a hash of record names and CRCs; any id works).
std::string serialization_id(const std::vector<uint8_t>& pkl,
                             const std::vector<Storage>& storages) {
  uint64_t a = 1469598103934665603ull, b = 0x9e3779b97f4a7c15ull;
  auto mix = [&](uint64_t v) {
    a = (a ^ v) * 1099511628211ull;
    b = (b ^ (v + a)) * 0xff51afd7ed558ccdull;
  };
  for (uint8_t c : pkl) mix(c);
  for (const Storage& s : storages) mix(s->nbytes());
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%020llu%020llu",
                static_cast<unsigned long long>(a % 10000000000000000000ull),
                static_cast<unsigned long long>(b % 10000000000000000000ull));
  return std::string(buf, 40);
}

void write_archive(const IValue& value, const ByteSink& sink) {
  detail::flush_pending();  // the storages' bytes are read directly (Note [Core hooks])
  std::vector<Storage> storages;
  std::vector<uint8_t> pkl = pickle(value, storages);
  ZipWriter zip(sink);
  auto add_text = [&](const char* name, const std::string& text) {
    zip.add(name, text.data(), text.size());
  };
  zip.add("archive/data.pkl", pkl.data(), pkl.size());
  add_text("archive/.format_version", "1");
  add_text("archive/.storage_alignment", "64");
  add_text("archive/byteorder", std::endian::native == std::endian::little ? "little" : "big");
  for (size_t i = 0; i < storages.size(); ++i) {
    zip.add("archive/data/" + std::to_string(i), storages[i]->data(), storages[i]->nbytes());
  }
  add_text("archive/version", "3\n");
  add_text("archive/.data/serialization_id", serialization_id(pkl, storages));
  zip.finish();
}

}  // namespace

void save_pt(const IValue& value, const std::string& path) {
  write_file_atomic(path, [&](const ByteSink& sink) { write_archive(value, sink); });
}

std::vector<char> save_pt_bytes(const IValue& value) {
  std::vector<char> out;
  write_archive(value, [&](const void* data, size_t n) {
    const char* p = static_cast<const char*>(data);
    out.insert(out.end(), p, p + n);
  });
  return out;
}

}  // namespace brasa::serialize

namespace brasa {
std::vector<char> pickle_save(const IValue& value) { return serialize::save_pt_bytes(value); }
}  // namespace brasa
