// Every file of tests/serialize/malformed/safetensors (written by safetensors_make_malformed.py)
// must be rejected with SerializationError, from a path and from bytes, without crashing.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "brasa/serialize/error.h"
#include "brasa/serialize/file_io.h"
#include "brasa/serialize/safetensors.h"

namespace brasa {
namespace {

namespace fs = std::filesystem;

// The corpus folder: next to this source file, else found from the working directory upwards.
fs::path corpus_dir() {
  const fs::path rel = fs::path("tests") / "serialize" / "malformed" / "safetensors";
  const fs::path here = fs::path(__FILE__).parent_path() / "malformed" / "safetensors";
  if (fs::is_directory(here)) return here;
  for (fs::path dir = fs::current_path();; dir = dir.parent_path()) {
    for (const fs::path& c : {dir / rel, dir / ".." / rel}) {
      if (fs::is_directory(c)) return c;
    }
    if (dir == dir.root_path() || dir.empty()) break;
  }
  return {};
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
