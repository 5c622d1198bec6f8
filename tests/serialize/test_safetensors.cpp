// safetensors reader/writer: round trips, zero-copy loads, writer layout and errors.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/serialize/error.h"
#include "brasa/serialize/file_io.h"
#include "brasa/serialize/safetensors.h"

namespace brasa {
namespace {

using serialize::load_safetensors;
using serialize::load_safetensors_from_bytes;
using serialize::save_safetensors;
using serialize::save_safetensors_to_bytes;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "brasa_st_" + std::to_string(::getpid()) + "_" + name;
}

Tensor sample(ScalarType dt, IntArrayRef shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  Tensor t = arange(n, TensorOptions(kDouble)).mul(0.75).sub(3.0);
  if (dt == kBool) return t.gt(0).reshape(shape);
  return t.to(dt).reshape(shape);
}

void expect_same(const Tensor& a, const Tensor& b, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(a.scalar_type(), b.scalar_type());
  EXPECT_EQ(a.sizes(), b.sizes());
  EXPECT_TRUE(equal(a, b));
}

std::vector<uint8_t> with_length(const std::string& header, size_t data_bytes) {
  std::vector<uint8_t> out(8 + header.size() + data_bytes, 0);
  uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) out[i] = static_cast<uint8_t>(n >> (8 * i));
  std::memcpy(out.data() + 8, header.data(), header.size());
  return out;
}

