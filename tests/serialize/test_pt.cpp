// torch.save interop with Debian's PyTorch (1.13): Python's state_dict files load with identical
// values, dtypes, strides and storage sharing; brasa's files load in torch.load(weights_only=True)
// with identical values; pickle_save/pickle_load round-trip.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "brasa/brasa.h"
#include "brasa/serialize/error.h"
#include "brasa/serialize/pt.h"
#include "torch/serialize.h"

namespace brasa::serialize {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("brasa_pt_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Runs `script` with Debian's python3 in `dir`; returns (exit status, output).
std::pair<int, std::string> run_python(const std::string& script, const TempDir& dir) {
  fs::path py = dir.path / "script.py";
  std::ofstream(py) << script;
  FILE* pipe = popen(
      ("cd " + dir.path.string() + " && /usr/bin/python3 " + py.string() + " 2>&1").c_str(), "r");
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof(buf), pipe)) out.append(buf, n);
  int status = pclose(pipe);
  return {status, out};
}

std::vector<double> values_of(const Tensor& t) {
  Tensor d = t.to(kDouble).contiguous();
  const double* p = d.data_ptr<double>();
  return std::vector<double>(p, p + d.numel());
}

TEST(PtPython, LoadsTorchSaveStateDict) {
  TempDir dir;
  auto [status, out] = run_python(R"PY(
import torch
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2))
m(torch.randn(4, 3))
sd = m.state_dict()
sd['0.bias'] = sd['0.bias'].to(torch.bfloat16)
base = torch.arange(12, dtype=torch.float32).reshape(3, 4)
sd['base'] = base
sd['base_t'] = base.t()
sd['base_row'] = base[1]
sd['half'] = torch.tensor([1.5, -2.25], dtype=torch.float16)
sd['flags'] = torch.tensor([True, False, True])
sd['i8'] = torch.tensor([-3, 4], dtype=torch.int8)
torch.save(sd, 'sd.pt')
for k, v in sd.items():
    print(k, str(v.dtype)[6:], list(v.shape), list(v.stride()), v.storage_offset(), *[repr(x) for x in v.double().flatten().tolist()])
)PY",
                                  dir);
  ASSERT_EQ(status, 0) << out;
  IValue loaded = load_pt((dir.path / "sd.pt").string());
  GenericDict sd = loaded.toGenericDict();
  std::istringstream lines(out);
  std::string line;
  std::vector<std::string> keys;
  while (std::getline(lines, line)) {
    std::istringstream f(line);
    std::string key, dtype, word;
    f >> key >> dtype;
    keys.push_back(key);
    const Tensor& t = sd.at(key).toTensor();
    std::ostringstream expected_dtype;
    expected_dtype << t.scalar_type();
    std::map<std::string, std::string> names{{"float32", "Float"}, {"bfloat16", "BFloat16"},
                                             {"int64", "Long"},    {"float16", "Half"},
                                             {"bool", "Bool"},     {"int8", "Char"}};
    EXPECT_EQ(names[dtype], expected_dtype.str()) << key;
    std::vector<int64_t> shape, stride;
    int64_t offset = 0;
    auto read_list = [&](std::vector<int64_t>& v) {
      std::string tok;
      f >> tok;
      while (tok.back() != ']') {
        std::string more;
        f >> more;
        tok += more;
      }
      tok = tok.substr(1, tok.size() - 2);
      std::istringstream items(tok);
      std::string item;
      while (std::getline(items, item, ',')) v.push_back(std::stoll(item));
    };
    read_list(shape);
    read_list(stride);
    f >> offset;
    std::vector<double> values;
    while (f >> word) values.push_back(std::stod(word));
    EXPECT_EQ(t.sizes().vec(), shape) << key;
    EXPECT_EQ(t.strides().vec(), stride) << key;
    EXPECT_EQ(t.storage_offset(), offset) << key;
    EXPECT_EQ(values_of(t), values) << key;
  }
  std::vector<std::string> order;
  for (const auto& kv : sd) order.push_back(kv.key().toStringRef());
  EXPECT_EQ(order, keys);
  EXPECT_EQ(sd.at("1.num_batches_tracked").toTensor().dim(), 0);
  EXPECT_EQ(sd.at("base_t").toTensor().storage().get(), sd.at("base").toTensor().storage().get());
  EXPECT_EQ(sd.at("base_row").toTensor().storage().get(), sd.at("base").toTensor().storage().get());
  // Loads are copy-on-write views of the file: writing a tensor leaves the file unchanged.
  sd.at("base").toTensor().fill_(7.0);
  IValue again = load_pt((dir.path / "sd.pt").string());
  EXPECT_EQ(values_of(again.toGenericDict().at("base").toTensor())[5], 5.0);
}

