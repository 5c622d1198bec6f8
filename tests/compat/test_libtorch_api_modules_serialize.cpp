// What libtorch's modules.cpp, serialize.cpp, autograd.cpp and static.cpp (test/cpp/api) needed
// from brasa, spelled as they spell it: libtorch's checks and words in F::fold / F::unfold and
// MultiheadAttention, modules that accept (and print) any stride and dilation,
// CosineEmbeddingLoss's printing, optimizer states compared with ==, ska::flat_hash_map and
// c10::make_tempfile, and the torch::detail / variadic helpers.

#include <c10/util/flat_hash_map.h>
#include <c10/util/tempfile.h>
#include <gtest/gtest.h>
#include <torch/csrc/utils/variadic.h>
#include <torch/detail/static.h>
#include <torch/torch.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "support/throws_with.h"

namespace {

namespace F = torch::nn::functional;

TEST(LibtorchModulesSuite, FoldAndUnfoldTakeLibtorchsRanks) {
  // libtorch's F::unfold takes only [N, C, H, W]; F::fold [C * k, L] or [N, C * k, L].
  EXPECT_THROWS_CONTAINING(c10::Error, F::unfold(torch::randn({2, 5, 2}), F::UnfoldFuncOptions(2)),
                           "Input Error: Only 4D input Tensors are supported (got 3D)");
  EXPECT_THROWS_CONTAINING(
      c10::Error, F::fold(torch::randn({1, 3, 16, 16}), F::FoldFuncOptions({8, 8}, {3, 3})),
      "Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported (got 4D)");
  EXPECT_EQ(F::unfold(torch::ones({1, 2, 3, 3}), F::UnfoldFuncOptions(2)).sizes(),
            (std::vector<int64_t>{1, 8, 4}));
  EXPECT_EQ(F::fold(torch::ones({8, 4}), F::FoldFuncOptions(3, 2)).sizes(),
            (std::vector<int64_t>{2, 3, 3}));
  EXPECT_THROWS_CONTAINING(c10::Error,
                           F::unfold(torch::randn({1, 1, 2, 2}), F::UnfoldFuncOptions({2, 3})),
                           "Given input with spatial size (2, 2), kernel_size=(2, 3), dilation=(1, "
                           "1), padding=(0, 0), calculated shape of the array of sliding blocks as "
                           "(1, 0), but its components must be at least one");
  // The op itself (Python's F.unfold) still takes unbatched input.
  EXPECT_EQ(torch::im2col(torch::ones({2, 3, 3}), {2, 2}, {1, 1}, {0, 0}, {1, 1}).sizes(),
            (std::vector<int64_t>{8, 4}));
}

TEST(LibtorchModulesSuite, ConvModulesAcceptAnyDilationUntilTheyRun) {
  auto options = torch::nn::Conv3dOptions(4, 4, std::vector<int64_t>{5, 6, 7})
                     .stride({1, 2, 3})
                     .padding(1)
                     .dilation(0)
                     .groups(2);
  torch::nn::Conv3d conv(options);
  EXPECT_EQ(c10::str(conv),
            "torch::nn::Conv3d(4, 4, kernel_size=[5, 6, 7], stride=[1, 2, 3], padding=[1, 1, 1], "
            "dilation=[0, 0, 0], groups=2)");
  EXPECT_THROWS_CONTAINING(c10::Error, conv(torch::randn({1, 4, 9, 9, 9})),
                           "dilation should be greater than zero");
  torch::nn::ConvTranspose2d transposed(torch::nn::ConvTranspose2dOptions(2, 2, 3).stride(0));
  EXPECT_THROW(transposed(torch::randn({1, 2, 4, 4})), c10::Error);
  // Any padding mode is taken (and printed); a transposed module refuses all but zeros when it
  // runs.
  torch::nn::ConvTranspose1d circular(
      torch::nn::ConvTranspose1dOptions(2, 2, 3).padding_mode(torch::kCircular));
  EXPECT_NE(c10::str(circular).find("padding_mode=kCircular"), std::string::npos);
  EXPECT_THROWS_CONTAINING(c10::Error, circular(torch::randn({1, 2, 4})), "zeros padding mode");
}

TEST(LibtorchModulesSuite, CosineEmbeddingLossPrintsItsMargin) {
  EXPECT_EQ(c10::str(torch::nn::CosineEmbeddingLoss(
                torch::nn::CosineEmbeddingLossOptions().margin(0.25))),
            "torch::nn::CosineEmbeddingLoss(margin=0.25)");
  EXPECT_EQ(c10::str(torch::nn::CosineEmbeddingLoss()), "torch::nn::CosineEmbeddingLoss(margin=0)");
}

TEST(LibtorchModulesSuite, MultiheadAttentionBiasWithStaticKeyOrValue) {
  const int64_t e = 4, heads = 2, len = 3, batch = 2;
  torch::nn::MultiheadAttention mha(
      torch::nn::MultiheadAttentionOptions(e, heads).add_bias_kv(true));
  auto q = torch::randn({len, batch, e});
  auto static_kv = torch::randn({batch * heads, len, e / heads});
  auto call = [&](bool key) {
    return F::multi_head_attention_forward(
        q, q, q,
        F::MultiheadAttentionForwardFuncOptions(e, heads, mha->in_proj_weight, mha->in_proj_bias,
                                                mha->bias_k, mha->bias_v, false, 0.0,
                                                mha->out_proj->weight, mha->out_proj->bias)
            .static_k(key ? static_kv : torch::Tensor())
            .static_v(key ? torch::Tensor() : static_kv));
  };
  EXPECT_THROWS_CONTAINING(c10::Error, call(true), "bias cannot be added to static key");
  EXPECT_THROWS_CONTAINING(c10::Error, call(false), "bias cannot be added to static value");
}

// serialize.cpp compares optimizer states after a save and load with ==, through
// `const ska::flat_hash_map<std::string, std::unique_ptr<OptimizerParamState>>&`.
bool same_states(
    const ska::flat_hash_map<std::string, std::unique_ptr<torch::optim::OptimizerParamState>>& a,
    const ska::flat_hash_map<std::string, std::unique_ptr<torch::optim::OptimizerParamState>>& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [key, state] : a) {
    auto it = b.find(key);
    if (it == b.end()) return false;
    if (!(static_cast<const torch::optim::AdamParamState&>(*state) ==
          static_cast<const torch::optim::AdamParamState&>(*it->second)))
      return false;
  }
  return true;
}

