// nn::state_dict / nn::load_state_dict and module save/load through safetensors.

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/nn/state_dict.h"
#include "brasa/serialize/safetensors.h"

namespace brasa {
namespace {

nn::Sequential make_model() { return nn::Sequential(nn::Linear(3, 4), nn::BatchNorm1d(4)); }

std::vector<std::string> keys(const OrderedDict<std::string, Tensor>& d) {
  std::vector<std::string> out;
  for (const auto& item : d) out.push_back(item.key());
  return out;
}

struct Net : nn::Module {
  Net() {
    register_parameter("p", ones({2}));
    register_module("child", nn::Linear(2, 2));
    register_buffer("buf", zeros({2}));
  }
};

TEST(StateDict, KeysInPyTorchOrder) {
  auto model = make_model();
  EXPECT_EQ(keys(nn::state_dict(*model)),
            (std::vector<std::string>{"0.weight", "0.bias", "1.weight", "1.bias", "1.running_mean",
                                      "1.running_var", "1.num_batches_tracked"}));
  // Own parameters, own buffers, then children (PyTorch: p, buf, child.weight, child.bias).
  Net net;
  EXPECT_EQ(keys(nn::state_dict(net)),
            (std::vector<std::string>{"p", "buf", "child.weight", "child.bias"}));
  const Tensor w = nn::state_dict(net)["child.weight"];
  EXPECT_FALSE(w.requires_grad());
  EXPECT_EQ(w.data_ptr(), net.named_parameters()["child.weight"].data_ptr());
}

TEST(StateDict, LoadCopiesInPlaceWithConversion) {
  auto model = make_model();
  Net net;
  const Tensor p_before = net.named_parameters()["p"];
  OrderedDict<std::string, Tensor> state = nn::state_dict(net);
  OrderedDict<std::string, Tensor> src;
  for (const auto& item : state) src.insert(item.key(), item.value().to(kDouble).add(2.0));
  const nn::LoadStateDictResult r = nn::load_state_dict(net, src);
  EXPECT_TRUE(r.missing_keys.empty());
  EXPECT_TRUE(r.unexpected_keys.empty());
  const Tensor p = net.named_parameters()["p"];
  EXPECT_TRUE(p.is_same(p_before));
  EXPECT_EQ(p.scalar_type(), kFloat);
  EXPECT_TRUE(p.requires_grad());
  EXPECT_TRUE(equal(p, full({2}, 3.0)));
  EXPECT_TRUE(equal(net.named_buffers()["buf"], full({2}, 2.0)));
}

TEST(StateDict, StrictListsEveryProblemInOneError) {
  Net net;
  OrderedDict<std::string, Tensor> src;
  src.insert("p", zeros({3}));
  src.insert("child.weight", zeros({2, 2}));
  src.insert("extra", zeros({1}));
  try {
    nn::load_state_dict(net, src);
    FAIL() << "no error";
  } catch (const ValueError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("Missing key(s) in state_dict: \"buf\", \"child.bias\"."), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("Unexpected key(s) in state_dict: \"extra\"."), std::string::npos) << msg;
    EXPECT_NE(msg.find("size mismatch for p: copying a param with shape [3] from checkpoint, the "
                       "shape in current model is [2]."),
              std::string::npos)
        << msg;
  }
  // Nothing was copied.
  EXPECT_TRUE(equal(net.named_parameters()["p"], ones({2})));
  EXPECT_FALSE(equal(net.named_parameters()["child.weight"], zeros({2, 2})));
}

TEST(StateDict, NonStrictReturnsKeysButRejectsShapes) {
  Net net;
  std::map<std::string, Tensor> src = {{"p", full({2}, 5.0)}, {"extra", zeros({1})}};
  const nn::LoadStateDictResult r = nn::load_state_dict(net, src, /*strict=*/false);
  EXPECT_EQ(r.missing_keys, (std::vector<std::string>{"buf", "child.weight", "child.bias"}));
  EXPECT_EQ(r.unexpected_keys, (std::vector<std::string>{"extra"}));
  EXPECT_TRUE(equal(net.named_parameters()["p"], full({2}, 5.0)));
  src["p"] = zeros({2, 1});
  EXPECT_THROW(nn::load_state_dict(net, src, /*strict=*/false), ValueError);
}

TEST(Safetensors, ModuleSaveLoad) {
  auto a = make_model();
  a->train();
  a->forward(randn({5, 3}));  // moves the running statistics and num_batches_tracked
  const std::string path =
      ::testing::TempDir() + "brasa_st_module_" + std::to_string(::getpid()) + ".safetensors";
  serialize::save_safetensors(*a, path, {{"format", "pt"}});
  auto b = make_model();
  const nn::LoadStateDictResult r = serialize::load_safetensors(*b, path);
  EXPECT_TRUE(r.missing_keys.empty());
  const auto sa = nn::state_dict(*a), sb = nn::state_dict(*b);
  for (const auto& item : sa) {
    SCOPED_TRACE(item.key());
    EXPECT_EQ(sb[item.key()].scalar_type(), item.value().scalar_type());
    EXPECT_TRUE(equal(sb[item.key()], item.value()));
  }
  EXPECT_EQ(sb["1.num_batches_tracked"].item<int64_t>(), 1);
  auto other = nn::Sequential(nn::Linear(3, 5));
  EXPECT_THROW(serialize::load_safetensors(*other, path), ValueError);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace brasa
