// ZipReader (see zip.h): a strict reader of stored ZIP archives. Every offset, size and count is
// checked against the bytes present before it is used; nothing is allocated from an unchecked
// count.

#include <zlib.h>

#include <algorithm>

#include "archive/zip.h"
#include "archive/zip_format.h"
#include "brasa/archive/error.h"

namespace brasa::serialize {
namespace zip {

uint32_t crc32_of(const void* data, size_t n) {
  return static_cast<uint32_t>(
      ::crc32_z(::crc32_z(0, nullptr, 0), static_cast<const Bytef*>(data), n));
}

std::string printable(std::string_view name) {
  std::string out;
  for (unsigned char ch : name) {
    if (ch >= 0x20 && ch < 0x7F) {
      out.push_back(static_cast<char>(ch));
    } else {
      const char* hex = "0123456789abcdef";
      out += {'\\', 'x', hex[ch >> 4], hex[ch & 15]};
    }
  }
  return out;
}

}  // namespace zip

using namespace zip;

std::string_view zip_name_problem(std::string_view name) {
  if (name.empty()) return "is empty";
  if (name.size() > kMax16) return "is longer than 65535 bytes";
  if (name.front() == '/') return "is an absolute path (leading '/')";
  if (name.find('\\') != std::string_view::npos) return "contains a backslash";
  if (name.find('\0') != std::string_view::npos) return "contains a NUL byte";
  for (size_t start = 0; start <= name.size();) {
    size_t end = std::min(name.find('/', start), name.size());
    if (name.substr(start, end - start) == "..") return "contains a '..' component";
    start = end + 1;
  }
  return {};
}

namespace {

struct Directory {
  uint64_t count = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint64_t end_record = 0;  // where the (ZIP64) end of central directory record begins
};

struct Region {
  uint64_t begin, end;
  const std::string* name;
};

class Parser {
 public:
  Parser(const uint8_t* data, size_t size, const std::string& origin)
      : data_(data), size_(size), origin_(origin) {}

  template <typename... Args>
  [[noreturn]] void fail(const Args&... args) const {
    BRASA_THROW(SerializationError, "zip '", origin_, "': ", args...);
  }
  template <typename... Args>
  [[noreturn]] void fail_entry(const std::string& name, const Args&... args) const {
    fail("entry '", printable(name), "' ", args...);
  }
  // True when [offset, offset + n) lies inside [0, limit).
  static bool inside(uint64_t offset, uint64_t n, uint64_t limit) {
    return offset <= limit && n <= limit - offset;
  }
  const uint8_t* at(uint64_t offset) const { return data_ + offset; }

  size_t find_end_record() const {
    if (size_ < kEocdSize)
      fail("truncated archive (", size_, " bytes; a ZIP archive has at least 22)");
    const size_t last = size_ - kEocdSize;
    const size_t lowest = last > kMax16 ? last - kMax16 : 0;
    bool seen = false;
    for (size_t pos = last + 1; pos-- > lowest;) {
      if (read32(at(pos)) != kEocdSig) continue;
      if (pos + kEocdSize + read16(at(pos + 20)) == size_) return pos;
      seen = true;
    }
    if (seen)
      fail("the end of central directory record's comment length does not match the file size");
    fail("no end of central directory record in the last 64 KiB (not a ZIP archive, or truncated)");
  }

  Directory read_directory() const {
    const size_t eocd = find_end_record();
    const uint8_t* e = at(eocd);
    Directory dir{read16(e + 10), read32(e + 16), read32(e + 12), eocd};
    const bool placeholders = read16(e + 10) == kMax16 || read16(e + 8) == kMax16 ||
                              read32(e + 12) == kMax32 || read32(e + 16) == kMax32;
    const bool has_locator =
        eocd >= kZip64LocatorSize && read32(at(eocd - kZip64LocatorSize)) == kZip64LocatorSig;
    if (has_locator) {
      dir = read_zip64_directory(eocd - kZip64LocatorSize);
      if ((read16(e + 10) != kMax16 && read16(e + 10) != dir.count) ||
          (read32(e + 12) != kMax32 && read32(e + 12) != dir.size) ||
          (read32(e + 16) != kMax32 && read32(e + 16) != dir.offset)) {
        fail("the end of central directory record disagrees with the ZIP64 one");
      }
    } else {
      if (placeholders)
        fail(
            "ZIP64 placeholder values in the end of central directory record but no ZIP64 locator");
      if (read16(e + 4) != 0 || read16(e + 6) != 0 || read16(e + 8) != read16(e + 10)) {
        fail("multi-disk archives are not supported");
      }
    }
    if (dir.offset > dir.end_record || dir.size != dir.end_record - dir.offset) {
      fail("the central directory (offset ", dir.offset, ", ", dir.size,
           " bytes) does not end where the end of central directory record begins (offset ",
           dir.end_record, ")");
    }
    if (dir.count > dir.size / kCentralSize) {
      fail(dir.count, " entries cannot fit in a central directory of ", dir.size, " bytes");
    }
    return dir;
  }

