// Interop with the reference implementation: PyPI `safetensors` (installed by this test into
// <build>/tests/pydeps, never skipped) on Debian's /usr/bin/python3 with torch 1.13.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/serialize/file_io.h"
#include "brasa/serialize/safetensors.h"

namespace brasa {
namespace {

namespace fs = std::filesystem;

std::string temp_dir() {
  const fs::path d =
      fs::path(::testing::TempDir()) / ("brasa_st_interop_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d.string();
}

// Runs `cmd` through the shell; returns its exit status and combined output.
std::pair<int, std::string> shell(const std::string& cmd, const std::string& out_file) {
  const int rc = std::system((cmd + " >'" + out_file + "' 2>&1").c_str());
  std::ifstream f(out_file);
  std::stringstream ss;
  ss << f.rdbuf();
  return {rc, ss.str()};
}

// The folder holding the `safetensors` package, installed on first use (under a lock, since ctest
// may run these tests in parallel). Fails the test when pip cannot install it.
std::string pydeps() {
  const fs::path dir = fs::read_symlink("/proc/self/exe").parent_path() / "pydeps";
  const std::string d = dir.string();
  const std::string probe = "PYTHONPATH='" + d + "' /usr/bin/python3 -c 'import safetensors.torch'";
  const std::string pip =
      "/usr/bin/python3 -m pip install --quiet --disable-pip-version-check "
      "--no-warn-script-location --target '" +
      d + "' safetensors";
  const std::string cmd = "flock '" + d + ".lock' sh -c \"" + probe + " 2>/dev/null || " + pip +
                          " || " + pip + " --break-system-packages\"";
  const auto [rc, out] = shell(cmd, temp_dir() + "/pip.log");
  if (rc != 0) {
    ADD_FAILURE() << "could not install the reference `safetensors` with pip into " << d
                  << " (network to PyPI needed):\n"
                  << out;
    return "";
  }
  return d;
}

std::string run_python(const std::string& script) {
  const std::string deps = pydeps();
  if (deps.empty()) return "";
  const std::string path = temp_dir() + "/script.py";
  std::ofstream(path) << script;
  const auto [rc, out] = shell("PYTHONPATH='" + deps + "' /usr/bin/python3 '" + path + "'",
                               temp_dir() + "/python.log");
  EXPECT_EQ(rc, 0) << "python failed:\n" << out;
  return out;
}

struct PyTensor {
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<double> values;
};

// Lines "T|name|dtype|d0,d1|v v v" printed by the scripts below.
std::map<std::string, PyTensor> parse(const std::string& out) {
  std::map<std::string, PyTensor> res;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("T|", 0) != 0) continue;
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string s; std::getline(fields, s, '|');) f.push_back(s);
    if (f.size() < 4) continue;
    PyTensor t;
    t.dtype = f[2];
    std::istringstream shape(f[3]);
    for (std::string s; std::getline(shape, s, ',');) t.shape.push_back(std::stoll(s));
    if (f.size() > 4) {
      std::istringstream vals(f[4]);
      for (std::string s; vals >> s;) t.values.push_back(std::strtod(s.c_str(), nullptr));
    }
    res[f[1]] = t;
  }
  return res;
}

const char* kPrint = R"PY(
import torch
from safetensors.torch import load_file, save_file
from safetensors import safe_open
def show(d):
    for k in sorted(d):
        t = d[k]
        vals = ' '.join(repr(float(v)) for v in t.reshape(-1).double().tolist())
        print('T|%s|%s|%s|%s' % (k, str(t.dtype).replace('torch.', ''), ','.join(map(str, t.shape)), vals))
)PY";

const std::map<std::string, ScalarType> kTorchNames = {
    {"float32", kFloat}, {"float64", kDouble}, {"float16", kHalf}, {"bfloat16", kBFloat16},
    {"bool", kBool},     {"int8", kChar},      {"uint8", kByte},   {"int16", kShort},
    {"int32", kInt},     {"int64", kLong}};

void expect_matches(const Tensor& t, const PyTensor& py, const std::string& name) {
  SCOPED_TRACE(name);
  ASSERT_TRUE(t.defined());
  ASSERT_TRUE(kTorchNames.count(py.dtype)) << py.dtype;
  EXPECT_EQ(t.scalar_type(), kTorchNames.at(py.dtype));
  EXPECT_EQ(t.sizes(), IntArrayRef(py.shape));
  const Tensor d = t.to(kDouble).contiguous().reshape({-1});
  ASSERT_EQ(static_cast<size_t>(d.numel()), py.values.size());
  for (size_t i = 0; i < py.values.size(); ++i) {
    EXPECT_EQ(d.data_ptr<double>()[i], py.values[i]) << "element " << i;
  }
}