std::string error_of(const std::vector<uint8_t>& bytes) {
  try {
    load_safetensors_from_bytes(bytes);
  } catch (const SerializationError& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(Safetensors, RoundTripAllDtypes) {
  std::map<std::string, Tensor> tensors;
  for (ScalarType dt : kAllScalarTypes) tensors[to_string(dt)] = sample(dt, {3, 4});
  tensors["scalar"] = sample(kFloat, {});
  tensors["empty"] = sample(kDouble, {0, 3});
  tensors["noncontig"] = sample(kInt, {4, 5}).t().slice(0, 1, 5, 2);
  const std::string path = temp_path("all.safetensors");
  save_safetensors(path, tensors, {{"format", "pt"}, {"note", "\"quoted\"\n\u00e9"}});
  const serialize::SafeTensors loaded = load_safetensors(path);
  EXPECT_EQ(loaded.tensors.size(), tensors.size());
  for (const auto& [name, t] : tensors) expect_same(loaded.tensors[name], t, name);
  EXPECT_EQ(loaded.metadata.at("format"), "pt");
  EXPECT_EQ(loaded.metadata.at("note"), "\"quoted\"\n\u00e9");
  EXPECT_EQ(loaded.tensors["scalar"].dim(), 0);
  std::remove(path.c_str());
}

TEST(Safetensors, BytesMatchFile) {
  const std::vector<std::pair<std::string, Tensor>> list = {{"w", sample(kHalf, {2, 3})},
                                                            {"b", sample(kLong, {3})}};
  const std::vector<uint8_t> bytes = save_safetensors_to_bytes(list);
  const std::string path = temp_path("bytes.safetensors");
  save_safetensors(path, list);
  std::ifstream f(path, std::ios::binary);
  const std::vector<uint8_t> file((std::istreambuf_iterator<char>(f)), {});
  EXPECT_EQ(bytes, file);
  const serialize::SafeTensors loaded = load_safetensors_from_bytes(bytes);
  expect_same(loaded.tensors["w"], list[0].second, "w");
  expect_same(loaded.tensors["b"], list[1].second, "b");
  EXPECT_TRUE(loaded.metadata.empty());
  std::remove(path.c_str());
}

TEST(Safetensors, WriterLayout) {
  const std::vector<uint8_t> bytes = save_safetensors_to_bytes({{"b", sample(kFloat, {2})},
                                                                {"a", sample(kFloat, {1})},
                                                                {"c", sample(kLong, {1})},
                                                                {"d", sample(kBool, {3})}},
                                                               {{"format", "pt"}});
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | bytes[i];
  EXPECT_EQ(n % 8, 0u);
  const std::string header(bytes.begin() + 8, bytes.begin() + 8 + static_cast<int64_t>(n));
  const std::string json =
      R"({"__metadata__":{"format":"pt"},"c":{"dtype":"I64","shape":[1],"data_offsets":[0,8]},)"
      R"("a":{"dtype":"F32","shape":[1],"data_offsets":[8,12]},)"
      R"("b":{"dtype":"F32","shape":[2],"data_offsets":[12,20]},)"
      R"("d":{"dtype":"BOOL","shape":[3],"data_offsets":[20,23]}})";
  EXPECT_EQ(header, json + std::string(n - json.size(), ' '));
  EXPECT_EQ(bytes.size(), 8 + n + 23);
}

// Where `p` is mapped, from /proc/self/maps ("" when it is not a file mapping).
std::string mapping_of(const void* p) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  const auto addr = reinterpret_cast<uintptr_t>(p);
  while (std::getline(maps, line)) {
    uintptr_t lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx", &lo, &hi) != 2) continue;
    if (addr < lo || addr >= hi) continue;
    const size_t slash = line.find('/');
    return slash == std::string::npos ? "" : line.substr(slash);
  }
  return "";
}

TEST(Safetensors, ZeroCopyViewsOutliveTheLoad) {
  const std::string path = temp_path("zero_copy.safetensors");
  const Tensor w = sample(kFloat, {16, 8});
  const Tensor b = sample(kDouble, {5});
  save_safetensors(path, {{"w", w}, {"b", b}});
  Tensor lw, lb;
  {
    serialize::SafeTensors loaded = load_safetensors(path);
    lw = loaded.tensors["w"];
    lb = loaded.tensors["b"];
  }
  EXPECT_EQ(mapping_of(lw.data_ptr()), path);
  EXPECT_EQ(mapping_of(lb.data_ptr()), path);
  // b (F64) comes first in the file, then w, back to back in one mapping.
  EXPECT_EQ(static_cast<char*>(lw.data_ptr()) - static_cast<char*>(lb.data_ptr()), 40);
  std::remove(path.c_str());
  expect_same(lw, w, "w");
  expect_same(lb, b, "b");
  lw.add_(1.0);  // copy-on-write mapping: writable
  EXPECT_TRUE(equal(lw, w.add(1.0)));
}

TEST(Safetensors, UnalignedDataIsCopied) {
  // Header of 13 bytes: the F32 data starts at file offset 21, not 4-byte aligned.
  const std::string header = R"({"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
  std::string padded = header + "     ";
  std::vector<uint8_t> bytes = with_length(padded, 8);
  ASSERT_NE((8 + padded.size()) % 4, 0u);
  const float v[2] = {1.5f, -2.25f};
  std::memcpy(bytes.data() + 8 + padded.size(), v, 8);
  const std::string path = temp_path("unaligned.safetensors");
  serialize::write_file_atomic(path, bytes.data(), bytes.size());
  const Tensor x = load_safetensors(path).tensors["x"];
  EXPECT_EQ(reinterpret_cast<uintptr_t>(x.data_ptr()) % 4, 0u);
  EXPECT_EQ(mapping_of(x.data_ptr()), "");
  EXPECT_EQ(x.data_ptr<float>()[0], 1.5f);
  EXPECT_EQ(x.data_ptr<float>()[1], -2.25f);
  std::remove(path.c_str());
}

TEST(Safetensors, ReaderAcceptsWhatTheReferenceAccepts) {
  // Header order differs from data order; unknown fields ignored; whitespace inside the JSON;
  // an empty tensor anywhere; escapes in names.
  const std::string header =
      "{ \"b\" : {\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[4,6], \"extra\": [1, {\"k\": "
      "null}, -2.5e3]},\n\"a\\u00e9\\n\":{\"dtype\":\"I16\",\"shape\":[2],\"data_offsets\":[0,4]},"
      "\"e\":{\"dtype\":\"F32\",\"shape\":[3,0],\"data_offsets\":[4,4]}}   ";
  std::vector<uint8_t> bytes = with_length(header, 6);
  bytes[bytes.size() - 1] = 7;
  const serialize::SafeTensors st = load_safetensors_from_bytes(bytes);
  ASSERT_EQ(st.tensors.size(), 3u);
  EXPECT_EQ(st.tensors[0].key(), "b");
  EXPECT_EQ(st.tensors[1].key(), "a\u00e9\n");
  EXPECT_EQ(st.tensors["b"].data_ptr<uint8_t>()[1], 7);
  EXPECT_EQ(st.tensors["e"].sizes(), IntArrayRef({3, 0}));
}

TEST(Safetensors, DtypeErrors) {
  const std::string unsupported =
      error_of(with_length(R"({"x":{"dtype":"F8_E4M3","shape":[2],"data_offsets":[0,2]}})", 2));
  EXPECT_NE(unsupported.find("tensor 'x' has dtype F8_E4M3, which brasa does not support"),
            std::string::npos)
      << unsupported;
  for (const char* dt : {"U16", "U32", "U64", "F8_E5M2", "F8_E8M0", "F8_E4M3FNUZ", "F8_E5M2FNUZ",
                         "F4", "F6_E2M3", "F6_E3M2", "C64"}) {
    const std::string msg = error_of(with_length(
        std::string(R"({"x":{"dtype":")") + dt + R"(","shape":[0],"data_offsets":[0,0]}})", 0));
    EXPECT_NE(msg.find("which brasa does not support"), std::string::npos) << msg;
  }
  const std::string unknown =
      error_of(with_length(R"({"x":{"dtype":"F7","shape":[2],"data_offsets":[0,2]}})", 2));
  EXPECT_NE(unknown.find("tensor 'x' has unknown dtype \"F7\""), std::string::npos) << unknown;
}

TEST(Safetensors, ErrorsNameFileTensorAndExpectation) {
  const std::string path = temp_path("bad_size.safetensors");
  const std::vector<uint8_t> bytes =
      with_length(R"({"weight":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})", 4);
  serialize::write_file_atomic(path, bytes.data(), bytes.size());
  try {
    load_safetensors(path);
    FAIL() << "no error";
  } catch (const SerializationError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find("'weight'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("expected 8 bytes"), std::string::npos) << msg;
  }
  std::remove(path.c_str());
  EXPECT_THROW(load_safetensors(temp_path("does_not_exist")), SerializationError);
}

TEST(Safetensors, WriterErrors) {
  const Tensor t = sample(kFloat, {4});
  EXPECT_THROW(save_safetensors_to_bytes({{"a", t}, {"b", t.view({2, 2})}}), ValueError);
  EXPECT_THROW(save_safetensors_to_bytes({{"a", t}, {"a", t.clone()}}), ValueError);
  EXPECT_THROW(save_safetensors_to_bytes({{"__metadata__", t}}), ValueError);
  EXPECT_THROW(save_safetensors_to_bytes({{"", t}}), ValueError);
  EXPECT_THROW(save_safetensors_to_bytes({{"u", Tensor()}}), ValueError);
  try {
    save_safetensors_to_bytes({{"a", t}, {"b", t.slice(0, 2, 4)}});
    FAIL() << "no error";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("'a' and 'b' share memory"), std::string::npos)
        << e.what();
  }
  // Empty tensors never conflict.
  EXPECT_NO_THROW(save_safetensors_to_bytes({{"a", t}, {"b", t.slice(0, 0, 0)}}));
}

}  // namespace
}  // namespace brasa
