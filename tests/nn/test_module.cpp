// nn::Module: registration order and dotted names, holders, traversal, modes, to(), zero_grad,
// clone and printing.
#include <gtest/gtest.h>

#include <sstream>

#include "brasa/brasa.h"

using namespace brasa;

namespace {

struct BlockImpl : nn::Module {
  BlockImpl() {
    fc = register_module("fc", nn::Linear(3, 4));
    scale = register_parameter("scale", ones({4}));
    running = register_buffer("running", zeros({4}));
  }
  Tensor forward(const Tensor& x) { return fc(x) * scale; }
  nn::Linear fc{nullptr};
  Tensor scale, running;
};
BRASA_MODULE(Block);

struct NetImpl : nn::Module {
  NetImpl() {
    layer1 = register_module("layer1", nn::Sequential(Block(), nn::ReLU()));
    head = register_module("head", nn::Linear(nn::LinearOptions(4, 2).bias(false)));
  }
  Tensor forward(const Tensor& x) { return head(layer1->forward(x)); }
  nn::Sequential layer1{nullptr};
  nn::Linear head{nullptr};
};
BRASA_MODULE(Net);

std::string printed(const nn::Module& m) {
  std::ostringstream s;
  s << m;
  return s.str();
}

}  // namespace

TEST(NNModule, RegistrationOrderAndDottedNames) {
  Net net;
  EXPECT_EQ(net->named_parameters().keys(),
            (std::vector<std::string>{"layer1.0.scale", "layer1.0.fc.weight", "layer1.0.fc.bias",
                                      "head.weight"}));  // own parameters before children's
  EXPECT_EQ(net->named_parameters(false).size(), 0u);
  EXPECT_EQ(net->parameters().size(), 4u);
  EXPECT_EQ(net->named_buffers().keys(), (std::vector<std::string>{"layer1.0.running"}));
  EXPECT_EQ(net->named_children().keys(), (std::vector<std::string>{"layer1", "head"}));
  EXPECT_EQ(
      net->named_modules().keys(),
      (std::vector<std::string>{"", "layer1", "layer1.0", "layer1.0.fc", "layer1.1", "head"}));
  EXPECT_EQ(net->modules(false).size(), 5u);
  EXPECT_EQ(net->modules().front().get(), net.get());
  // Parameters are the very tensors the layers hold.
  auto params = net->named_parameters();
  EXPECT_TRUE(params["head.weight"].is_same(net->head->weight));
  EXPECT_TRUE(params["head.weight"].requires_grad());
  EXPECT_NE(params.find("layer1.0.scale"), nullptr);
  EXPECT_EQ(params.find("nope"), nullptr);
  EXPECT_THROW(params["nope"], IndexError);
  EXPECT_EQ(params[3].key(), "head.weight");
  EXPECT_FALSE(net->head->bias.defined());
}

TEST(NNModule, RegistrationErrors) {
  nn::Module m;
  m.register_parameter("w", ones({2}));
  EXPECT_THROW(m.register_parameter("w", ones({2})), ValueError);
  EXPECT_THROW(m.register_parameter("a.b", ones({2})), ValueError);
  EXPECT_THROW(m.register_buffer("", ones({2})), ValueError);
  EXPECT_THROW(m.register_module("fc", nn::Linear(nullptr)), ValueError);
  EXPECT_FALSE(m.register_parameter("frozen", ones({2}), false).requires_grad());
  // Not owned by a shared_ptr: modules() cannot include it.
  EXPECT_THROW(m.modules(), ValueError);
  EXPECT_EQ(m.modules(false).size(), 0u);
}

TEST(NNModule, HolderBasics) {
  nn::Linear empty{nullptr};
  EXPECT_TRUE(empty.is_empty());
  EXPECT_FALSE(static_cast<bool>(empty));
  // operator-> itself throws; `empty->forward(...)` says the same but GCC 12 under
  // -fsanitize=thread then warns that `this` is null (-Wnonnull) on the path it cannot prove
  // unreachable.
  EXPECT_THROW((void)empty.operator->(), ValueError);
  nn::Linear fc(2, 3);
  EXPECT_FALSE(fc.is_empty());
  nn::Linear alias = fc;
  EXPECT_EQ(alias.ptr(), fc.ptr());
  auto y = fc(ones({5, 2}));
  EXPECT_EQ(y.sizes(), IntArrayRef({5, 3}));
  EXPECT_TRUE(fc->forward(ones({5, 2})).equal(y));
  nn::Module& base = *fc;
  EXPECT_NE(base.as<nn::Linear>(), nullptr);
  EXPECT_NE(base.as<nn::LinearImpl>(), nullptr);
  EXPECT_EQ(base.as<nn::ReLU>(), nullptr);
  EXPECT_EQ(fc->name(), "torch::nn::LinearImpl");
  Net net;
  EXPECT_EQ(net->name(), "(anonymous namespace)::NetImpl");
}

