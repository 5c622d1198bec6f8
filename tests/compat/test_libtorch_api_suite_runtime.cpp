// What libtorch 1.13's own C++ API tests (test/cpp/api: module.cpp, optim.cpp, transformer.cpp,
// fft.cpp, dataloader.cpp, sequential.cpp, modulelist.cpp, parameterlist.cpp,
// expanding-array.cpp) found at run time: defaults, printed forms and the words of error
// messages that programs and those tests match. Expected values are libtorch 1.13's (its
// headers, its tests) and, for allclose, Python torch 1.13's.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <algorithm>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "support/throws_with.h"

namespace {

TEST(LibtorchApiSuiteRuntime, ZeroGradZeroesByDefault) {
  torch::nn::Linear fc(2, 1);
  fc(torch::ones({1, 2})).sum().backward();
  fc->zero_grad();
  ASSERT_TRUE(fc->weight.grad().defined());
  EXPECT_EQ(fc->weight.grad().abs().sum().item<double>(), 0.0);
  fc(torch::ones({1, 2})).sum().backward();
  torch::optim::SGD sgd(fc->parameters(), torch::optim::SGDOptions(0.1));
  sgd.zero_grad();
  ASSERT_TRUE(fc->bias.grad().defined());
  EXPECT_EQ(fc->bias.grad().item<double>(), 0.0);
  fc->zero_grad(/*set_to_none=*/true);
  EXPECT_FALSE(fc->weight.grad().defined());
}

struct RuntimeSuiteModel : torch::nn::Module {};

TEST(LibtorchApiSuiteRuntime, RegistrationErrorsUseLibtorchWords) {
  RuntimeSuiteModel m;
  EXPECT_THROWS_CONTAINING(torch::ValueError, m.register_module("a.b", torch::nn::Linear(1, 1)),
                           "Submodule name must not contain a dot (got 'a.b')");
  EXPECT_THROWS_CONTAINING(torch::ValueError, m.register_module("", torch::nn::Linear(1, 1)),
                           "Submodule name must not be empty");
  EXPECT_THROWS_CONTAINING(torch::ValueError, m.register_parameter("", torch::ones(1)),
                           "Parameter name must not be empty");
  EXPECT_THROWS_CONTAINING(torch::ValueError, m.register_buffer("x.y", torch::ones(1)),
                           "Buffer name must not contain a dot (got 'x.y')");
  EXPECT_THROWS_CONTAINING(torch::IndexError, m.unregister_module("linear"),
                           "No Module with name `linear` is registered");
  EXPECT_THROWS_CONTAINING(torch::ValueError, m.modules(),
                           "It looks like you attempted to retrieve your top-level module as a "
                           "shared_ptr");
  torch::nn::Linear empty{nullptr};
  EXPECT_THROWS_CONTAINING(c10::Error, empty->weight, "Accessing empty ModuleHolder");
}

TEST(LibtorchApiSuiteRuntime, ContainerIndexAndTypeErrors) {
  torch::nn::Sequential seq(torch::nn::Linear(1, 1), torch::nn::ReLU());
  EXPECT_THROWS_CONTAINING(torch::IndexError, seq->ptr(5), "Index out of range");
  EXPECT_THROWS_CONTAINING(torch::IndexError, seq->at<torch::nn::LinearImpl>(2),
                           "Index out of range");
  EXPECT_THROWS_CONTAINING(torch::TypeError, seq->at<torch::nn::LinearImpl>(1),
                           "Attempted to cast module of type brasa::nn::ReLUImpl to type "
                           "brasa::nn::LinearImpl");
  torch::nn::Sequential empty;
  EXPECT_THROWS_CONTAINING(torch::ValueError, empty->forward(torch::ones(1)),
                           "Cannot call forward() on an empty Sequential");
  EXPECT_THROWS_CONTAINING(torch::TypeError, seq->forward<int>(torch::ones({1, 1})),
                           "The type of the return value is brasa::Tensor, but you asked for "
                           "type int");

  // ModuleList::ptr<T> of another type is nullptr, as in libtorch; at<T> raises.
  torch::nn::ModuleList list(torch::nn::Linear(1, 1), torch::nn::ReLU());
  EXPECT_EQ(list->ptr<torch::nn::LinearImpl>(1), nullptr);
  EXPECT_NE(list->ptr<torch::nn::ReLUImpl>(1), nullptr);
  EXPECT_THROW(list->at<torch::nn::LinearImpl>(1), torch::TypeError);
  EXPECT_THROWS_CONTAINING(torch::IndexError, list->ptr(2), "Index out of range");

  torch::nn::ParameterList params;
  params->append(torch::ones(1));
  EXPECT_THROWS_CONTAINING(torch::IndexError, params->at(1), "Index out of range");
  EXPECT_THROWS_CONTAINING(torch::IndexError, params[3], "Index out of range");

  EXPECT_THROWS_CONTAINING(torch::ValueError, torch::ExpandingArray<3>({1, 2}),
                           "Expected 3 values, but instead got 2");
}

TEST(LibtorchApiSuiteRuntime, TransformerModulesPrintTheirTypeNames) {
  std::ostringstream layer;
  layer << torch::nn::TransformerDecoderLayer(4, 2);
  EXPECT_EQ(layer.str().rfind("torch::nn::TransformerDecoderLayerImpl(\n"
                              "  (self_attn): torch::nn::MultiheadAttention(\n"
                              "    (out_proj): torch::nn::Linear(in_features=4, out_features=4, "
                              "bias=true)\n"
                              "  )\n"
                              "  (multihead_attn): torch::nn::MultiheadAttention(\n",
                              0),
            0u)
      << layer.str();
  std::ostringstream full;
  full << torch::nn::Transformer(torch::nn::TransformerOptions(4, 2)
                                     .num_encoder_layers(1)
                                     .num_decoder_layers(1)
                                     .dim_feedforward(8));
  EXPECT_EQ(full.str().rfind("torch::nn::TransformerImpl(\n"
                             "  (encoder): torch::nn::TransformerEncoderImpl(\n",
                             0),
            0u)
      << full.str();
}

// Python torch 1.13: allclose/isclose of complex tensors compare |a - b| <= atol + rtol * |b|.
TEST(LibtorchApiSuiteRuntime, AllcloseOfComplexTensors) {
  using c = c10::complex<double>;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  torch::Tensor a = torch::tensor({c(1, 1), c(2, -1), c(nan, 0)});
  torch::Tensor b = a + torch::tensor(c(0, 1e-6));
  EXPECT_TRUE(torch::allclose(a, b, 1e-5, 1e-8, /*equal_nan=*/true));
  EXPECT_FALSE(torch::allclose(a, b));  // NaN != NaN without equal_nan
  EXPECT_TRUE(torch::equal(torch::isclose(a, b), torch::tensor({true, true, false})));
  torch::Tensor shifted = a.clone();
  shifted[0] = c(1.001, 1);
  EXPECT_FALSE(torch::allclose(a, shifted, 1e-5, 1e-8, true));
  EXPECT_TRUE(torch::equal(torch::isclose(a, shifted, 1e-5, 1e-8, true),
                           torch::tensor({false, true, true})));
  using cf = c10::complex<float>;
  torch::Tensor d = torch::tensor({cf(1, 1)}), e = torch::tensor({cf(1, 1.00001f)});
  EXPECT_TRUE(torch::allclose(d, e));
  EXPECT_FALSE(torch::allclose(d, e, 0, 1e-6));
  const double inf = std::numeric_limits<double>::infinity();
  torch::Tensor i = torch::tensor({c(inf, 0)});
  EXPECT_TRUE(torch::allclose(i, i));
  EXPECT_FALSE(torch::allclose(i, torch::tensor({c(inf, 1)})));
}

TEST(LibtorchApiSuiteRuntime, OldOptimizerInterfaceWarnsAtEveryCall) {
  std::vector<std::string> warnings;
  auto previous = brasa::set_warning_handler([&](const std::string& m) { warnings.push_back(m); });
  std::vector<torch::Tensor> params = {torch::ones({2}, torch::requires_grad())};
  torch::optim::SGD sgd(params, torch::optim::SGDOptions(0.1));
  EXPECT_EQ(sgd.size(), 1u);
  EXPECT_EQ(sgd.parameters().size(), 1u);
  sgd.add_parameters({torch::zeros({1}, torch::requires_grad())});
  EXPECT_EQ(sgd.size(), 2u);
  (void)sgd.param_groups();  // the current interface does not warn
  brasa::set_warning_handler(previous);
  ASSERT_EQ(warnings.size(), 4u);
  for (const auto& w : warnings) EXPECT_NE(w.find("will be removed"), std::string::npos) << w;
  EXPECT_NE(warnings[0].find("Optimizer::size()"), std::string::npos) << warnings[0];
}

struct RuntimeSuiteDataset : torch::data::datasets::Dataset<RuntimeSuiteDataset, int> {
  int get(size_t index) override { return static_cast<int>(index); }
  torch::optional<size_t> size() const override { return 2; }
};

TEST(LibtorchApiSuiteRuntime, DataLoaderIteratorMisuse) {
  auto loader = torch::data::make_data_loader(RuntimeSuiteDataset{}, 2);
  auto it = loader->begin();
  ++it;  // the one batch consumed: now past the end
  EXPECT_THROWS_CONTAINING(c10::Error, ++it, "Attempted to increment iterator past the end");
  EXPECT_THROWS_CONTAINING(c10::Error, *it,
                           "Attempted to dereference iterator that was past the end");
  auto end = loader->end();
  EXPECT_THROWS_CONTAINING(c10::Error, ++end,
                           "Incrementing the DataLoader's past-the-end iterator is not allowed");
  EXPECT_THROWS_CONTAINING(c10::Error, *end,
                           "Dereferencing the DataLoader's past-the-end iterator is not allowed");
}

TEST(LibtorchApiSuiteRuntime, DataLoaderIteratorCopiesShareAPosition) {
  auto loader = torch::data::make_data_loader(RuntimeSuiteDataset{}, 1);
  auto i = loader->begin();
  auto j = i;
  ++i;
  EXPECT_TRUE(i != loader->end());
  ++j;  // the same position: now past the last batch for both
  EXPECT_TRUE(i == loader->end());
  // With workers, begin() sends the first requests, so a second begin() is an error.
  auto threaded = torch::data::make_data_loader(RuntimeSuiteDataset{},
                                                torch::data::DataLoaderOptions(1).workers(2));
  auto k = threaded->begin();
  EXPECT_THROWS_CONTAINING(c10::Error, threaded->begin(),
                           "Attempted to get a new DataLoader iterator while another iterator is "
                           "not yet exhausted");
}

// libtorch's partition: 10 indices over 3 replicas are 0..8 without duplicates (the last index
// is left out before shuffling) and 0..9 plus 0 and 1 with them.
TEST(LibtorchApiSuiteRuntime, DistributedRandomSamplerPartitionsAsLibtorch) {
  for (bool duplicates : {false, true}) {
    std::vector<size_t> all;
    for (size_t rank = 0; rank < 3; ++rank) {
      torch::data::samplers::DistributedRandomSampler s(10, 3, rank, duplicates);
      s.reset();
      while (auto batch = s.next(2)) all.insert(all.end(), batch->begin(), batch->end());
    }
    std::sort(all.begin(), all.end());
    const std::vector<size_t> expected =
        duplicates ? std::vector<size_t>{0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9}
                   : std::vector<size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8};
    EXPECT_EQ(all, expected);
  }
}

