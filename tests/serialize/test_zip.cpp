// The stored ZIP container of torch.save files: round trips, alignment, ZIP64, interop with
// Python's zipfile and real torch.save archives, and writer misuse.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "archive/zip.h"
#include "brasa/serialize/error.h"

namespace brasa::serialize {
namespace {

using Records = std::vector<std::pair<std::string, std::vector<uint8_t>>>;

std::vector<uint8_t> write_zip(const Records& records, bool force_zip64 = false) {
  std::vector<uint8_t> out;
  ZipWriter writer(
      [&](const void* p, size_t n) {
        out.insert(out.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
      },
      force_zip64);
  for (const auto& [name, bytes] : records) writer.add(name, bytes.data(), bytes.size());
  writer.finish();
  return out;
}

Records make_records(size_t count) {
  std::mt19937 rng(7);
  Records records;
  for (size_t i = 0; i < count; ++i) {
    std::string name = "archive/" + std::string(i % 37, 'n') + "/data/" + std::to_string(i);
    std::vector<uint8_t> bytes(i % 5 == 0 ? 0 : rng() % 300);
    for (auto& b : bytes) b = static_cast<uint8_t>(rng());
    records.emplace_back(std::move(name), std::move(bytes));
  }
  return records;
}

void expect_records(const ZipReader& reader, const Records& records) {
  ASSERT_EQ(reader.entries().size(), records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    const ZipEntry& e = reader.entries()[i];
    EXPECT_EQ(e.name, records[i].first);
    EXPECT_EQ(e.data_offset % 64, 0u) << e.name;
    auto bytes = reader.record(e.name);
    EXPECT_EQ(std::vector<uint8_t>(bytes.begin(), bytes.end()), records[i].second) << e.name;
    EXPECT_EQ(reader.find(e.name), &e);
  }
  EXPECT_EQ(reader.find("archive/missing"), nullptr);
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("brasa_zip_" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

std::string run_python(const std::string& script, const TempDir& dir) {
  const std::string py = dir.file("script.py");
  std::ofstream(py) << script;
  FILE* pipe = popen(("/usr/bin/python3 " + py + " 2>&1").c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  EXPECT_EQ(pclose(pipe), 0) << out;
  return out;
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

TEST(ZipTest, RoundTripManyRecords) {
  const Records records = make_records(120);
  const auto bytes = write_zip(records);
  ZipReader reader(bytes.data(), bytes.size(), "<buffer>");
  expect_records(reader, records);
  // No ZIP64 records when nothing needs them.
  EXPECT_EQ(std::search(bytes.begin(), bytes.end(), "PK\x06\x06", "PK\x06\x06" + 4), bytes.end());
}

TEST(ZipTest, EmptyArchiveAndEmptyRecord) {
  const auto empty = write_zip({});
  EXPECT_EQ(empty.size(), 22u);
  EXPECT_TRUE(ZipReader(empty.data(), empty.size(), "<buffer>").entries().empty());
  const auto one = write_zip({{"archive/version", {}}});
  ZipReader reader(one.data(), one.size(), "<buffer>");
  EXPECT_EQ(reader.record("archive/version").size(), 0u);
  EXPECT_EQ(reader.entries()[0].data_offset, 64u);
}

TEST(ZipTest, ForcedZip64RoundTrip) {
  const Records records = make_records(40);
  const auto bytes = write_zip(records, /*force_zip64=*/true);
  EXPECT_NE(std::search(bytes.begin(), bytes.end(), "PK\x06\x06", "PK\x06\x06" + 4), bytes.end());
  // The plain end record holds only placeholders, so the ZIP64 records are what the reader used.
  EXPECT_EQ(bytes[bytes.size() - 12], 0xFF);
  ZipReader reader(bytes.data(), bytes.size(), "<buffer>");
  expect_records(reader, records);
}

TEST(ZipTest, CrcMismatchIsDetected) {
  auto bytes = write_zip({{"archive/data/0", {1, 2, 3, 4}}});
  bytes[64] ^= 0xFF;
  ZipReader reader(bytes.data(), bytes.size(), "model.pt");
  EXPECT_THROW(reader.record("archive/data/0"), SerializationError);
  EXPECT_EQ(reader.record("archive/data/0", /*verify_crc=*/false)[0], 0xFE);
  try {
    reader.record("archive/data/1");
    FAIL();
  } catch (const SerializationError& e) {
    EXPECT_NE(std::string(e.what()).find("zip 'model.pt': no record 'archive/data/1'"),
              std::string::npos)
        << e.what();
  }
}

TEST(ZipTest, WriterRejectsMisuse) {
  ZipWriter writer([](const void*, size_t) {});
  writer.add("a/b", "x", 1);
  EXPECT_THROW(writer.add("a/b", "y", 1), SerializationError);
  for (const char* bad : {"", "../x", "a/../b", "a/..", "/abs", "a\\b"}) {
    EXPECT_THROW(writer.add(bad, "x", 1), SerializationError) << bad;
  }
  EXPECT_THROW(writer.add(std::string_view("a\0b", 3), "x", 1), SerializationError);
  writer.add("a/..b", "x", 1);
  writer.finish();
  EXPECT_THROW(writer.add("c", "x", 1), SerializationError);
  EXPECT_THROW(writer.finish(), SerializationError);
}

TEST(ZipTest, PythonZipfileReadsOurArchives) {
  TempDir dir;
  const Records records = make_records(30);
  write_bytes(dir.file("plain.zip"), write_zip(records));
  write_bytes(dir.file("zip64.zip"), write_zip(records, true));
  const std::string out = run_python(
      "import zipfile, hashlib\n"
      "for f in ['plain.zip', 'zip64.zip']:\n"
      "    z = zipfile.ZipFile('" +
          dir.path.string() +
          "/' + f)\n"
          "    assert z.testzip() is None, f\n"
          "    for i in z.infolist():\n"
          "        assert i.compress_type == zipfile.ZIP_STORED\n"
          "        print(i.filename, len(z.read(i)), sum(z.read(i)))\n",
      dir);
  std::string expected;
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& [name, bytes] : records) {
      size_t sum = 0;
      for (auto b : bytes) sum += b;
      expected += name + " " + std::to_string(bytes.size()) + " " + std::to_string(sum) + "\n";
    }
  }
  EXPECT_EQ(out, expected);
}

TEST(ZipTest, ReadsPythonWrittenStoredArchives) {
  // Seekable output (sizes in the local headers), forced ZIP64 extras, and an unseekable stream
  // (data descriptors: flag bit 3, zero sizes in the local headers, as torch.save 1.13 writes).
  TempDir dir;
  run_python(
      "import io, zipfile\n"
      "class Unseekable(io.RawIOBase):\n"
      "    def __init__(self, f): self.f = f\n"
      "    def writable(self): return True\n"
      "    def write(self, b): return self.f.write(b)\n"
      "    def tell(self): raise OSError\n"
      "for f, force, wrap in [('py.zip', False, 0), ('py64.zip', True, 0), ('pydd.zip', False, "
      "1)]:\n"
      "    with open('" +
          dir.path.string() +
          "/' + f, 'wb') as out:\n"
          "        with zipfile.ZipFile(Unseekable(out) if wrap else out, 'w', zipfile.ZIP_STORED) "
          "as z:\n"
          "            for i in range(25):\n"
          "                with z.open('top/rec%d' % i, 'w', force_zip64=force) as w:\n"
          "                    w.write(bytes((i * j) % 256 for j in range(i * 7)))\n"
          "            z.comment = b'a comment'\n",
      dir);
  for (const char* f : {"py.zip", "py64.zip", "pydd.zip"}) {
    auto file = MappedFile::open(dir.file(f));
    ZipReader reader(file->data(), file->size(), file->path());
    ASSERT_EQ(reader.entries().size(), 25u) << f;
    for (size_t i = 0; i < 25; ++i) {
      auto bytes = reader.record("top/rec" + std::to_string(i));
      ASSERT_EQ(bytes.size(), i * 7);
      for (size_t j = 0; j < bytes.size(); ++j) ASSERT_EQ(bytes[j], (i * j) % 256);
    }
  }
}

TEST(ZipTest, ReadsTorchSaveArchive) {
  TempDir dir;
  const std::string path = dir.file("archive.pt");
  run_python("import torch\ntorch.save({'a': torch.arange(5.)}, '" + path + "')\n", dir);
  auto file = MappedFile::open(path);
  ZipReader reader(file->data(), file->size(), path);
  std::vector<std::string> names;
  for (const auto& e : reader.entries()) {
    names.push_back(e.name);
    EXPECT_EQ(e.data_offset % 64, 0u) << e.name;
    reader.record(e.name);
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"archive/data.pkl", "archive/data/0", "archive/version"}));
  auto data = reader.record("archive/data/0");
  ASSERT_EQ(data.size(), 20u);
  const float expected[5] = {0, 1, 2, 3, 4};
  EXPECT_EQ(std::memcmp(data.data(), expected, 20), 0);
  auto version = reader.record("archive/version");
  EXPECT_EQ(std::string(version.begin(), version.end()), "3\n");
}

}  // namespace
}  // namespace brasa::serialize
