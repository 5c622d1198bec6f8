// nn containers: Sequential, AnyModule, ModuleList, ModuleDict, ParameterList, ParameterDict,
// Functional.
#include <gtest/gtest.h>

#include <sstream>

#include "brasa/brasa.h"

using namespace brasa;

namespace {

struct AddImpl : nn::Module {
  Tensor forward(const Tensor& a, const Tensor& b) { return a + b; }
};
BRASA_MODULE(Add);

struct CountImpl : nn::Module {
  int64_t forward(const Tensor& a) { return a.numel(); }
};

}  // namespace

TEST(NNContainers, SequentialForwardAndAccess) {
  nn::Sequential seq(nn::Linear(3, 4), nn::ReLU(), nn::Linear(4, 2));
  EXPECT_EQ(seq->size(), 3u);
  auto x = randn({5, 3});
  auto& l0 = seq->at<nn::LinearImpl>(0);
  auto& l2 = seq->at<nn::LinearImpl>(2);
  auto expected = linear(relu(linear(x, l0.weight, l0.bias)), l2.weight, l2.bias);
  EXPECT_TRUE(seq->forward(x).allclose(expected));
  EXPECT_TRUE(seq(x).allclose(expected));
  EXPECT_EQ(seq->named_parameters().keys(),
            (std::vector<std::string>{"0.weight", "0.bias", "2.weight", "2.bias"}));
  EXPECT_NE(seq->ptr<nn::ReLUImpl>(1), nullptr);
  EXPECT_EQ(seq[1].get(), seq->ptr(1).get());
  EXPECT_THROW(seq->at<nn::ReLUImpl>(0), TypeError);
  EXPECT_THROW(seq[3], IndexError);
  size_t n = 0;
  for (auto& m : *seq) n += m.ptr() != nullptr;
  EXPECT_EQ(n, 3u);
  seq->push_back(nn::Functional([](Tensor t) { return t * 2; }));
  seq->push_back("tanh", nn::Tanh());
  EXPECT_EQ(seq->named_children().keys(), (std::vector<std::string>{"0", "1", "2", "3", "tanh"}));
  EXPECT_TRUE(seq->forward(x).allclose(tanh(expected * 2)));
  nn::Sequential empty;
  EXPECT_THROW(empty->forward(x), ValueError);
}

TEST(NNContainers, NamedSequentialAndPrinting) {
  nn::Sequential seq({{"fc", nn::Linear(2, 3)}, {"act", nn::Sigmoid()}});
  EXPECT_EQ(seq->named_children().keys(), (std::vector<std::string>{"fc", "act"}));
  std::ostringstream s;
  s << seq;
  EXPECT_EQ(s.str(),
            "torch::nn::Sequential(\n"
            "  (fc): torch::nn::Linear(in_features=2, out_features=3, bias=true)\n"
            "  (act): torch::nn::Sigmoid()\n"
            ")");
}

TEST(NNContainers, AnyModuleSignatures) {
  nn::AnyModule add(Add{});
  auto a = ones({2}), b = full({2}, 3.0);
  EXPECT_TRUE(add.forward(a, b).equal(full({2}, 4.0)));
  EXPECT_THROW(add.forward(a), ValueError);
  EXPECT_THROW(add.forward(a, 1.0), TypeError);
  nn::AnyModule count(std::make_shared<CountImpl>());
  EXPECT_EQ(count.forward<int64_t>(ones({3, 4})), 12);
  EXPECT_THROW(count.forward(ones({3})), TypeError);  // returns int64_t, not Tensor
  nn::Sequential seq{Add(), nn::ReLU()};
  EXPECT_TRUE(seq->forward(a, -b).equal(zeros({2})));
  EXPECT_TRUE(nn::AnyModule().is_empty());
}

TEST(NNContainers, ModuleList) {
  nn::ModuleList list(nn::Linear(2, 2), nn::ReLU());
  list->push_back(nn::Linear(2, 1));
  EXPECT_EQ(list->size(), 3u);
  EXPECT_EQ(list->named_parameters().keys(),
            (std::vector<std::string>{"0.weight", "0.bias", "2.weight", "2.bias"}));
  EXPECT_NE(list->ptr<nn::LinearImpl>(2), nullptr);
  EXPECT_EQ(list->ptr<nn::LinearImpl>(1), nullptr);  // libtorch: nullptr for another type
  EXPECT_THROW(list->at<nn::LinearImpl>(1), TypeError);
  EXPECT_THROW(list[5], IndexError);
  list->insert(0, nn::Tanh());
  EXPECT_NE(list[0]->as<nn::TanhImpl>(), nullptr);
  EXPECT_EQ(list->named_parameters().keys().front(), "1.weight");
  auto x = ones({1, 2});
  for (const auto& m : *list)
    if (auto* l = m->as<nn::Linear>()) x = l->forward(x);
  EXPECT_EQ(x.sizes(), IntArrayRef({1, 1}));
}

TEST(NNContainers, ModuleDict) {
  std::vector<std::pair<std::string, std::shared_ptr<nn::Module>>> modules = {
      {"enc", std::make_shared<nn::LinearImpl>(3, 2)}, {"act", std::make_shared<nn::ReLUImpl>()}};
  nn::ModuleDict dict(modules);
  EXPECT_EQ(dict->keys(), (std::vector<std::string>{"enc", "act"}));
  EXPECT_TRUE(dict->contains("enc"));
  EXPECT_EQ(dict->at<nn::LinearImpl>("enc").options.in_features(), 3);
  EXPECT_THROW(dict["missing"], IndexError);
  dict->insert("dec", nn::Linear(2, 3));
  EXPECT_EQ(dict->named_parameters().size(), 4u);
  dict->pop("enc");
  EXPECT_EQ(dict->named_parameters().keys(), (std::vector<std::string>{"dec.weight", "dec.bias"}));
  EXPECT_EQ(dict->size(), 2u);
}

TEST(NNContainers, ParameterListAndDict) {
  nn::ParameterList list;
  list->append(randn({2, 3}).requires_grad_());
  list->append(zeros({4}));
  EXPECT_EQ(list->size(), 2u);
  EXPECT_TRUE(list[0].requires_grad());
  EXPECT_FALSE(list[1].requires_grad());
  EXPECT_EQ(list->named_parameters().keys(), (std::vector<std::string>{"0", "1"}));
  nn::ParameterDict dict;
  dict->insert("w", ones({2}).requires_grad_());
  dict->insert("b", zeros({2}).requires_grad_());
  EXPECT_EQ(dict->keys(), (std::vector<std::string>{"w", "b"}));
  EXPECT_TRUE(dict["w"].equal(ones({2})));
  dict->pop("w");
  EXPECT_EQ(dict->named_parameters().keys(), (std::vector<std::string>{"b"}));
  EXPECT_THROW(dict->pop("w"), IndexError);
  std::ostringstream s;
  s << *list;
  EXPECT_NE(s.str().find("(0): Parameter containing: [Float of size [2, 3]]"), std::string::npos)
      << s.str();
}

TEST(NNContainers, Functional) {
  nn::Functional f([](Tensor t) { return t + 1; });
  EXPECT_TRUE(f(zeros({2})).equal(ones({2})));
  nn::Functional leaky(nn::functional::leaky_relu,
                       nn::functional::LeakyReLUFuncOptions().negative_slope(0.5));
  EXPECT_TRUE(leaky(full({1}, -2.0)).equal(full({1}, -1.0)));
}