TEST(LibtorchModulesSuite, OptimizerStatesCompareEqual) {
  torch::manual_seed(0);
  torch::nn::Linear model(3, 2);
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(0.1).amsgrad(true));
  model(torch::ones({4, 3})).sum().backward();
  adam.step();
  auto file = c10::make_tempfile();
  torch::save(adam, file.name);
  torch::optim::Adam loaded(model->parameters(), torch::optim::AdamOptions(0.1).amsgrad(true));
  torch::load(loaded, file.name);
  EXPECT_TRUE(same_states(adam.state(), loaded.state()));
  // One more step changes the state: no longer equal.
  model(torch::ones({4, 3})).sum().backward();
  adam.step();
  EXPECT_FALSE(same_states(adam.state(), loaded.state()));

  torch::optim::SGDParamState none, some;
  EXPECT_TRUE(none == torch::optim::SGDParamState());
  some.momentum_buffer(torch::ones({2}));
  EXPECT_FALSE(none == some);
  torch::optim::SGDParamState same;
  same.momentum_buffer(torch::ones({2}));
  EXPECT_TRUE(some == same);
  same.momentum_buffer(torch::zeros({2}));
  EXPECT_FALSE(some == same);

  torch::optim::LBFGSParamState a, b;
  a.old_dirs().push_back(torch::ones({2}));
  EXPECT_FALSE(a == b);
  b.old_dirs().push_back(torch::ones({2}));
  EXPECT_TRUE(a == b);
}

TEST(LibtorchModulesSuite, TempFilesAreRemoved) {
  std::string path;
  {
    c10::TempFile file = c10::make_tempfile("brasa-test-");
    path = file.name;
    EXPECT_NE(path.find("brasa-test-"), std::string::npos);
    std::ofstream(path) << "x";
    EXPECT_TRUE(std::ifstream(path).good());
  }
  EXPECT_FALSE(std::ifstream(path).good());
  std::string dir;
  {
    c10::TempDir d = c10::make_tempdir();
    dir = d.name;
    EXPECT_TRUE(c10::try_make_tempfile().has_value());
  }
  EXPECT_FALSE(std::ifstream(dir + "/.").good());
}

struct WithForward : torch::nn::Module {
  float forward(torch::Tensor& t) { return 1.0f; }
};
struct WithoutForward : torch::nn::Module {};

TEST(LibtorchModulesSuite, StaticHelpers) {
  static_assert(torch::all_of<>::value && torch::all_of<true, true>::value);
  static_assert(!torch::all_of<true, false>::value);
  static_assert(!torch::any_of<>::value && torch::any_of<false, true>::value);
  static_assert(torch::none_of<false, false>::value);
  static_assert(torch::detail::is_module<torch::nn::LinearImpl>::value);
  static_assert(!torch::detail::is_module<int>::value);
  static_assert(torch::detail::check_not_lvalue_references<int, const int&, std::string&&>());
  static_assert(!torch::detail::check_not_lvalue_references<int, std::string&>());
  static_assert(
      std::is_same_v<torch::detail::return_type_of_forward<WithForward, torch::Tensor&>::type,
                     float>);
  static_assert(std::is_same_v<torch::detail::return_type_of_forward<WithoutForward>::type, void>);
  std::vector<int> seen;
  torch::apply([&](int x) { seen.push_back(x); }, 3, 1, 2);
  EXPECT_EQ(seen, (std::vector<int>{3, 1, 2}));
}

struct Leaf : torch::nn::Module {
  explicit Leaf(const std::string& name) { register_buffer(name, torch::ones(2)); }
};
struct Middle : torch::nn::Module {
  Middle(const std::string& child, const std::string& leaf) {
    register_module(child, std::make_shared<Leaf>(leaf));
    register_module("relu", torch::nn::Functional(torch::relu));
  }
};

