// ZipWriter (see zip.h): streams stored records with 64-byte aligned data, then the central
// directory. Field values follow PyTorch's writer (miniz): no flags, no dates, version 0 except
// where ZIP64 fields need 4.5.

#include "archive/zip.h"
#include "archive/zip_format.h"
#include "brasa/archive/error.h"

namespace brasa::serialize {

using namespace zip;

ZipWriter::ZipWriter(ByteSink sink, bool force_zip64)
    : sink_(std::move(sink)), force_zip64_(force_zip64) {}

namespace {

void emit(const ByteSink& sink, uint64_t& offset, const void* data, size_t n) {
  if (n == 0) return;
  sink(data, n);
  offset += n;
}

}  // namespace

void ZipWriter::add(std::string_view name, const void* data, size_t n) {
  BRASA_CHECK_TYPED(SerializationError, !finished_, "zip writer: add('", printable(name),
                    "') after finish()");
  const std::string_view problem = zip_name_problem(name);
  BRASA_CHECK_TYPED(SerializationError, problem.empty(), "zip writer: record name '",
                    printable(name), "' ", problem);
  BRASA_CHECK_TYPED(SerializationError, data != nullptr || n == 0, "zip writer: record '",
                    printable(name), "' has ", n, " bytes but no data");
  BRASA_CHECK_TYPED(SerializationError, names_.emplace(name).second,
                    "zip writer: duplicate record '", printable(name), "'");
  const uint32_t crc = crc32_of(data, n);
  const bool zip64 = force_zip64_ || n >= kMax32;
  const size_t extra = (zip64 ? 4 + 16 : 0) + 4;
  const uint64_t unpadded = offset_ + kLocalSize + name.size() + extra;
  const size_t pad = static_cast<size_t>((kAlignment - unpadded % kAlignment) % kAlignment);
  std::string h;
  put32(h, kLocalSig);
  put16(h, zip64 ? kVersionZip64 : 0);
  put16(h, 0);  // flags: sizes and CRC are in this header, no data descriptor
  put16(h, 0);  // method: stored
  put32(h, 0);  // time and date
  put32(h, crc);
  put32(h, zip64 ? kMax32 : n);
  put32(h, zip64 ? kMax32 : n);
  put16(h, name.size());
  put16(h, extra + pad);
  h.append(name);
  if (zip64) {
    put16(h, kZip64ExtraId);
    put16(h, 16);
    put64(h, n);
    put64(h, n);
  }
  put16(h, kPaddingExtraId);
  put16(h, pad);
  h.append(pad, 'Z');
  entries_.push_back(ZipEntry{std::string(name), offset_, n, crc});
  emit(sink_, offset_, h.data(), h.size());
  emit(sink_, offset_, data, n);
}

void ZipWriter::finish() {
  BRASA_CHECK_TYPED(SerializationError, !finished_, "zip writer: finish() called twice");
  finished_ = true;
  const uint64_t directory = offset_;
  for (const ZipEntry& e : entries_) {
    const bool big_size = force_zip64_ || e.size >= kMax32;
    const bool big_offset = force_zip64_ || e.data_offset >= kMax32;
    const size_t extra = (big_size ? 16 : 0) + (big_offset ? 8 : 0);
    std::string h;
    put32(h, kCentralSig);
    put16(h, 0);  // version made by
    put16(h, extra > 0 ? kVersionZip64 : 0);
    put16(h, 0);  // flags
    put16(h, 0);  // method
    put32(h, 0);  // time and date
    put32(h, e.crc32);
    put32(h, big_size ? kMax32 : e.size);
    put32(h, big_size ? kMax32 : e.size);
    put16(h, e.name.size());
    put16(h, extra > 0 ? 4 + extra : 0);
    put16(h, 0);  // comment length
    put16(h, 0);  // disk
    put16(h, 0);  // internal attributes
    put32(h, 0);  // external attributes
    put32(h, big_offset ? kMax32 : e.data_offset);
    h.append(e.name);
    if (extra > 0) {
      put16(h, kZip64ExtraId);
      put16(h, extra);
      if (big_size) {
        put64(h, e.size);
        put64(h, e.size);
      }
      if (big_offset) put64(h, e.data_offset);
    }
    emit(sink_, offset_, h.data(), h.size());
  }
  const uint64_t size = offset_ - directory, count = entries_.size();
  const bool big_count = force_zip64_ || count >= kMax16;
  const bool big_size = force_zip64_ || size >= kMax32;
  const bool big_offset = force_zip64_ || directory >= kMax32;
  std::string h;
  if (big_count || big_size || big_offset) {
    const uint64_t zip64_end = offset_;
    put32(h, kZip64EocdSig);
    put64(h, kZip64EocdSize - 12);
    put16(h, kVersionMadeBy);
    put16(h, kVersionZip64);
    put32(h, 0);  // this disk
    put32(h, 0);  // disk of the central directory
    put64(h, count);
    put64(h, count);
    put64(h, size);
    put64(h, directory);
    put32(h, kZip64LocatorSig);
    put32(h, 0);  // disk of the ZIP64 end record
    put64(h, zip64_end);
    put32(h, 1);  // total disks
  }
  put32(h, kEocdSig);
  put32(h, 0);  // disk numbers
  put16(h, big_count ? kMax16 : count);
  put16(h, big_count ? kMax16 : count);
  put32(h, big_size ? kMax32 : size);
  put32(h, big_offset ? kMax32 : directory);
  put16(h, 0);  // comment length
  emit(sink_, offset_, h.data(), h.size());
}

}  // namespace brasa::serialize
