// Every archive of tests/serialize/malformed/zip (made by make_malformed_zip.py) is rejected with a
// SerializationError that names the origin and the problem; the valid seeds of the same layout
// load.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "archive/zip.h"
#include "brasa/serialize/error.h"
#include "support/source_tree.h"

namespace brasa::serialize {
namespace {

namespace fs = std::filesystem;

fs::path source_dir() { return testing::source_dir("tests/serialize/malformed/zip"); }

// File name -> a fragment its error message must contain.
const std::map<std::string, std::string>& expected_errors() {
  static const std::map<std::string, std::string> table{
      {"absolute_name", "entry '/etc/passwd' has an unsafe name: it is an absolute path"},
      {"backslash_name", "contains a backslash"},
      {"bad_central_signature", "bad central directory signature"},
      {"bad_local_signature", "entry 'archive/data/0' has a bad local header signature"},
      {"compressed",
       "entry 'archive/data/0' is compressed (method 8); torch.save files store records "
       "uncompressed"},
      {"data_beyond_file", "entry 'archive/data/0' has its data (offset 128, 1073741824 bytes)"},
      {"data_overlaps_directory", "entry 'archive/version' (bytes"},
      {"dotdot_leading_name", "contains a '..' component"},
      {"dotdot_name", "entry 'archive/../evil' has an unsafe name: it contains a '..' component"},
      {"duplicate_names", "duplicate entry 'archive/x'"},
      {"empty_name", "is empty"},
      {"encrypted", "entry 'archive/data/0' is encrypted"},
      {"eocd_comment_length", "comment length"},
      {"eocd_offset_beyond_file", "does not end where the end of central directory record begins"},
      {"eocd_size_beyond_file", "does not end where the end of central directory record begins"},
      {"fewer_entries_than_directory", "bytes after its last entry"},
      {"huge_entry_count", "65534 entries cannot fit in a central directory of"},
      {"local_beyond_file", "has its local header at offset 1073741824, beyond the archive"},
      {"local_central_size_mismatch", "has size 99 (CRC"},
      {"local_extra_past_header", "local header running past the end"},
      {"local_method_differs", "flags or method differ"},
      {"local_name_differs", "different name in its local header"},
      {"multi_disk", "multi-disk archives are not supported"},
      {"no_eocd", "no end of central directory record"},
      {"nul_name", "entry 'archive/a\\x00b' has an unsafe name: it contains a NUL byte"},
      {"overlapping_entries", "entries 'archive/data.pkl' and 'archive/data/0' overlap"},
      {"placeholders_without_zip64", "no ZIP64 locator"},
      {"size_placeholder_without_zip64_extra", "no ZIP64 extra field"},
      {"stored_size_mismatch", "compressed size 50 differs from its size 100"},
      {"truncated_half", "no end of central directory record"},
      {"truncated_header", "truncated archive (10 bytes"},
      {"zip64_bad_signature", "bad ZIP64 end of central directory signature"},
      {"zip64_huge_count", "1152921504606846976 entries cannot fit"},
      {"zip64_locator_beyond_file",
       "ZIP64 end of central directory offset 1099511627776 lies outside"},
      {"zip64_offset_beyond_file", "does not end where"},
  };
  return table;
}

TEST(ZipMalformedTest, EveryFileIsRejectedWithItsReason) {
  const fs::path dir = source_dir() / "tests/serialize/malformed/zip";
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  std::set<std::string> seen;
  for (const auto& item : fs::directory_iterator(dir)) {
    const std::string stem = item.path().stem().string();
    seen.insert(stem);
    auto it = expected_errors().find(stem);
    ASSERT_NE(it, expected_errors().end()) << "no expectation for " << item.path();
    auto file = MappedFile::open(item.path().string());
    try {
      ZipReader reader(file->data(), file->size(), file->path());
      for (const auto& e : reader.entries()) reader.record(e.name);
      ADD_FAILURE() << stem << " was accepted";
    } catch (const SerializationError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("zip '" + file->path() + "': "), std::string::npos) << what;
      EXPECT_NE(what.find(it->second), std::string::npos) << stem << ": " << what;
    }
  }
  EXPECT_EQ(seen.size(), expected_errors().size());
}

TEST(ZipMalformedTest, ValidSeedsOfTheSameLayoutLoad) {
  const fs::path dir = source_dir() / "fuzz/corpus/zip";
  for (const char* name : {"valid.zip", "valid_zip64.zip", "empty.zip"}) {
    auto file = MappedFile::open((dir / name).string());
    ZipReader reader(file->data(), file->size(), file->path());
    for (const auto& e : reader.entries()) {
      EXPECT_EQ(e.data_offset % 64, 0u);
      reader.record(e.name);
    }
    EXPECT_EQ(reader.entries().size(), std::string(name) == "empty.zip" ? 0u : 3u) << name;
  }
}

TEST(ZipMalformedTest, EveryTruncationAndByteFlipIsHandled) {
  // Exhaustive small-scale fuzzing of the valid seed: any prefix and any single-byte change either
  // parses or throws SerializationError (never anything else, never reads out of bounds).
  auto file = MappedFile::open((source_dir() / "fuzz/corpus/zip/valid_zip64.zip").string());
  std::vector<uint8_t> bytes(file->data(), file->data() + file->size());
  auto attempt = [](const std::vector<uint8_t>& b, size_t n) {
    try {
      ZipReader reader(b.data(), n, "<buffer>");
      for (const auto& e : reader.entries()) reader.record(e.name);
    } catch (const SerializationError&) {
    }
  };
  for (size_t n = 0; n < bytes.size(); ++n) attempt(bytes, n);
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t v : {uint8_t{0}, uint8_t{0xFF}, static_cast<uint8_t>(bytes[i] ^ 1)}) {
      std::vector<uint8_t> b = bytes;
      b[i] = v;
      attempt(b, b.size());
    }
  }
}

}  // namespace
}  // namespace brasa::serialize