  Directory read_zip64_directory(size_t locator) const {
    const uint8_t* l = at(locator);
    const uint64_t offset = read64(l + 8);
    if (read32(l + 4) != 0 || read32(l + 16) > 1) fail("multi-disk archives are not supported");
    if (!inside(offset, kZip64EocdSize, locator)) {
      fail("the ZIP64 end of central directory offset ", offset, " lies outside the archive");
    }
    const uint8_t* z = at(offset);
    if (read32(z) != kZip64EocdSig) {
      fail("bad ZIP64 end of central directory signature at offset ", offset);
    }
    if (read64(z + 4) != locator - offset - 12) {
      fail("the ZIP64 end of central directory record's size does not reach its locator");
    }
    if (read32(z + 16) != 0 || read32(z + 20) != 0 || read64(z + 24) != read64(z + 32)) {
      fail("multi-disk archives are not supported");
    }
    return Directory{read64(z + 32), read64(z + 48), read64(z + 40), offset};
  }

  // Replaces the 0xFFFFFFFF placeholders among `fields` (in order) from the ZIP64 extra field.
  void read_zip64_extra(const std::string& name, const uint8_t* extra, size_t n,
                        std::initializer_list<uint64_t*> fields) const {
    bool needed = false;
    for (uint64_t* f : fields) needed |= *f == kMax32;
    if (!needed) return;
    for (size_t p = 0; p + 4 <= n;) {
      const uint16_t id = read16(extra + p), len = read16(extra + p + 2);
      if (len > n - p - 4) fail_entry(name, "has an extra field running past its header");
      if (id == kZip64ExtraId) {
        size_t q = p + 4;
        for (uint64_t* f : fields) {
          if (*f != kMax32) continue;
          if (q + 8 > p + 4 + len) fail_entry(name, "has a ZIP64 extra field that is too short");
          *f = read64(extra + q);
          q += 8;
        }
        return;
      }
      p += 4 + len;
    }
    fail_entry(name, "has a size or offset of 0xFFFFFFFF but no ZIP64 extra field giving it");
  }

  // Parses the central entry at `p` (inside the directory ending at `end`); returns its length.
  size_t read_entry(uint64_t p, uint64_t end, ZipEntry& entry, Region& region) const {
    if (!inside(p, kCentralSize, end))
      fail("central directory entry at offset ", p, " is truncated");
    const uint8_t* c = at(p);
    if (read32(c) != kCentralSig) fail("bad central directory signature at offset ", p);
    const size_t name_len = read16(c + 28), extra_len = read16(c + 30),
                 comment_len = read16(c + 32);
    const size_t length = kCentralSize + name_len + extra_len + comment_len;
    if (!inside(p, length, end)) fail("central directory entry at offset ", p, " is truncated");
    entry.name.assign(reinterpret_cast<const char*>(c + kCentralSize), name_len);
    const std::string& name = entry.name;
    if (auto problem = zip_name_problem(name); !problem.empty()) {
      fail_entry(name, "has an unsafe name: it ", problem);
    }
    const uint16_t flags = read16(c + 8), method = read16(c + 10);
    if (flags & (kFlagEncrypted | kFlagStrongEncryption | kFlagMaskedHeaders)) {
      fail_entry(name, "is encrypted (flags ", flags, "); torch.save files are not encrypted");
    }
    if (method != 0) {
      fail_entry(name, "is compressed (method ", method,
                 "); torch.save files store records uncompressed");
    }
    if (read16(c + 34) != 0)
      fail_entry(name, "starts on another disk; multi-disk archives are not supported");
    uint64_t packed = read32(c + 20), size = read32(c + 24), local = read32(c + 42);
    read_zip64_extra(name, c + kCentralSize + name_len, extra_len, {&size, &packed, &local});
    if (packed != size) {
      fail_entry(name, "is stored but its compressed size ", packed, " differs from its size ",
                 size);
    }
    entry.size = size;
    entry.crc32 = read32(c + 16);
    entry.data_offset = read_local_header(name, local, flags, entry);
    region = Region{local, entry.data_offset + size, &entry.name};
    return length;
  }