TEST(SafetensorsInterop, PythonWritesBrasaReads) {
  const std::string dir = temp_dir();
  const std::string out =
      run_python(std::string(kPrint) + R"PY(
torch.manual_seed(0)
d = {
  'f32': torch.randn(2, 3), 'f64': torch.randn(4, dtype=torch.float64),
  'f16': torch.randn(3, 2).half(), 'bf16': torch.randn(5).bfloat16(),
  'bool': torch.tensor([True, False, True]), 'i8': torch.tensor([-128, 0, 127], dtype=torch.int8),
  'u8': torch.tensor([0, 200, 255], dtype=torch.uint8), 'i16': torch.tensor([-30000, 7], dtype=torch.int16),
  'i32': torch.tensor([[1, -2], [3, 2**31 - 1]], dtype=torch.int32),
  'i64': torch.tensor([2**40 + 1, -5]), 'scalar': torch.tensor(2.5), 'empty': torch.zeros(0, 4),
  'layer.0.weight': torch.randn(3, 3).t().contiguous(),
}
save_file(d, ')PY" +
                 dir + R"PY(/multi.safetensors', metadata={'format': 'pt', 'note': 'caf\u00e9 "q"'})
save_file(d, ')PY" +
                 dir + R"PY(/single.safetensors', metadata={'format': 'pt'})
show(d)
)PY");
  const auto expected = parse(out);
  ASSERT_EQ(expected.size(), 13u) << out;
  const serialize::SafeTensors multi = serialize::load_safetensors(dir + "/multi.safetensors");
  EXPECT_EQ(multi.tensors.size(), expected.size());
  for (const auto& [name, py] : expected) expect_matches(multi.tensors[name], py, name);
  EXPECT_EQ(multi.metadata,
            (std::map<std::string, std::string>{{"format", "pt"}, {"note", "caf\u00e9 \"q\""}}));
  // Re-saving reproduces the reference's bytes exactly (layout, JSON, padding).
  const serialize::SafeTensors single = serialize::load_safetensors(dir + "/single.safetensors");
  EXPECT_EQ(serialize::save_safetensors_to_bytes(single.tensors, single.metadata),
            serialize::read_file(dir + "/single.safetensors"));
}

TEST(SafetensorsInterop, BrasaWritesPythonReads) {
  const std::string dir = temp_dir();
  std::map<std::string, Tensor> tensors;
  for (ScalarType dt : kAllScalarTypes) {
    const Tensor base = arange(12, TensorOptions(kDouble)).mul(1.25).sub(6.0).reshape({3, 4});
    tensors[std::string("t_") + to_string(dt)] = dt == kBool ? base.gt(0) : base.to(dt);
  }
  tensors["noncontig"] = arange(20, TensorOptions(kFloat)).reshape({4, 5}).t().slice(0, 1, 5, 2);
  tensors["scalar"] = full({}, -3.5, TensorOptions(kBFloat16));
  tensors["empty"] = zeros({2, 0}, TensorOptions(kLong));
  tensors["model.layers.0.w"] = randn({3, 2});
  serialize::save_safetensors(dir + "/brasa.safetensors", tensors,
                              {{"format", "pt"}, {"who", "brasa \u00e9\n\t\\"}});
  const std::string out = run_python(std::string(kPrint) + R"PY(
p = ')PY" + dir + R"PY(/brasa.safetensors'
with safe_open(p, framework='pt') as f:
    assert f.metadata() == {'format': 'pt', 'who': 'brasa \u00e9\n\t\\'}, f.metadata()
    print('META OK')
d = load_file(p)
show(d)
)PY");
  EXPECT_NE(out.find("META OK"), std::string::npos) << out;
  const auto got = parse(out);
  EXPECT_EQ(got.size(), tensors.size()) << out;
  for (const auto& [name, t] : tensors) {
    ASSERT_TRUE(got.count(name)) << name << " missing in:\n" << out;
    expect_matches(t, got.at(name), name);
  }
}

}  // namespace
}  // namespace brasa
