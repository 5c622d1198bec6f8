// Reading torch.save archives (backends_formats.md §4.1, reader checklist 5-9): the container's
// checks here, the pickle's in pickle_load.cpp.

#include <algorithm>
#include <cstring>
#include <memory>

#include "archive/pickle.h"
#include "archive/zip.h"
#include "brasa/archive/error.h"
#include "brasa/archive/file_io.h"
#include "brasa/archive/pt.h"
#include "brasa/ops/factory.h"

namespace brasa::serialize {
namespace {

constexpr int64_t kMinFileVersion = 1;
constexpr int64_t kMaxFileVersion = 10;

std::string record_text(const ZipReader& zip, const std::string& name) {
  auto bytes = zip.record(name);
  BRASA_CHECK_TYPED(SerializationError, bytes.size() <= 64, zip.origin(), ": record '", name,
                    "' has ", bytes.size(), " bytes, expected a short text");
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

int64_t read_version(const ZipReader& zip, const std::string& prefix) {
  std::string name = prefix + ".data/version";
  if (!zip.find(name)) name = prefix + "version";
  BRASA_CHECK_TYPED(SerializationError, zip.find(name), zip.origin(), ": record '", prefix,
                    "version' is missing");
  std::string text = record_text(zip, name);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) {
    text.pop_back();
  }
  bool digits = !text.empty() && text.size() <= 6 &&
                std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  int64_t version = digits ? std::stoll(text) : -1;
  BRASA_CHECK_TYPED(SerializationError, version >= kMinFileVersion && version <= kMaxFileVersion,
                    zip.origin(), ": record '", name, "' must be a file format version in [",
                    kMinFileVersion, ", ", kMaxFileVersion, "], got '", text, "'");
  return version;
}

void byteswap(uint8_t* p, size_t nbytes, size_t elsize) {
  for (size_t i = 0; i + elsize <= nbytes; i += elsize) std::reverse(p + i, p + i + elsize);
}

void check_magic(const uint8_t* data, size_t size, const std::string& origin) {
  if (size >= 4 && std::memcmp(data, "PK\x03\x04", 4) == 0) return;
  BRASA_CHECK_TYPED(SerializationError, !(size >= 8 && std::memcmp(data, "PYTORCH1", 8) == 0),
                    origin,
                    ": unsupported archive format from the preview release (PYTORCH1 magic); "
                    "re-save it with torch.save of PyTorch >= 1.6");
  static const uint8_t legacy[] = {0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20};
  BRASA_CHECK_TYPED(
      SerializationError,
      !(size >= sizeof(legacy) && std::memcmp(data, legacy, sizeof(legacy)) == 0), origin,
      ": legacy (pre-1.6) torch.save format is not supported; re-save it with torch.save "
      "of PyTorch >= 1.6");
  BRASA_THROW(SerializationError, origin,
              ": not a torch.save file (it does not start with a ZIP local header 'PK\\x03\\x04')");
}

// `map` (when not null) owns `data`: aligned storages then view it instead of being copied.
IValue load_archive(const uint8_t* data, size_t size, const std::string& origin,
                    const std::shared_ptr<MappedFile>& map, const RestoreLocation& restore) {
  check_magic(data, size, origin);
  ZipReader zip(data, size, origin);
  BRASA_CHECK_TYPED(SerializationError, !zip.entries().empty(), origin,
                    ": the archive has no records");
  const std::string& first = zip.entries().front().name;
  size_t slash = first.find('/');
  BRASA_CHECK_TYPED(SerializationError, slash != std::string::npos && slash > 0, origin,
                    ": file in archive is not in a subdirectory: '", first, "'");
  std::string prefix = first.substr(0, slash + 1);
  for (const ZipEntry& e : zip.entries()) {
    BRASA_CHECK_TYPED(SerializationError, e.name.compare(0, prefix.size(), prefix) == 0, origin,
                      ": record '", e.name, "' is not under the archive's folder '", prefix, "'");
  }
  read_version(zip, prefix);
  bool big_endian = false;
  if (zip.find(prefix + "byteorder")) {
    std::string order = record_text(zip, prefix + "byteorder");
    BRASA_CHECK_TYPED(SerializationError, order == "little" || order == "big", origin,
                      ": record 'byteorder' must be 'little' or 'big', got '", order, "'");
    big_endian = order == "big";
  }
  std::string pkl_name = prefix + "data.pkl";
  BRASA_CHECK_TYPED(SerializationError, zip.find(pkl_name), origin, ": record '", pkl_name,
                    "' is missing");
  auto pkl = zip.record(pkl_name);

  auto read = [&](const std::string& key, ScalarType dtype, uint64_t nbytes) -> Tensor {
    BRASA_CHECK_TYPED(SerializationError, !key.empty() && key.find('/') == std::string::npos,
                      origin, ": storage key '", key, "' is not a record name");
    std::string name = prefix + "data/" + key;
    BRASA_CHECK_TYPED(SerializationError, zip.find(name), origin, ": storage record '", name,
                      "' is missing");
    size_t elsize = element_size(dtype);
    bool zero_copy = map && !big_endian;
    auto bytes = zip.record(name, /*verify_crc=*/!zero_copy);
    BRASA_CHECK_TYPED(SerializationError, bytes.size() == nbytes, origin, ": storage record '",
                      name, "' has ", bytes.size(), " bytes, but the pickle declares ",
                      nbytes / elsize, " elements of ", dtype, " (", nbytes, " bytes)");
    int64_t numel = static_cast<int64_t>(nbytes / elsize);
    auto options = TensorOptions().dtype(dtype);
    if (zero_copy && reinterpret_cast<uintptr_t>(bytes.data()) % elsize == 0) {
      uint8_t* p = map->mutable_data() + (bytes.data() - map->data());
      return from_blob(
          p, {numel}, [map](void*) {}, options);
    }
    Tensor t = empty({numel}, options);
    if (nbytes > 0) std::memcpy(t.data_ptr(), bytes.data(), nbytes);
    size_t swap_size = element_size(to_real_value_type(dtype));  // complex: each part
    if (big_endian && swap_size > 1) {
      byteswap(static_cast<uint8_t*>(t.data_ptr()), nbytes, swap_size);
    }
    return t;
  };
  StorageLoader load = [&](const std::string& key, ScalarType dtype, uint64_t nbytes,
                           const std::string& location) -> Tensor {
    Tensor t = read(key, dtype, nbytes);
    if (!restore) return t;
    Tensor out = restore(t, location);
    BRASA_CHECK_TYPED(
        ValueError, out.defined() && out.scalar_type() == dtype && out.numel() == t.numel(), origin,
        ": map_location turned storage '", key, "' (", t.numel(), " elements of ", dtype,
        ", saved on '", location, "') into ",
        out.defined() ? std::to_string(out.numel()) + " elements of " + to_string(out.scalar_type())
                      : std::string("an undefined tensor"),
        "; expected the same dtype and number of elements");
    out = out.reshape({out.numel()});
    if (!out.is_contiguous() || out.storage_offset() != 0)
      out = out.clone(MemoryFormat::Contiguous);
    return out;
  };
  return unpickle(pkl.data(), pkl.size(), load, origin + ": " + pkl_name);
}

}  // namespace

IValue load_pt(const std::string& path) { return load_pt(path, RestoreLocation()); }

IValue load_pt_bytes(const void* data, size_t size) {
  return load_pt_bytes(data, size, RestoreLocation());
}

IValue load_pt(const std::string& path, const RestoreLocation& restore) {
  std::shared_ptr<MappedFile> map = MappedFile::open(path);
  return load_archive(map->data(), map->size(), path, map, restore);
}

IValue load_pt_bytes(const void* data, size_t size, const RestoreLocation& restore) {
  return load_archive(static_cast<const uint8_t*>(data), size, "<buffer>", nullptr, restore);
}

}  // namespace brasa::serialize

namespace brasa {
IValue pickle_load(const std::vector<char>& data) {
  return serialize::load_pt_bytes(data.data(), data.size());
}
}  // namespace brasa
