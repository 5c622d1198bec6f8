// The pickle layer on its own: hand-assembled pickles in the forms PyTorch and Python write
// (memo, LONG1, SHORT_BINSTRING, torch.Size, _rebuild_parameter, _rebuild_tensor_v3), pickle ->
// unpickle round trips with an in-memory storage table, Python's pickle reading brasa's output,
// and a big-endian archive.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <map>

#include "archive/pickle.h"
#include "archive/zip.h"
#include "brasa/brasa.h"
#include "brasa/serialize/error.h"
#include "brasa/serialize/pt.h"

namespace brasa::serialize {
namespace {

using Bytes = std::string;
using namespace std::string_literals;

Bytes str(const std::string& s) {
  uint32_t n = static_cast<uint32_t>(s.size());
  return "X" + Bytes(reinterpret_cast<const char*>(&n), 4) + s;
}
Bytes glob(const std::string& module, const std::string& name) {
  return "c" + module + "\n" + name + "\n";
}
Bytes i1(uint8_t v) { return Bytes("K") + static_cast<char>(v); }

// Storages by key, counting loads.
struct Storages {
  std::map<std::string, Tensor> tensors;
  int loads = 0;
  StorageLoader loader() {
    return [this](const std::string& key, ScalarType dtype, uint64_t nbytes, const std::string&) {
      ++loads;
      Tensor t = tensors.at(key);
      BRASA_CHECK_TYPED(SerializationError, t.scalar_type() == dtype && t.nbytes() == nbytes,
                        "size");
      return t;
    };
  }
};

IValue load(const Bytes& pkl, Storages& s) {
  return unpickle(reinterpret_cast<const uint8_t*>(pkl.data()), pkl.size(), s.loader(), "<test>");
}

TEST(Pickle, MemoLongAndStrings) {
  // PROTO 2, EMPTY_LIST BINPUT 0 MARK ... APPENDS; LONG_BINPUT/LONG_BINGET; SHORT_BINSTRING; LONG1.
  Bytes p = "\x80\x02]q\x00("s + str("a") + "r\x10\x01\x00\x00"s + "j\x10\x01\x00\x00"s +
            "U\x02hi" + Bytes("\x8a\x02\x00\x80", 4) + Bytes("\x8a\x01\xff", 3) +
            Bytes("\x8a\x00", 2) + "J\xfe\xff\xff\xff" + "M\x34\x12" + "N\x88\x89" + "h\x00"s +
            Bytes("e.");
  Storages s;
  // The list containing itself via BINGET 0 must be rejected, so drop the last memo reference.
  EXPECT_THROW(load(p, s), SerializationError);
  p = "\x80\x02]q\x00("s + str("a") + "r\x10\x01\x00\x00"s + "j\x10\x01\x00\x00"s + "U\x02hi" +
      Bytes("\x8a\x02\x00\x80", 4) + Bytes("\x8a\x01\xff", 3) + Bytes("\x8a\x00", 2) +
      "J\xfe\xff\xff\xff" + "M\x34\x12" + "N\x88\x89" + Bytes("e.");
  IValue v = load(p, s);
  const auto& l = v.toListRef();
  ASSERT_EQ(l.size(), 11u);
  EXPECT_EQ(l[0].toStringRef(), "a");
  EXPECT_EQ(l[1].toStringRef(), "a");
  EXPECT_EQ(l[2].toStringRef(), "hi");
  EXPECT_EQ(l[3].toInt(), -32768);
  EXPECT_EQ(l[4].toInt(), -1);
  EXPECT_EQ(l[5].toInt(), 0);
  EXPECT_EQ(l[6].toInt(), -2);
  EXPECT_EQ(l[7].toInt(), 0x1234);
  EXPECT_TRUE(l[8].isNone());
  EXPECT_TRUE(l[9].toBool());
  EXPECT_FALSE(l[10].toBool());
}

Bytes persid(const std::string& cls, const std::string& key, uint8_t numel,
             const std::string& location = "cpu") {
  return "(" + str("storage") + glob("torch", cls) + str(key) + str(location) + i1(numel) + "tQ";
}

TEST(Pickle, RebuildFormsAndSharedStorage) {
  Storages s;
  s.tensors["0"] = arange(6, TensorOptions().dtype(kFloat));
  s.tensors["1"] = arange(4, TensorOptions().dtype(kInt));
  Bytes hooks = glob("collections", "OrderedDict") + ")R";
  Bytes v2 = glob("torch._utils", "_rebuild_tensor_v2");
  Bytes p =
      "\x80\x02}(" + str("a") + v2 + "(" + persid("FloatStorage", "0", 6, "cuda:1") + i1(1) +
      i1(2) + i1(2) + "\x86" + i1(1) + i1(3) + "\x86\x88" + hooks + "tR" +
      // _rebuild_parameter(_rebuild_tensor_v2(...), True, OrderedDict()) over the same storage
      str("p") + glob("torch._utils", "_rebuild_parameter") + "(" + v2 + "(" +
      persid("FloatStorage", "0", 6) + i1(0) + i1(6) + "\x85" + i1(1) + "\x85\x89" + hooks + "tR" +
      "\x88" + hooks + "tR" +
      // _rebuild_tensor_v3(UntypedStorage of 16 bytes, ..., torch.int32)
      str("v3") + glob("torch._utils", "_rebuild_tensor_v3") + "(" +
      persid("UntypedStorage", "1", 16) + i1(0) + ")" + ")" + "\x89" + hooks +
      glob("torch", "int32") + "tR" + str("size") + glob("torch", "Size") + i1(2) + i1(3) +
      "\x86\x85R" + "u.";
  GenericDict d = load(p, s).toGenericDict();
  EXPECT_EQ(s.loads, 2);
  const Tensor& a = d.at("a").toTensor();
  EXPECT_EQ(a.sizes(), IntArrayRef({2, 2}));
  EXPECT_EQ(a.strides(), IntArrayRef({1, 3}));
  EXPECT_EQ(a.storage_offset(), 1);
  EXPECT_TRUE(a.requires_grad());
  const Tensor& param = d.at("p").toTensor();
  EXPECT_TRUE(param.requires_grad());
  EXPECT_EQ(param.storage().get(), a.storage().get());
  EXPECT_EQ(d.at("v3").toTensor().dim(), 0);
  EXPECT_EQ(d.at("v3").toTensor().scalar_type(), kInt);
  EXPECT_EQ(d.at("size").toIntVector(), (std::vector<int64_t>{2, 3}));
}

TEST(Pickle, RoundTripAndBatches) {
  GenericDict d;
  for (int i = 0; i < 2500; ++i) d.insert("k" + std::to_string(i), i * 1000);
  std::vector<IValue> items;
  for (int i = 0; i < 2500; ++i) {
    if (i % 2) {
      items.emplace_back(i * 0.5);
    } else {
      items.emplace_back(-i * 70000);
    }
  }
  d.insert("items", items);
  Tensor w = randn({3, 4});
  d.insert("w", w);
  d.insert("wt", w.t());
  std::vector<Storage> storages;
  std::vector<uint8_t> bytes = pickle(IValue(d), storages);
  ASSERT_EQ(storages.size(), 1u);
  Storages s;
  s.tensors["0"] = w;
  GenericDict back = unpickle(bytes.data(), bytes.size(), s.loader(), "<test>").toGenericDict();
  EXPECT_EQ(back.size(), d.size());
  EXPECT_EQ(back.at("k2499").toInt(), 2499000);
  EXPECT_EQ(back.at("items").toListRef()[2498].toInt(), -2498 * 70000);
  EXPECT_EQ(back.at("items").toListRef()[2499].toDouble(), 2499 * 0.5);
  EXPECT_TRUE(back.at("wt").toTensor().equal(w.t()));
  EXPECT_EQ(back.at("wt").toTensor().strides(), IntArrayRef({1, 4}));
}

TEST(Pickle, PythonReadsBrasaPickle) {
  GenericDict d;
  d.insert("i", IValue::tuple({1, -300, 70000, int64_t{-1} << 50, 2.5, "s", IValue(), true}));
  d.insert(7, std::vector<IValue>{"x", GenericDict()});
  std::vector<Storage> storages;
  std::vector<uint8_t> bytes = pickle(IValue(d), storages);
  std::string path = ::testing::TempDir() + "brasa_pickle_test.pkl";
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
  std::string cmd = "/usr/bin/python3 -c \"import pickle, collections; d = pickle.load(open('" +
                    path +
                    "', 'rb')); assert d == collections.OrderedDict([('i', (1, -300, 70000, -(1 << "
                    "50), 2.5, 's', "
                    "None, True)), (7, ['x', {}])]), d\"";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  std::remove(path.c_str());
}

TEST(Pickle, BigEndianArchiveIsSwapped) {
  Tensor w = arange(4, TensorOptions().dtype(kInt));
  std::vector<Storage> storages;
  std::vector<uint8_t> pkl = pickle(IValue(w), storages);
  std::vector<uint8_t> swapped(16);
  for (int i = 0; i < 16; ++i)
    swapped[i] = static_cast<const uint8_t*>(storages[0]->data())[(i / 4) * 4 + 3 - i % 4];
  std::vector<char> out;
  ZipWriter zip(
      [&](const void* p, size_t n) { out.insert(out.end(), (const char*)p, (const char*)p + n); });
  zip.add("x/data.pkl", pkl.data(), pkl.size());
  zip.add("x/byteorder", "big", 3);
  zip.add("x/data/0", swapped.data(), 16);
  zip.add("x/version", "3\n", 2);
  zip.finish();
  Tensor back = pickle_load(out).toTensor();
  EXPECT_TRUE(back.equal(w));
}

}  // namespace
}  // namespace brasa::serialize

namespace brasa::serialize {
namespace {

// "Billion laughs": each tuple holds its predecessor four times through the memo. Tuples are
// converted once and shared, and the pickler writes shared ones once, so both stay linear.
TEST(Pickle, SharedTuplesStayLinear) {
  Bytes p = "\x80\x02N";
  for (int level = 0; level < 40; ++level) {
    p += "q" + std::string(1, static_cast<char>(level)) + "(";
    for (int i = 0; i < 4; ++i) p += "h" + std::string(1, static_cast<char>(level));
    p += "t";
  }
  p += ".";
  Storages s;
  IValue v = load(p, s);
  EXPECT_EQ(v.toTupleRef().elements()[0].internalToPointer(),
            v.toTupleRef().elements()[3].internalToPointer());
  std::vector<Storage> storages;
  EXPECT_LT(pickle(v, storages).size(), 2000u);
}

}  // namespace
}  // namespace brasa::serialize