  // Checks the local header at `offset` against the central entry; returns the data offset.
  uint64_t read_local_header(const std::string& name, uint64_t offset, uint16_t flags,
                             const ZipEntry& entry) const {
    if (!inside(offset, kLocalSize, size_)) {
      fail_entry(name, "has its local header at offset ", offset, ", beyond the archive (", size_,
                 " bytes)");
    }
    const uint8_t* h = at(offset);
    if (read32(h) != kLocalSig)
      fail_entry(name, "has a bad local header signature at offset ", offset);
    if (read16(h + 6) != flags || read16(h + 8) != 0) {
      fail_entry(name,
                 "has a local header whose flags or method differ from the central directory's");
    }
    const size_t name_len = read16(h + 26), extra_len = read16(h + 28);
    const uint64_t data = offset + kLocalSize + name_len + extra_len;
    if (data > size_) fail_entry(name, "has a local header running past the end of the archive");
    if (std::string_view(reinterpret_cast<const char*>(h + kLocalSize), name_len) != name) {
      fail_entry(name, "has a different name in its local header");
    }
    uint64_t size = read32(h + 22), packed = read32(h + 18);
    const uint32_t crc = read32(h + 14);
    read_zip64_extra(name, h + kLocalSize + name_len, extra_len, {&size, &packed});
    const bool deferred = (flags & kFlagDataDescriptor) && size == 0 && packed == 0 && crc == 0;
    if (!deferred && (size != entry.size || packed != entry.size || crc != entry.crc32)) {
      fail_entry(name, "has size ", size, " (CRC ", crc, ") in its local header but ", entry.size,
                 " (CRC ", entry.crc32, ") in the central directory");
    }
    if (!inside(data, entry.size, size_)) {
      fail_entry(name, "has its data (offset ", data, ", ", entry.size,
                 " bytes) beyond the end of the archive (", size_, " bytes)");
    }
    return data;
  }

  void check_layout(std::vector<Region>& regions, const Directory& dir) const {
    std::sort(regions.begin(), regions.end(),
              [](const Region& a, const Region& b) { return a.begin < b.begin; });
    for (size_t i = 0; i < regions.size(); ++i) {
      if (regions[i].end > dir.offset) {
        fail_entry(*regions[i].name, "(bytes ", regions[i].begin, "..", regions[i].end,
                   ") overlaps the central directory at offset ", dir.offset);
      }
      if (i > 0 && regions[i - 1].end > regions[i].begin) {
        fail("entries '", printable(*regions[i - 1].name), "' and '", printable(*regions[i].name),
             "' overlap");
      }
    }
  }

 private:
  const uint8_t* data_;
  size_t size_;
  const std::string& origin_;
};

}  // namespace

ZipReader::ZipReader(const uint8_t* data, size_t size, std::string origin)
    : data_(data), size_(size), origin_(std::move(origin)) {
  Parser parser(data_, size_, origin_);
  const Directory dir = parser.read_directory();
  entries_.resize(dir.count);  // bounded: count <= directory bytes / 46 <= archive size / 46
  std::vector<Region> regions(dir.count);
  uint64_t p = dir.offset;
  const uint64_t end = dir.offset + dir.size;
  for (size_t i = 0; i < entries_.size(); ++i)
    p += parser.read_entry(p, end, entries_[i], regions[i]);
  if (p != end) parser.fail("the central directory has ", end - p, " bytes after its last entry");
  parser.check_layout(regions, dir);
  by_name_.resize(entries_.size());
  for (size_t i = 0; i < by_name_.size(); ++i) by_name_[i] = i;
  std::sort(by_name_.begin(), by_name_.end(),
            [&](size_t a, size_t b) { return entries_[a].name < entries_[b].name; });
  for (size_t i = 1; i < by_name_.size(); ++i) {
    if (entries_[by_name_[i - 1]].name == entries_[by_name_[i]].name) {
      parser.fail("duplicate entry '", printable(entries_[by_name_[i]].name), "'");
    }
  }
}

const ZipEntry* ZipReader::find(std::string_view name) const {
  auto it = std::lower_bound(by_name_.begin(), by_name_.end(), name,
                             [&](size_t i, std::string_view n) { return entries_[i].name < n; });
  if (it == by_name_.end() || entries_[*it].name != name) return nullptr;
  return &entries_[*it];
}

std::span<const uint8_t> ZipReader::record(std::string_view name, bool verify_crc) const {
  const ZipEntry* entry = find(name);
  BRASA_CHECK_TYPED(SerializationError, entry != nullptr, "zip '", origin_, "': no record '", name,
                    "'");
  std::span<const uint8_t> bytes(data_ + entry->data_offset, entry->size);
  if (verify_crc) {
    const uint32_t crc = crc32_of(bytes.data(), bytes.size());
    BRASA_CHECK_TYPED(SerializationError, crc == entry->crc32, "zip '", origin_, "': record '",
                      name, "' has CRC-32 ", crc, " but the directory says ", entry->crc32,
                      " (corrupted file)");
  }
  return bytes;
}

}  // namespace brasa::serialize
