// The distributed checkpoint's metadata parser on valid and malformed text: every malformation is
// a SerializationError naming the source and line (fuzz/fuzz_dcp_metadata.cpp runs it on random
// bytes).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "brasa/serialize/dcp_metadata.h"
#include "support/source_tree.h"

namespace {
using namespace brasa;
namespace dcp = brasa::serialize::dcp;

dcp::Metadata sample() {
  dcp::Metadata m;
  m.generation = 3;
  m.world_size = 2;
  m.block_size = 64;
  m.files = {{"__3_0.distcp", 200}, {"__3_1.distcp", 96}};
  dcp::TensorMeta w;
  w.name = "model.w";
  w.dtype = kDouble;
  w.shape = {5, 4};
  w.chunks.push_back({0, 0, {0, 0}, {3, 4}, {1, 2}});  // 96 bytes: 2 blocks
  w.chunks.push_back({1, 0, {3, 0}, {2, 4}, {3}});     // 64 bytes: 1 block
  dcp::TensorMeta s;
  s.name = "step";
  s.dtype = kLong;
  s.chunks.push_back({0, 96, {}, {}, {4}});
  dcp::TensorMeta e;
  e.name = "empty";
  e.dtype = kFloat;
  e.shape = {0, 3};
  m.tensors = {w, s, e};
  return m;
}

std::string error_of(const std::string& text, bool verify = false) {
  try {
    dcp::parse_metadata(text, "m.meta", verify);
  } catch (const SerializationError& e) {
    return e.what();
  }
  return "no error";
}

// The sample's text with `from` replaced by `to` (once).
std::string edited(const std::string& from, const std::string& to) {
  std::string t = dcp::format_metadata(sample());
  const size_t at = t.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? t : t.replace(at, from.size(), to);
}

TEST(DcpMetadata, RoundTrips) {
  const std::string text = dcp::format_metadata(sample());
  const dcp::Metadata m = dcp::parse_metadata(text, "m.meta");
  EXPECT_EQ(m.generation, 3);
  EXPECT_EQ(m.world_size, 2);
  ASSERT_EQ(m.tensors.size(), 3u);
  EXPECT_EQ(m.tensors[0].chunks[1].offsets, (std::vector<int64_t>{3, 0}));
  EXPECT_EQ(m.tensors[0].chunks[0].crcs, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(m.tensors[1].shape.size(), 0u);
  EXPECT_EQ(m.find("empty")->numel(), 0);
  EXPECT_EQ(m.find("nope"), nullptr);
  EXPECT_EQ(dcp::format_metadata(m), text);
}

TEST(DcpMetadata, AChangedByteFailsTheChecksum) {
  const std::string t = edited("generation 3", "generation 4");
  EXPECT_NE(error_of(t, true).find("checksum"), std::string::npos) << error_of(t, true);
  EXPECT_EQ(error_of(t, false), "no error");
}

TEST(DcpMetadata, MalformedTextNamesTheLineAndTheProblem) {
  const struct {
    const char* from;
    const char* to;
    const char* expect;
  } cases[] = {
      {"brasa-dcp 1", "brasa-dcp 2", "version 2"},
      {"brasa-dcp 1", "brasa-dcpx 1", "expected 'brasa-dcp'"},
      {"world_size 2", "world_size 0", "outside"},
      {"byte_order little", "byte_order big", "byte order"},
      {"block_size 64", "block_size +64", "not a decimal"},
      {"block_size 64", "block_size 064", "not a decimal"},
      {"__3_1.distcp", "../etc/pwd", "not a plain name"},
      {"__3_1.distcp", "__3_0.distcp", "listed twice"},
      {"tensor step", "tensor model.w", "listed twice"},
      {"float64", "float65", "unknown dtype"},
      {"chunk 1 0 3 0 2 4", "chunk 1 0 2 0 2 4", "overlaps chunk 0"},
      {"chunk 1 0 3 0 2 4", "chunk 1 0 3 0 1 4", "cover 16 of its 20"},
      {"chunk 1 0 3 0 2 4", "chunk 1 0 4 0 2 4", "chunk length 2 is outside"},
      {"chunk 1 0 3 0 2 4", "chunk 1 40 3 0 2 4", "outside file __3_1.distcp"},
      {"chunk 1 0 3 0 2 4", "chunk 2 0 3 0 2 4", "file index 2 is outside"},
      {"chunk 0 0 0 0 3 4 00000001 00000002", "chunk 0 0 0 0 3 4 00000001", "needs 2 block CRCs"},
      {"00000003", "0000003g", "not 8 hex digits"},
      {"tensor empty float32 2 0 3 0", "tensor empty float32 17 0 3 0", "outside [0, 16]"},
      {"tensor empty float32 2 0 3 0", "tensor empty float32 2 0 3", "fields, expected"},
      {"tensor empty float32 2 0 3 0", "tensor empty float32 4 9999999 9999999 9999999 9999999 0",
       "larger than"},
      {"tensor empty", "tensor  empty", "empty field"},
      {"tensors 3", "tensors 4", "expected 'tensor'"},
      {"files 2", "files 3", "expected 'file'"},
  };
  for (const auto& c : cases) {
    const std::string msg = error_of(edited(c.from, c.to));
    EXPECT_NE(msg.find(c.expect), std::string::npos) << c.from << " -> " << c.to << ": " << msg;
    EXPECT_NE(msg.find("m.meta, line "), std::string::npos) << msg;
  }
  const std::string good = dcp::format_metadata(sample());
  EXPECT_NE(error_of(good.substr(0, good.size() - 1)).find("newline"), std::string::npos);
  EXPECT_NE(error_of(good + "x\n").find("after the 'end'"), std::string::npos);
  EXPECT_NE(error_of("").find("missing line"), std::string::npos);
  EXPECT_NE(error_of(std::string("brasa-dcp 1\0\n", 13)).find("not a decimal"), std::string::npos);
}

// tests/serialize/malformed/dcp_metadata: checksummed texts with structural faults (path traversal,
// overlapping or missing chunks, bytes past a file's end, overflowing dims, ...), a bad checksum,
// truncated, NUL bytes, empty. scripts/fuzz.sh --smoke replays them through fuzz_dcp_metadata too.
TEST(DcpMetadata, EveryCommittedMalformedFileIsRejected) {
  const auto dir = brasa::testing::source_dir("tests/serialize/malformed/dcp_metadata") /
                   "tests/serialize/malformed/dcp_metadata";
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    const std::string msg = error_of(text, /*verify=*/true);
    EXPECT_NE(msg, "no error") << e.path();
    EXPECT_NE(msg.find("m.meta"), std::string::npos) << e.path() << ": " << msg;
    ++files;
  }
  EXPECT_GE(files, 15);
}

}  // namespace
