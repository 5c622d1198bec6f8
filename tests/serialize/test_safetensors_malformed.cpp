// Every file of tests/serialize/malformed/safetensors (written by safetensors_make_malformed.py)
// must be rejected with SerializationError, from a path and from bytes, without crashing.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/serialize/error.h"
#include "brasa/serialize/file_io.h"
#include "brasa/serialize/safetensors.h"
#include "support/source_tree.h"

namespace brasa {
namespace {

namespace fs = std::filesystem;

fs::path corpus_dir() {
  const fs::path rel = "tests/serialize/malformed/safetensors";
  const fs::path root = testing::source_dir(rel);
  return root.empty() ? root : root / rel;
}

TEST(SafetensorsMalformed, EveryCorpusFileIsRejected) {
  const fs::path dir = corpus_dir();
  ASSERT_FALSE(dir.empty()) << "cannot find tests/serialize/malformed/safetensors from "
                            << fs::current_path() << " or " << __FILE__;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".safetensors") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  EXPECT_GE(files.size(), 40u)
      << "corpus incomplete: run tests/serialize/safetensors_make_malformed.py";
  for (const fs::path& f : files) {
    SCOPED_TRACE(f.filename().string());
    std::string msg;
    try {
      serialize::load_safetensors(f.string());
      ADD_FAILURE() << f.filename() << ": loaded from the path without an error";
    } catch (const SerializationError& e) {
      msg = e.what();
      EXPECT_NE(msg.find(f.string()), std::string::npos)
          << "message does not name the file: " << msg;
    } catch (const std::exception& e) {
      ADD_FAILURE() << f.filename() << ": wrong exception type: " << e.what();
    }
    const std::vector<uint8_t> bytes = serialize::read_file(f.string());
    try {
      serialize::load_safetensors_from_bytes(bytes);
      ADD_FAILURE() << f.filename() << ": loaded from bytes without an error";
    } catch (const SerializationError& e) {
      EXPECT_EQ(std::string(e.what()).find(f.string()), std::string::npos);
    } catch (const std::exception& e) {
      ADD_FAILURE() << f.filename() << ": wrong exception type from bytes: " << e.what();
    }
    std::printf("  %-36s %s\n", f.filename().c_str(), msg.c_str());
  }
}

}  // namespace
}  // namespace brasa

namespace brasa {
namespace {

// A cheap in-process stand-in for the fuzzer: byte mutations and truncations of a valid image
// either load or throw SerializationError.
TEST(SafetensorsMalformed, MutationsLoadOrThrowSerializationError) {
  const std::vector<uint8_t> valid =
      serialize::save_safetensors_to_bytes({{"w", arange(6, TensorOptions(kFloat)).reshape({2, 3})},
                                            {"b", arange(3, TensorOptions(kLong))},
                                            {"m", ones({2}, TensorOptions(kBool))}},
                                           {{"format", "pt"}});
  const uint8_t replacements[] = {0,   1,   '-', '0', '9', '"',  '{',  '}',  '[',  ']',
                                  ',', ':', ' ', '.', 'e', '\\', 0x7F, 0x80, 0xC3, 0xFF};
  size_t loaded = 0, rejected = 0;
  auto attempt = [&](const std::vector<uint8_t>& bytes, const std::string& what) {
    try {
      serialize::load_safetensors_from_bytes(bytes);
      ++loaded;
    } catch (const SerializationError&) {
      ++rejected;
    } catch (const std::exception& e) {
      ADD_FAILURE() << what << ": " << e.what();
    }
  };
  for (size_t i = 0; i < valid.size(); ++i) {
    for (uint8_t r : replacements) {
      std::vector<uint8_t> m = valid;
      m[i] = r;
      attempt(m, "byte " + std::to_string(i) + " := " + std::to_string(r));
    }
    attempt(std::vector<uint8_t>(valid.begin(), valid.begin() + static_cast<int64_t>(i)),
            "truncated to " + std::to_string(i));
  }
  EXPECT_GT(rejected, 0u);
  EXPECT_GT(loaded, 0u);
}

TEST(SafetensorsMalformed, HugeEmptyShapes) {
  auto image = [](const std::string& header) {
    std::vector<uint8_t> out(8 + header.size());
    for (int i = 0; i < 8; ++i) out[i] = static_cast<uint8_t>(header.size() >> (8 * i));
    std::copy(header.begin(), header.end(), out.begin() + 8);
    return out;
  };
  EXPECT_THROW(
      serialize::load_safetensors_from_bytes(
          image(R"({"a":{"dtype":"F32","shape":[0,4611686018427387904,4],"data_offsets":[0,0]}})")),
      SerializationError);
  const auto ok = serialize::load_safetensors_from_bytes(
      image(R"({"a":{"dtype":"F32","shape":[0,1000000],"data_offsets":[0,0]}})"));
  EXPECT_EQ(ok.tensors["a"].numel(), 0);
}

}  // namespace
}  // namespace brasa