TEST(LibtorchApiSuiteRuntime, DictionaryUpdates) {
  torch::OrderedDict<std::string, int> a = {{"a", 1}, {"b", 2}}, b = {{"a", 1}};
  EXPECT_THROWS_CONTAINING(torch::ValueError, b.update(a), "Key 'a' already defined");
  torch::nn::ParameterDict dict;
  dict->insert("A", torch::tensor({1.0}));
  torch::nn::ParameterDict wrong;
  wrong->insert("A", torch::tensor({5.0}));
  wrong->insert("D", torch::tensor({5.0}));
  EXPECT_THROWS_CONTAINING(torch::IndexError, dict->update(*wrong), "Parameter 'D' is not defined");
  EXPECT_EQ(dict["A"].item<double>(), 1.0);  // nothing changed
}

TEST(LibtorchApiSuiteRuntime, RegisteringAnUndefinedParameterWithRequiresGradWarns) {
  std::vector<std::string> warnings;
  auto previous = brasa::set_warning_handler([&](const std::string& m) { warnings.push_back(m); });
  RuntimeSuiteModel m;
  m.register_parameter("absent", torch::Tensor());
  m.register_parameter("quiet", torch::Tensor(), /*requires_grad=*/false);
  brasa::set_warning_handler(previous);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("Ignoring the `requires_grad=true` function parameter"),
            std::string::npos);
  EXPECT_TRUE(m.parameters().empty());
}

