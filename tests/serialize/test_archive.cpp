// Archives and torch::save / torch::load: tensors, modules, optimizers, schedulers, samplers and
// data loaders round-trip; bad keys and shapes give clear errors.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "brasa/brasa.h"
#include "brasa/serialize/archive.h"
#include "brasa/serialize/error.h"
#include "brasa/serialize/save_load.h"

namespace {
using namespace brasa;

template <typename Batch>
Tensor rows(const Batch& batch) {
  std::vector<Tensor> v;
  for (const auto& example : batch) v.push_back(example.data);
  return stack(v);
}
namespace fs = std::filesystem;

std::string temp_file(const std::string& name) {
  return (fs::temp_directory_path() / ("brasa_archive_" + std::to_string(::getpid()) + name))
      .string();
}

TEST(Archive, TensorAndVectorRoundTrip) {
  const std::string path = temp_file("t.pt");
  Tensor t = arange(12, kFloat32).reshape({3, 4}).t();  // non-contiguous
  brasa::save(t, path);
  Tensor u;
  brasa::load(u, path);
  EXPECT_TRUE(equal(t, u));
  std::vector<Tensor> v{ones({2}, kInt64), zeros({0}), full({}, 2.5, kDouble)};
  brasa::save(v, path);
  std::vector<Tensor> w;
  brasa::load(w, path);
  ASSERT_EQ(w.size(), 3u);
  for (size_t i = 0; i < v.size(); ++i) EXPECT_TRUE(equal(v[i], w[i])) << i;
  fs::remove(path);
}

TEST(Archive, StreamAndNestedArchives) {
  serialize::OutputArchive out, inner;
  inner.write("w", ones({2, 2}));
  out.write("inner", inner);
  out.write("step", IValue(int64_t{7}));
  out.write("name", IValue("run"));
  std::stringstream ss;
  out.save_to(ss);
  serialize::InputArchive in;
  in.load_from(ss);
  EXPECT_EQ(in.keys(), (std::vector<std::string>{"inner", "step", "name"}));
  serialize::InputArchive nested;
  in.read("inner", nested);
  Tensor w;
  nested.read("w", w);
  EXPECT_TRUE(equal(w, ones({2, 2})));
  IValue step;
  in.read("step", step);
  EXPECT_EQ(step.toInt(), 7);
  try {
    in.read("missing", step);
    FAIL();
  } catch (const SerializationError& e) {
    EXPECT_NE(std::string(e.what()).find("'missing'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'step'"), std::string::npos) << e.what();
  }
}

TEST(Archive, ModuleAndOptimizerRoundTrip) {
  const std::string mpath = temp_file("m.pt"), opath = temp_file("o.pt");
  manual_seed(0);
  nn::Sequential a(nn::Linear(4, 3), nn::BatchNorm1d(3), nn::Linear(3, 2));
  optim::Adam opt_a(a->parameters(), optim::AdamOptions(0.1));
  for (int i = 0; i < 3; ++i) {
    opt_a.zero_grad();
    a->forward(randn({5, 4})).sum().backward();
    opt_a.step();
  }
  brasa::save(a, mpath);
  brasa::save(opt_a, opath);
  nn::Sequential b(nn::Linear(4, 3), nn::BatchNorm1d(3), nn::Linear(3, 2));
  optim::Adam opt_b(b->parameters(), optim::AdamOptions(0.5));
  brasa::load(b, mpath);
  brasa::load(opt_b, opath);
  auto pa = a->named_parameters(), pb = b->named_parameters();
  for (const auto& item : pa) EXPECT_TRUE(equal(item.value(), pb[item.key()])) << item.key();
  for (const auto& item : a->named_buffers())
    EXPECT_TRUE(equal(item.value(), b->named_buffers()[item.key()])) << item.key();
  EXPECT_EQ(opt_b.param_groups()[0].options().get_lr(), 0.1);
  // One more identical step keeps them identical (the moments and step counts came along).
  Tensor x = randn({5, 4});
  opt_a.zero_grad();
  a->forward(x).sum().backward();
  opt_a.step();
  opt_b.zero_grad();
  b->forward(x).sum().backward();
  opt_b.step();
  for (const auto& item : pa) EXPECT_TRUE(equal(item.value(), pb[item.key()])) << item.key();
  fs::remove(mpath);
  fs::remove(opath);
}

TEST(Archive, ModuleLoadReportsEveryProblemAtOnce) {
  const std::string path = temp_file("bad.pt");
  serialize::OutputArchive out;
  out.write("0.weight", zeros({3, 5}));  // wrong shape
  out.write("extra", zeros({1}));        // unexpected
  out.save_to(path);                     // 0.bias, 1.weight, 1.bias missing
  nn::Sequential m(nn::Linear(4, 3), nn::Linear(3, 2));
  Tensor before = m->named_parameters()["0.weight"].clone();
  try {
    brasa::load(m, path);
    FAIL();
  } catch (const ValueError& e) {
    const std::string msg = e.what();
    for (const char* key : {"0.weight", "extra", "0.bias", "1.weight", "1.bias"})
      EXPECT_NE(msg.find(key), std::string::npos) << key << " not in: " << msg;
  }
  EXPECT_TRUE(equal(before, m->named_parameters()["0.weight"]));  // nothing changed
  fs::remove(path);
}

TEST(Archive, SchedulerStateRoundTrip) {
  nn::Linear lin(2, 2);
  optim::SGD opt(lin->parameters(), optim::SGDOptions(1.0));
  optim::StepLR a(opt, 2, 0.5);
  for (int i = 0; i < 5; ++i) a.step();
  IValue state = a.state_dict();
  optim::SGD opt2(lin->parameters(), optim::SGDOptions(1.0));
  optim::StepLR b(opt2, 2, 0.5);
  b.load_state_dict(state);
  EXPECT_EQ(b.last_epoch(), a.last_epoch());
  EXPECT_EQ(b.get_last_lr(), a.get_last_lr());
  GenericDict broken;
  broken.insert(IValue("last_epoch"), IValue("x"));
  EXPECT_THROW(b.load_state_dict(IValue(broken)), SerializationError);
}

TEST(Archive, DataLoaderContinuesMidEpoch) {
  auto make = [] {
    return data::make_data_loader<data::samplers::RandomSampler>(
        data::datasets::TensorDataset(arange(20, kInt64)),
        data::DataLoaderOptions().batch_size(3).workers(2));
  };
  manual_seed(5);
  auto a = make();
  std::vector<Tensor> straight;
  serialize::OutputArchive saved;
  auto rng = get_rng_state();
  int n = 0;
  for (auto& batch : *a) {
    straight.push_back(rows(batch));
    if (++n == 3) {
      a->save(saved);
      rng = get_rng_state();
    }
  }
  serialize::InputArchive in(saved.ivalue());
  manual_seed(123);
  auto b = make();
  b->load(in);
  set_rng_state(rng);
  std::vector<Tensor> resumed;
  for (auto& batch : *b) resumed.push_back(rows(batch));
  ASSERT_EQ(resumed.size(), straight.size() - 3);
  for (size_t i = 0; i < resumed.size(); ++i) EXPECT_TRUE(equal(resumed[i], straight[i + 3])) << i;
}

}  // namespace