// Torch 1.13's weights_only unpickler lacks BINFLOAT (newer releases accept it), so the Python
// test loads a variant without Python floats with weights_only=True and the full one without it.
IValue make_nested(bool with_floats = true) {
  Tensor w = arange(6, TensorOptions().dtype(kFloat)).reshape({2, 3});
  GenericDict inner;
  inner.insert("int", 7);
  inner.insert("big", int64_t{1} << 40);
  inner.insert("neg", -100000);
  if (with_floats) inner.insert("float", 2.5);
  inner.insert("str", "héllo");
  inner.insert("none", IValue());
  inner.insert("flag", true);
  inner.insert("list", std::vector<IValue>{1, "two", with_floats ? IValue(3.0) : IValue(3)});
  inner.insert("tuple",
               IValue::tuple({1, IValue::tuple({with_floats ? IValue(2.0) : IValue(2), IValue()}),
                              false, "x"}));
  inner.insert(5, "int key");
  GenericDict d;
  d.insert("w", w);
  d.insert("w_t", w.t());
  d.insert("w_col", w.select(1, 1));
  d.insert("bf16", w.to(kBFloat16));
  d.insert("half", w.to(kHalf) * 0.5);
  d.insert("f64", w.to(kDouble) / 3.0);
  d.insert("i64", full({}, int64_t{-5}, TensorOptions().dtype(kLong)));
  d.insert("i32", w.to(kInt));
  d.insert("i16", w.to(kShort) - 3);
  d.insert("i8", w.to(kChar) - 3);
  d.insert("u8", w.to(kByte));
  d.insert("b", w.gt(2.0));
  d.insert("empty", empty({0, 3}));
  d.insert("inner", inner);
  d.insert("tensors", std::vector<IValue>{w, w.t()});
  return d;
}

TEST(PtPython, TorchLoadsBrasaSave) {
  TempDir dir;
  save_pt(make_nested(), (dir.path / "brasa.pt").string());
  save_pt(make_nested(false), (dir.path / "no_floats.pt").string());
  auto [status, out] = run_python(R"PY(
import collections, torch
safe = torch.load('no_floats.pt', weights_only=True)
assert safe['inner'] == {'int': 7, 'big': 1 << 40, 'neg': -100000, 'str': 'h\u00e9llo', 'none': None,
                         'flag': True, 'list': [1, 'two', 3], 'tuple': (1, (2, None), False, 'x'),
                         5: 'int key'}, safe['inner']
d = torch.load('brasa.pt')
assert type(d) is collections.OrderedDict, type(d)
w = torch.arange(6, dtype=torch.float32).reshape(2, 3)
expect = {
  'w': w, 'w_t': w.t(), 'w_col': w[:, 1], 'bf16': w.bfloat16(), 'half': w.half() * 0.5,
  'f64': w.double() / 3.0, 'i64': torch.tensor(-5), 'i32': w.int(), 'i16': w.short() - 3,
  'i8': w.char() - 3, 'u8': w.byte(), 'b': w > 2, 'empty': torch.empty(0, 3),
}
for k, v in expect.items():
    assert safe[k].dtype == v.dtype and torch.equal(safe[k], v), (k, safe[k], v)
    assert d[k].dtype == v.dtype and d[k].shape == v.shape and torch.equal(d[k], v), (k, d[k], v)
assert d['w_t'].stride() == (1, 3) and d['w_col'].storage_offset() == 1
assert d['w_t'].storage().data_ptr() == d['w'].storage().data_ptr()
assert d['w_col'].storage().data_ptr() == d['w'].storage().data_ptr()
assert list(d.keys()) == list(expect.keys()) + ['inner', 'tensors'], list(d.keys())
inner = d['inner']
assert inner == {'int': 7, 'big': 1 << 40, 'neg': -100000, 'float': 2.5, 'str': 'h\u00e9llo',
                 'none': None, 'flag': True, 'list': [1, 'two', 3.0],
                 'tuple': (1, (2.0, None), False, 'x'), 5: 'int key'}, inner
assert list(inner.keys())[0] == 'int'
assert torch.equal(d['tensors'][1], w.t()) and d['tensors'][1].storage().data_ptr() == d['w'].storage().data_ptr()
m = torch.nn.Linear(3, 2)
m.load_state_dict({'weight': d['w'], 'bias': d['w'][0, :2]})
print('ok')
)PY",
                                  dir);
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("ok"), std::string::npos) << out;
}