TEST(LibtorchModulesSuite, ModuleArchivesReadAsLibtorchs) {
  auto saved = std::make_shared<Middle>("b", "c");
  saved->named_buffers()["b.c"].fill_(3);
  std::stringstream stream;
  torch::save(saved, stream);
  // A submodule's archive is the entries under its name; a Functional has none.
  torch::serialize::InputArchive archive, b, relu;
  archive.load_from(stream);
  ASSERT_TRUE(archive.try_read("b", b));
  torch::Tensor c;
  ASSERT_TRUE(b.try_read("c", c, /*is_buffer=*/true));
  EXPECT_TRUE(torch::equal(c, torch::full({2}, 3.0)));
  EXPECT_FALSE(archive.try_read("relu", relu));
  EXPECT_THROWS_CONTAINING(c10::Error, archive.read("x", relu),
                           "does not have a field with name 'x'");
  c10::IValue value;
  EXPECT_THROWS_CONTAINING(c10::Error, archive.read("bad_key", value),
                           "does not have a field with name 'bad_key'");
  // Loading into a module names the first missing tensor or submodule as libtorch does.
  auto file = c10::make_tempfile();
  torch::save(saved, file.name);
  auto other_leaf = std::make_shared<Middle>("b", "x");
  EXPECT_THROWS_CONTAINING(c10::Error, torch::load(other_leaf, file.name),
                           "No such serialized tensor 'b.x'");
  auto other_child = std::make_shared<Middle>("x", "c");
  EXPECT_THROWS_CONTAINING(c10::Error, torch::load(other_child, file.name),
                           "No such serialized submodule: 'x'");
  // A stream can be read again after a seek back (the first load read it to the end).
  std::stringstream again;
  torch::save(saved, again);
  try {
    torch::load(other_leaf, again);
  } catch (const c10::Error&) {
  }
  EXPECT_THROWS_CONTAINING(c10::Error, (again.seekg(0, again.beg), torch::load(other_child, again)),
                           "No such serialized submodule: 'x'");
  auto same = std::make_shared<Middle>("b", "c");
  torch::load(same, file.name);
  EXPECT_TRUE(torch::equal(same->named_buffers()["b.c"], torch::full({2}, 3.0)));
}

struct WarningCount : c10::WarningHandler {
  void process(const c10::SourceLocation&, const std::string& msg, const bool) override {
    if (msg.find("old serialization") != std::string::npos) ++count;
  }
  int count = 0;
};

// libtorch before 1.5 wrote Adam as per-parameter lists ("exp_average_buffers/size", ".../0");
// 1.13 reads them with one warning, and so does brasa (Note [Legacy optimizer archives]).
TEST(LibtorchModulesSuite, OldOptimizerArchivesLoad) {
  torch::manual_seed(0);
  torch::nn::Linear model(3, 2);
  auto params = model->parameters();
  params.push_back(torch::randn({2, 2}));  // no state: the lists are one shorter
  torch::optim::Adam adam(params, torch::optim::AdamOptions(0.1));
  model(torch::ones({4, 3})).sum().backward();
  adam.step();
  torch::serialize::OutputArchive out;
  auto write_list = [&](const std::string& key, const std::vector<torch::Tensor>& list) {
    out.write(key + "/size", torch::tensor(static_cast<int64_t>(list.size())));
    for (size_t i = 0; i < list.size(); ++i)
      out.write(key + "/" + std::to_string(i), list[i], /*is_buffer=*/true);
  };
  std::vector<torch::Tensor> steps, avg, avg_sq;
  for (size_t i = 0; i + 1 < params.size(); ++i) {
    const auto& s = static_cast<const torch::optim::AdamParamState&>(
        *adam.state().at(torch::optim::param_key(params[i])));
    steps.push_back(torch::tensor(s.step()));
    avg.push_back(s.exp_avg());
    avg_sq.push_back(s.exp_avg_sq());
  }
  write_list("step_buffers", steps);
  write_list("exp_average_buffers", avg);
  write_list("exp_average_sq_buffers", avg_sq);
  write_list("max_exp_average_sq_buffers", {});
  std::stringstream stream;
  out.save_to(stream);

  torch::optim::Adam loaded(params, torch::optim::AdamOptions(0.1));
  WarningCount warnings;
  c10::WarningUtils::WarningHandlerGuard guard(&warnings);
  torch::load(loaded, stream);
  EXPECT_EQ(warnings.count, 1);
  EXPECT_EQ(loaded.state().size(), 2u);
  EXPECT_TRUE(same_states(adam.state(), loaded.state()));

  // An archive with neither form is an error naming the key.
  torch::serialize::OutputArchive empty;
  empty.write("other", torch::ones(1));
  std::stringstream empty_stream;
  empty.save_to(empty_stream);
  torch::optim::SGD sgd(params, torch::optim::SGDOptions(0.1));
  EXPECT_THROW(torch::load(sgd, empty_stream), c10::Error);
}

}  // namespace
