// brasa::tensorboard::SummaryWriter: the TFRecord framing checked here byte by byte, and the event
// files read back by TensorBoard's own reader (PyPI's `tensorboard`, tests/support/pypi_venv.h).

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/utils/tensorboard.h"
#include "support/pypi_venv.h"
#include "support/torch_oracle.h"
#include "utils/tensorboard/crc32c.h"
#include "utils/tensorboard/summaries.h"

namespace fs = std::filesystem;
using brasa::tensorboard::SummaryWriter;
using brasa::tensorboard::detail::crc32c;
using brasa::tensorboard::detail::masked_crc32c;

namespace {

std::string fresh_dir(const std::string& name) {
  const fs::path d =
      fs::path(::testing::TempDir()) / ("brasa_tb_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  return d.string();
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

template <class T>
T load(const std::string& s, size_t at) {
  T v;
  std::memcpy(&v, s.data() + at, sizeof v);
  return v;
}

}  // namespace

TEST(TensorBoardCrc32c, KnownVectors) {
  // RFC 3720 (iSCSI) B.4 and the usual check value.
  EXPECT_EQ(crc32c("123456789", 9), 0xE3069283u);
  EXPECT_EQ(crc32c("", 0), 0u);
  std::vector<uint8_t> b(32, 0);
  EXPECT_EQ(crc32c(b.data(), b.size()), 0x8A9136AAu);
  std::fill(b.begin(), b.end(), 0xFF);
  EXPECT_EQ(crc32c(b.data(), b.size()), 0x62A8AB43u);
  for (int i = 0; i < 32; ++i) b[i] = static_cast<uint8_t>(i);
  EXPECT_EQ(crc32c(b.data(), b.size()), 0x46DD794Eu);
  for (int i = 0; i < 32; ++i) b[i] = static_cast<uint8_t>(31 - i);
  EXPECT_EQ(crc32c(b.data(), b.size()), 0x113FDB5Cu);
  // Masking: rotate right by 15, add 0xA282EAD8 (mod 2^32).
  EXPECT_EQ(masked_crc32c("123456789", 9),
            ((0xE3069283u >> 15) | (0xE3069283u << 17)) + 0xA282EAD8u);
}

TEST(TensorBoard, RecordFramingAndCrcs) {
  const std::string dir = fresh_dir("framing");
  std::string path;
  {
    SummaryWriter w(dir);
    path = w.file_path();
    EXPECT_EQ(fs::path(path).parent_path(), fs::path(dir));
    EXPECT_EQ(fs::path(path).filename().string().rfind("events.out.tfevents.", 0), 0u);
    for (int i = 0; i < 3; ++i) w.add_scalar("loss", 1.0 / (i + 1), i);
  }  // the destructor flushes
  const std::string s = read_bytes(path);
  size_t at = 0;
  int records = 0;
  while (at < s.size()) {
    ASSERT_LE(at + 12, s.size());
    const auto length = load<uint64_t>(s, at);
    EXPECT_EQ(load<uint32_t>(s, at + 8), masked_crc32c(s.data() + at, 8));
    ASSERT_LE(at + 12 + length + 4, s.size());
    EXPECT_EQ(load<uint32_t>(s, at + 12 + length), masked_crc32c(s.data() + at + 12, length));
    const std::string data = s.substr(at + 12, length);
    if (records == 0)
      EXPECT_NE(data.find("brain.Event:2"), std::string::npos);
    else
      EXPECT_NE(data.find("loss"), std::string::npos);
    at += 12 + length + 4;
    ++records;
  }
  EXPECT_EQ(records, 4);
}

TEST(TensorBoard, HistogramBuckets) {
  const auto& edges = brasa::tensorboard::detail::default_bucket_edges();
  ASSERT_FALSE(edges.empty());
  EXPECT_TRUE(std::is_sorted(edges.begin(), edges.end()));
  EXPECT_EQ(edges[edges.size() / 2], 0.0);
  EXPECT_DOUBLE_EQ(edges[edges.size() / 2 + 1], 1e-12);
  EXPECT_LT(edges.back(), 1e20);
  EXPECT_GE(edges.back() * 1.1, 1e20);
  const std::vector<double> v = {-3.5, 0.0, 0.25, 0.25, 1.0, 7.0, NAN, INFINITY, 1e30};
  const auto h = brasa::tensorboard::detail::make_histogram("h", v);
  EXPECT_EQ(h.num, 7);  // NaN and inf left out; 1e30 lands above the last edge
  EXPECT_EQ(h.min, -3.5);
  EXPECT_EQ(h.max, 1e30);
  EXPECT_DOUBLE_EQ(h.sum, -3.5 + 0.25 + 0.25 + 1.0 + 7.0 + 1e30);
  ASSERT_EQ(h.limits.size(), h.counts.size());
  EXPECT_EQ(h.counts.front(), 0);  // the empty bucket that states the lower edge
  EXPECT_EQ(h.limits.back(), std::numeric_limits<double>::max());
  double total = 0;
  for (double c : h.counts) total += c;
  EXPECT_EQ(total, h.num);
  // Each finite value is counted in the bucket [limits[i-1], limits[i]) holding it.
  for (double x : v) {
    if (!std::isfinite(x)) continue;
    const size_t i = std::upper_bound(h.limits.begin(), h.limits.end(), x) - h.limits.begin();
    ASSERT_LT(i, h.limits.size()) << x;
    ASSERT_GT(i, 0u) << x;
    EXPECT_GT(h.counts[i], 0) << x;
    EXPECT_GE(x, h.limits[i - 1]);
  }
  // 0 and 1e-12 lie on edges: each goes to the bucket above it.
  const auto e = brasa::tensorboard::detail::make_histogram("e", {0.0, 1e-12});
  ASSERT_EQ(e.limits.size(), 3u);
  EXPECT_EQ(e.limits[0], 0.0);
  EXPECT_EQ(e.limits[1], 1e-12);
  EXPECT_EQ(e.counts[0], 0);
  EXPECT_EQ(e.counts[1], 1);
  EXPECT_EQ(e.counts[2], 1);
  EXPECT_THROW(brasa::tensorboard::detail::make_histogram("h", {NAN}), brasa::ValueError);
}

// The buckets against numpy.histogram over the same edges (torch.utils.tensorboard's default
// bins) in the oracle's python: the counts of the buckets kept, and nothing outside them.
TEST(TensorBoard, HistogramMatchesNumpy) {
  std::vector<double> v;
  for (int i = 0; i < 400; ++i) v.push_back(std::sin(i * 0.37) * std::exp(std::cos(i * 0.11) * 6));
  v.insert(v.end(), {0.0, 1e-12, -1e-12, 0.0});
  const auto h = brasa::tensorboard::detail::make_histogram("v", v);
  std::string values;
  char buf[40];
  for (double x : v) {
    std::snprintf(buf, sizeof buf, "%.17g,", x);
    values += buf;
  }
  const auto r = brasa::testing_oracle::run_python(R"PY(
import numpy as np
pos = []
v = 1e-12
while v < 1e20:
    pos.append(v)
    v *= 1.1
edges = [-x for x in reversed(pos)] + [0.0] + pos
values = np.array([)PY" + values + R"PY(])
counts, _ = np.histogram(values, bins=edges)
print("edges", " ".join("%.17g" % e for e in edges))
print("counts", " ".join("%d" % c for c in counts))
)PY");
  const std::vector<double>& edges = r.at("edges");
  const std::vector<double>& counts = r.at("counts");  // counts[i]: [edges[i], edges[i+1])
  EXPECT_EQ(edges, brasa::tensorboard::detail::default_bucket_edges());
  ASSERT_GE(h.limits.size(), 2u);
  double kept = 0;
  for (size_t j = 1; j < h.limits.size(); ++j) {
    const size_t i = std::find(edges.begin(), edges.end(), h.limits[j - 1]) - edges.begin();
    ASSERT_LT(i + 1, edges.size());
    EXPECT_EQ(edges[i + 1], h.limits[j]);
    EXPECT_EQ(h.counts[j], counts[i])
        << "bucket [" << h.limits[j - 1] << ", " << h.limits[j] << ")";
    kept += counts[i];
  }
  EXPECT_EQ(kept, static_cast<double>(v.size()));
  EXPECT_EQ(h.counts[0], 0);
}

TEST(TensorBoard, BadInput) {
  const std::string base = fresh_dir("bad");
  fs::create_directories(base);
  const std::string file = base + "/a_file";
  std::ofstream(file) << "x";
  try {
    SummaryWriter w(file);
    FAIL() << "a log dir that is a file was accepted";
  } catch (const brasa::RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not a directory"), std::string::npos) << e.what();
  }
  try {
    SummaryWriter w(file + "/runs");
    FAIL() << "a log dir under a file was accepted";
  } catch (const brasa::RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find(file + "/runs"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Not a directory"), std::string::npos) << e.what();
  }
  SummaryWriter w(base + "/ok");
  EXPECT_THROW(w.add_histogram("empty", brasa::zeros({0}), 0), brasa::ValueError);
  EXPECT_THROW(w.add_hparams({}, {{"m", 1.0}}), brasa::ValueError);
  w.close();
  w.close();
  EXPECT_THROW(w.add_scalar("late", 1.0, 0), brasa::RuntimeError);
}

namespace {

// Prints what TensorBoard's reader finds in a log dir, one line per item.
constexpr const char* kReader = R"PY(
import glob, os, sys
from tensorboard.backend.event_processing import event_accumulator as ea, event_file_loader
from tensorboard.plugins.hparams import plugin_data_pb2
root = sys.argv[1]
def acc(d):
    a = ea.EventAccumulator(d, size_guidance={ea.SCALARS: 0, ea.HISTOGRAMS: 0, ea.TENSORS: 0})
    a.Reload()
    return a
for d in sorted(glob.glob(os.path.join(root, "**"), recursive=True)):
    files = sorted(glob.glob(os.path.join(d, "*tfevents*")))
    if not files:
        continue
    run = os.path.relpath(d, root)
    events = list(event_file_loader.EventFileLoader(files[0]).Load())
    print("run", run, "events", len(events), "first", events[0].file_version)
    a = acc(d)
    tags = a.Tags()
    for t in tags["scalars"]:
        for e in a.Scalars(t):
            print("scalar", run, t, e.step, repr(e.value))
    for t in tags["histograms"]:
        for e in a.Histograms(t):
            h = e.histogram_value
            g = lambda xs: " ".join("%.17g" % x for x in xs)
            print("histogram", t, e.step, g([h.min, h.max, h.num, h.sum, h.sum_squares]), "|",
                  g(h.bucket_limit), "|", g(h.bucket))
    for t in tags["tensors"]:
        for e in a.Tensors(t):
            print("text", t, e.step, a.SummaryMetadata(t).plugin_data.plugin_name,
                  e.tensor_proto.string_val[0].decode())
    try:
        hparams = a.PluginTagToContent("hparams")
    except KeyError:  # no hparams in this run
        hparams = {}
    for t, content in sorted(hparams.items()):
        p = plugin_data_pb2.HParamsPluginData.FromString(content)
        if p.HasField("experiment"):
            print("hparams experiment", sorted((i.name, i.type) for i in p.experiment.hparam_infos),
                  sorted(m.name.tag for m in p.experiment.metric_infos))
        if p.HasField("session_start_info"):
            print("hparams start", sorted((k, v.WhichOneof("kind"), getattr(v, v.WhichOneof("kind")))
                                          for k, v in p.session_start_info.hparams.items()))
        if p.HasField("session_end_info"):
            print("hparams end", p.session_end_info.status)
)PY";

std::string g17(const std::vector<double>& xs) {
  std::string out;
  char buf[40];
  for (double x : xs) {
    std::snprintf(buf, sizeof buf, "%.17g", x);
    out += (out.empty() ? "" : " ") + std::string(buf);
  }
  return out;
}

}  // namespace

TEST(TensorBoard, ReadBackWithTensorBoard) {
  std::string why;
  const auto python =
      brasa::testing_pypi::venv_python("tensorboard", "tensorboard", "import tensorboard", &why);
  if (!python) GTEST_SKIP() << why;
  const std::string dir = fresh_dir("readback");
  const brasa::Tensor weights = brasa::arange(-2.0, 3.0, 0.5).reshape({2, 5});
  {
    SummaryWriter w(dir);
    w.add_scalar("loss", 2.5, 0);
    w.add_scalar("loss", NAN, 1);
    w.add_scalar("loss", -0.125, -3);
    w.add_scalars("lr", {{"train", 0.5}, {"val", 0.25}}, 7);
    w.add_histogram("weights", weights, 4);
    w.add_text("notes", "**hello** tensorboard", 2);
    w.add_hparams({{"lr", 0.001}, {"batch", 64}, {"optimizer", "adamw"}, {"nesterov", true}},
                  {{"accuracy", 0.875}}, "session");
    w.flush();
  }
  const std::string script = dir + "/read.py";
  std::ofstream(script) << kReader;
  const auto [rc, out] = brasa::testing_pypi::run_command(*python + " " + script + " " + dir);
  ASSERT_EQ(rc, 0) << out;
  auto has = [&out](const std::string& line) {
    EXPECT_NE(out.find(line + "\n"), std::string::npos) << "missing: " << line << "\nin:\n" << out;
  };
  has("run . events 6 first brain.Event:2");  // file_version, 3 scalars, histogram, text
  has("scalar . loss 0 2.5");
  has("scalar . loss 1 nan");
  has("scalar . loss -3 -0.125");
  has("run lr_train events 2 first brain.Event:2");
  has("scalar lr_train lr 7 0.5");
  has("scalar lr_val lr 7 0.25");
  has("text notes/text_summary 2 text **hello** tensorboard");
  has("run session events 5 first brain.Event:2");
  has("scalar session accuracy 0 0.875");
  has("hparams experiment [('batch', 3), ('lr', 3), ('nesterov', 2), ('optimizer', 1)] "
      "['accuracy']");
  has("hparams start [('batch', 'number_value', 64.0), ('lr', 'number_value', 0.001), "
      "('nesterov', 'bool_value', True), ('optimizer', 'string_value', 'adamw')]");
  has("hparams end 1");
  std::vector<double> values(10);
  for (int i = 0; i < 10; ++i) values[i] = -2.0 + 0.5 * i;
  const auto h = brasa::tensorboard::detail::make_histogram("weights", values);
  EXPECT_EQ(h.sum_squares, 21.25);
  has("histogram weights 4 -2 2.5 10 2.5 21.25 | " + g17(h.limits) + " | " + g17(h.counts));
}