// Complex storages, and map_location as RestoreLocation: torch writes storages tagged 'cuda:1'
// (its location tagger overridden); the function sees each storage once with that location.
TEST(PtPython, ComplexStoragesAndRestoreLocation) {
  TempDir dir;
  auto [status, out] = run_python(R"PY(
import torch, torch.serialization as ts
ts.register_package(0, lambda storage: 'cuda:1', lambda storage, location: None)
c = torch.view_as_complex(torch.arange(12.0).reshape(6, 2))
torch.save({'c64': c, 'c64_t': c.reshape(2, 3).t(), 'c128': torch.tensor([1 - 2j, 0.5j], dtype=torch.complex128), 'f': torch.ones(2)}, 'c.pt')
print('ok')
)PY",
                                  dir);
  ASSERT_EQ(status, 0) << out;
  std::vector<std::string> seen;
  RestoreLocation keep = [&](const Tensor& storage, const std::string& location) {
    seen.push_back(location + ":" + std::to_string(storage.numel()));
    return storage;
  };
  GenericDict d = load_pt((dir.path / "c.pt").string(), keep).toGenericDict();
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{"cuda:1:2", "cuda:1:2", "cuda:1:6"}));
  const Tensor& c64 = d.at("c64").toTensor();
  EXPECT_EQ(c64.scalar_type(), kComplexFloat);
  EXPECT_EQ(values_of(view_as_real(c64)), values_of(arange(12.0)));
  const Tensor& t = d.at("c64_t").toTensor();
  EXPECT_EQ(t.sizes(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(t.strides(), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(t.storage().get(), c64.storage().get());
  const Tensor& c128 = d.at("c128").toTensor();
  EXPECT_EQ(c128.scalar_type(), kComplexDouble);
  EXPECT_EQ(values_of(view_as_real(c128)), (std::vector<double>{1, -2, 0, 0.5}));
  // a copy elsewhere is what the tensors view; a result of another size is a ValueError
  RestoreLocation copy = [](const Tensor& storage, const std::string&) { return storage.clone(); };
  GenericDict copied = load_pt((dir.path / "c.pt").string(), copy).toGenericDict();
  EXPECT_EQ(values_of(view_as_real(copied.at("c64_t").toTensor())), values_of(view_as_real(t)));
  RestoreLocation shrink = [](const Tensor& storage, const std::string&) {
    return storage.narrow(0, 0, 1);
  };
  EXPECT_THROW(load_pt((dir.path / "c.pt").string(), shrink), ValueError);
  // brasa writes complex storages torch reads back
  save_pt(IValue(d), (dir.path / "b.pt").string());
  auto [status2, out2] = run_python(R"PY(
import torch
d = torch.load('b.pt')
assert d['c64'].dtype == torch.complex64 and d['c128'].dtype == torch.complex128
assert torch.equal(d['c64'], torch.view_as_complex(torch.arange(12.0).reshape(6, 2)))
assert d['c64_t'].stride() == (1, 3) and d['c64_t'].storage().data_ptr() == d['c64'].storage().data_ptr()
assert torch.equal(d['c128'], torch.tensor([1 - 2j, 0.5j], dtype=torch.complex128))
print('ok')
)PY",
                                    dir);
  EXPECT_EQ(status2, 0) << out2;
}

TEST(PtRoundTrip, PickleSaveLoadKeepsValuesStridesAndSharing) {
  IValue original = make_nested();
  std::vector<char> bytes = torch::pickle_save(original);
  auto d = torch::pickle_load(bytes).toGenericDict();
  GenericDict expected = original.toGenericDict();
  ASSERT_EQ(d.size(), expected.size());
  for (auto& kv : d) {
    const IValue& want = expected.at(kv.key());
    if (want.isTensor()) {
      const Tensor& t = kv.value().toTensor();
      EXPECT_EQ(t.scalar_type(), want.toTensor().scalar_type()) << kv.key().toStringRef();
      EXPECT_EQ(t.sizes(), want.toTensor().sizes());
      EXPECT_EQ(t.strides(), want.toTensor().strides());
      EXPECT_EQ(values_of(t), values_of(want.toTensor()));
    }
  }
  EXPECT_EQ(d.at("w_t").toTensor().storage().get(), d.at("w").toTensor().storage().get());
  GenericDict inner = d.at("inner").toGenericDict();
  EXPECT_EQ(inner.at("big").toInt(), int64_t{1} << 40);
  EXPECT_EQ(inner.at("neg").toInt(), -100000);
  EXPECT_EQ(inner.at("str").toStringRef(), "héllo");
  EXPECT_TRUE(inner.at("none").isNone());
  EXPECT_EQ(inner.at("list").toListRef()[1].toStringRef(), "two");
  EXPECT_EQ(inner.at("tuple").toTupleRef().elements()[1].toTupleRef().elements()[0].toDouble(),
            2.0);
  EXPECT_EQ(inner.at(5).toStringRef(), "int key");
}

TEST(PtRoundTrip, SaveErrors) {
  EXPECT_THROW(save_pt_bytes(IValue(Tensor())), ValueError);
  GenericList self;
  self.push_back(1);
  self.push_back(IValue(self));  // a list containing itself
  EXPECT_THROW(save_pt_bytes(IValue(self)), ValueError);
  self.vec().clear();  // break the cycle
  EXPECT_THROW(load_pt_bytes("PK\x03\x04", 4), SerializationError);
}

}  // namespace
}  // namespace brasa::serialize

namespace brasa::serialize {
namespace {

TEST(PtCompat, LibtorchSpellings) {
  c10::Dict<c10::IValue, c10::IValue> dict;
  dict.insert("w", torch::ones({2}));
  auto shared = c10::impl::GenericList(std::vector<c10::IValue>{1, 2});
  dict.insert("a", shared);
  dict.insert("b", shared);  // one list referenced twice: written once, shared again after loading
  dict.insert("t", c10::IValue(c10::ivalue::Tuple::create({c10::IValue(1), c10::IValue("x")})));
  std::vector<char> bytes = torch::pickle_save(c10::IValue(dict));
  auto d = torch::pickle_load(bytes).toGenericDict();
  std::vector<std::string> keys;
  for (auto& kv : d) {
    keys.push_back(kv.key().toStringRef());
    if (kv.value().isTensor()) {
      EXPECT_TRUE(kv.value().toTensor().equal(torch::ones({2})));
    }
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"w", "a", "b", "t"}));
  EXPECT_EQ(d.at("a").internalToPointer(), d.at("b").internalToPointer());
  EXPECT_EQ(d.at("t").toTuple()->elements()[1].toStringRef(), "x");
}

}  // namespace
}  // namespace brasa::serialize