TEST(NNModule, TrainEvalAndApply) {
  Net net;
  EXPECT_TRUE(net->is_training());
  net->eval();
  for (const auto& m : net->modules()) EXPECT_FALSE(m->is_training());
  net->train();
  EXPECT_TRUE(net->layer1[1]->is_training());
  int count = 0;
  net->apply([&](nn::Module&) { ++count; });
  EXPECT_EQ(count, 6);
  std::vector<std::string> names;
  net->apply([&](const std::string& n, nn::Module&) { names.push_back(n); }, "net");
  EXPECT_EQ(names.front(), "net");
  EXPECT_EQ(names.back(), "net.head");
}

TEST(NNModule, ToDoubleKeepsParameterIdentity) {
  Net net;
  Tensor w = net->head->weight;
  auto before = w.detach().clone();
  net->to(kDouble);
  EXPECT_EQ(w.scalar_type(), kDouble);
  EXPECT_TRUE(w.is_same(net->head->weight));
  EXPECT_TRUE(w.requires_grad());
  EXPECT_TRUE(w.is_leaf());
  EXPECT_TRUE(allclose(w.detach(), before.to(kDouble)));
  EXPECT_EQ(net->named_buffers()["layer1.0.running"].scalar_type(), kDouble);
  auto out = net->forward(ones({2, 3}, kDouble));
  EXPECT_EQ(out.scalar_type(), kDouble);
  out.sum().backward();
  EXPECT_EQ(w.grad().scalar_type(), kDouble);
  net->to(Device(kCPU));
  EXPECT_EQ(w.device(), Device(kCPU));
}

TEST(NNModule, ZeroGrad) {
  nn::Linear fc(3, 2);
  fc(ones({4, 3})).sum().backward();
  ASSERT_TRUE(fc->weight.grad().defined());
  fc->zero_grad();  // set_to_none = false by default, as in libtorch 1.13
  ASSERT_TRUE(fc->weight.grad().defined());
  EXPECT_EQ(fc->weight.grad().abs().sum().item<double>(), 0.0);
  fc->zero_grad(/*set_to_none=*/true);
  EXPECT_FALSE(fc->weight.grad().defined());
  EXPECT_FALSE(fc->bias.grad().defined());
}

TEST(NNModule, Printing) {
  Net net;
  EXPECT_EQ(printed(*net),
            "(anonymous namespace)::NetImpl(\n"
            "  (layer1): torch::nn::Sequential(\n"
            "    (0): (anonymous namespace)::BlockImpl(\n"
            "      (fc): torch::nn::Linear(in_features=3, out_features=4, bias=true)\n"
            "    )\n"
            "    (1): torch::nn::ReLU()\n"
            "  )\n"
            "  (head): torch::nn::Linear(in_features=4, out_features=2, bias=false)\n"
            ")");
  std::ostringstream s;
  s << nn::Linear(784, 64);
  EXPECT_EQ(s.str(), "torch::nn::Linear(in_features=784, out_features=64, bias=true)");
}

TEST(NNModule, CloneIsDeep) {
  nn::Sequential seq(nn::Linear(3, 4), nn::ReLU(), nn::Linear(4, 1));
  auto copy = std::dynamic_pointer_cast<nn::SequentialImpl>(seq->clone());
  ASSERT_NE(copy, nullptr);
  auto a = seq->named_parameters();
  auto b = copy->named_parameters();
  ASSERT_EQ(a.keys(), b.keys());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_FALSE(a[i].value().is_same(b[i].value()));
    EXPECT_TRUE(a[i].value().equal(b[i].value()));
    EXPECT_TRUE(b[i].value().requires_grad());
  }
  {
    NoGradGuard g;
    copy->at<nn::LinearImpl>(0).weight.fill_(0);
  }
  EXPECT_NE(seq->at<nn::LinearImpl>(0).weight.abs().sum().item<double>(), 0.0);
  auto x = randn({2, 3});
  auto copy2 = nn::Sequential(std::dynamic_pointer_cast<nn::SequentialImpl>(seq->clone()));
  EXPECT_TRUE(seq->forward(x).equal(copy2->forward(x)));
  nn::Linear fc(2, 2);
  auto fc2 = std::dynamic_pointer_cast<nn::LinearImpl>(fc->clone());
  EXPECT_TRUE(fc2->weight.is_same(fc2->named_parameters()["weight"]));
  Net net;
  EXPECT_THROW(net->clone(), NotImplementedError);
}

TEST(NNModule, LinearWrongShape) {
  nn::Linear fc(784, 512);
  try {
    fc(ones({4, 28}));
    FAIL() << "no throw";
  } catch (const ValueError& e) {
    EXPECT_NE(
        std::string(e.what()).find("Linear(in=784, out=512): input's last dim is 28, expected 784"),
        std::string::npos)
        << e.what();
  }
  EXPECT_THROW(fc(ones({})), ValueError);
}