// aten's binary_cross_entropy pairs the squeezed input and target (libtorch 1.13's XOR tests);
// F::binary_cross_entropy keeps the strict check. Values: Python torch 1.13's
// torch._C._nn.binary_cross_entropy.
TEST(LibtorchApiSuiteRuntime, AtenBinaryCrossEntropySqueezesTheTarget) {
  torch::Tensor x = torch::tensor({{0.2}, {0.7}, {0.9}}, torch::kDouble).requires_grad_();
  torch::Tensor t = torch::tensor({0.0, 1.0, 1.0}, torch::kDouble);
  torch::Tensor loss = torch::binary_cross_entropy(x, t);
  EXPECT_NEAR(loss.item<double>(), 0.22839300363692283, 1e-15);
  loss.backward();
  EXPECT_TRUE(
      torch::allclose(x.grad().flatten(),
                      torch::tensor({0.4166666666666666, -0.4761904761904762, -0.3703703703703704},
                                    torch::kDouble)));
  EXPECT_EQ(torch::binary_cross_entropy(x, t, {}, at::Reduction::None).sizes(),
            torch::IntArrayRef({3, 1}));
  EXPECT_THROW(torch::nn::functional::binary_cross_entropy(x, t), torch::ValueError);
  EXPECT_THROW(torch::binary_cross_entropy(x, torch::zeros({2}, torch::kDouble)), c10::Error);
}

#undef EXPECT_THROWS_CONTAINING

}  // namespace
