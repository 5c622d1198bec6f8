// Calls whose meaning hinges on C++ overload resolution (an int or bool literal, IntArrayRef or
// int64_t, Scalar or Tensor, a ScalarType that is a dtype or a TensorOptions) must mean what they
// mean in libtorch 1.13. Each row is a libtorch spelling and the PyTorch expression with the same
// meaning; the pairs were checked by compiling the same calls against Debian's libtorch 1.13 and
// comparing its printout, and here the values, shapes and dtypes are compared with live PyTorch.
// Note [int dim of var and std] is the one that differed (var(1) was var(unbiased=true)).
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <functional>
#include <string>
#include <vector>

#include "support/oracle_rows.h"

namespace {

using torch::Tensor;
using Outputs = std::vector<Tensor>;

struct Inputs {
  Tensor a = torch::tensor({1.5, -2.0, 3.25, 0.5, 4.0, -1.0, 2.5, 6.0, -3.5, 0.25, 1.0, 2.0},
                           torch::kFloat)
                 .reshape({3, 4});
  Tensor b = torch::tensor({2.0, -3.0, 1.5, 4.0}, torch::kFloat);
  Tensor idx = torch::tensor({2, 0}, torch::kLong);
};

template <typename A, typename B>
Outputs both(const std::tuple<A, B>& t) {
  return {std::get<0>(t), std::get<1>(t)};
}

struct Row {
  const char* cpp;     // the libtorch spelling, for the test's name and messages
  const char* python;  // the same meaning in PyTorch
  std::function<Outputs(const Inputs&)> run;
};

// clang-format off
const std::vector<Row>& rows() {
  using namespace torch;  // NOLINT: the rows are written as a libtorch program writes them
  static const std::vector<Row> table = {
    {"a.var(1)", "a.var(1)", [](const Inputs& x) -> Outputs { return {x.a.var(1)}; }},
    {"a.std(1)", "a.std(1)", [](const Inputs& x) -> Outputs { return {x.a.std(1)}; }},
    {"a.var(0, false)", "a.var(0, unbiased=False)", [](const Inputs& x) -> Outputs { return {x.a.var(0, false)}; }},
    {"a.std(0, false)", "a.std(0, unbiased=False)", [](const Inputs& x) -> Outputs { return {x.a.std(0, false)}; }},
    {"a.var(true)", "a.var(unbiased=True)", [](const Inputs& x) -> Outputs { return {x.a.var(true)}; }},
    {"a.var(false)", "a.var(unbiased=False)", [](const Inputs& x) -> Outputs { return {x.a.var(false)}; }},
    {"a.std(false)", "a.std(unbiased=False)", [](const Inputs& x) -> Outputs { return {x.a.std(false)}; }},
    {"a.var(1, 0)", "a.var(1, unbiased=False)", [](const Inputs& x) -> Outputs { return {x.a.var(1, 0)}; }},
    {"a.var(1, true, true)", "a.var(1, keepdim=True)", [](const Inputs& x) -> Outputs { return {x.a.var(1, true, true)}; }},
    {"torch::var(a, 1)", "torch.var(a, 1)", [](const Inputs& x) -> Outputs { return {torch::var(x.a, 1)}; }},
    {"torch::std(a, 1)", "torch.std(a, 1)", [](const Inputs& x) -> Outputs { return {torch::std(x.a, 1)}; }},
    {"a.sum(1)", "a.sum(1)", [](const Inputs& x) -> Outputs { return {x.a.sum(1)}; }},
    {"a.sum(0, true)", "a.sum(0, keepdim=True)", [](const Inputs& x) -> Outputs { return {x.a.sum(0, true)}; }},
    {"a.sum(kDouble)", "a.sum(dtype=torch.float64)", [](const Inputs& x) -> Outputs { return {x.a.sum(kDouble)}; }},
    {"a.sum(1, false, kDouble)", "a.sum(1, dtype=torch.float64)", [](const Inputs& x) -> Outputs { return {x.a.sum(1, false, kDouble)}; }},
    {"a.mean(kDouble)", "a.mean(dtype=torch.float64)", [](const Inputs& x) -> Outputs { return {x.a.mean(kDouble)}; }},
    {"a.mean({0}, true)", "a.mean([0], keepdim=True)", [](const Inputs& x) -> Outputs { return {x.a.mean({0}, true)}; }},
    {"a.prod(1)", "a.prod(1)", [](const Inputs& x) -> Outputs { return {x.a.prod(1)}; }},
    {"a.max(0)", "a.max(0)", [](const Inputs& x) -> Outputs { return both(x.a.max(0)); }},
    {"a.max(b)", "torch.maximum(a, b)", [](const Inputs& x) -> Outputs { return {x.a.max(x.b)}; }},
    {"a.min(1)", "a.min(1)", [](const Inputs& x) -> Outputs { return both(x.a.min(1)); }},
    {"torch::max(a, 1)", "torch.max(a, 1)", [](const Inputs& x) -> Outputs { return both(torch::max(x.a, 1)); }},
    {"a.argmax(1)", "a.argmax(1)", [](const Inputs& x) -> Outputs { return {x.a.argmax(1)}; }},
    {"torch::argmax(a)", "torch.argmax(a)", [](const Inputs& x) -> Outputs { return {torch::argmax(x.a)}; }},
    {"(a > 3).any(1)", "(a > 3).any(1)", [](const Inputs& x) -> Outputs { return {(x.a > 3).any(1)}; }},
    {"(a > -3).all(0)", "(a > -3).all(0)", [](const Inputs& x) -> Outputs { return {(x.a > -3).all(0)}; }},
    {"a.norm(2)", "a.norm(2)", [](const Inputs& x) -> Outputs { return {x.a.norm(2)}; }},
    {"a.norm(0)", "a.norm(0)", [](const Inputs& x) -> Outputs { return {x.a.norm(0)}; }},
    {"a.norm(2, 1)", "a.norm(2, 1)", [](const Inputs& x) -> Outputs { return {x.a.norm(2, 1)}; }},
    {"a.norm(1, 0)", "a.norm(1, 0)", [](const Inputs& x) -> Outputs { return {x.a.norm(1, 0)}; }},
    {"a.pow(2)", "a.pow(2)", [](const Inputs& x) -> Outputs { return {x.a.pow(2)}; }},
    {"torch::pow(2, a)", "torch.pow(2, a)", [](const Inputs& x) -> Outputs { return {torch::pow(2, x.a)}; }},
    {"a.abs().pow(b)", "a.abs().pow(b)", [](const Inputs& x) -> Outputs { return {x.a.abs().pow(x.b)}; }},
    {"a.clamp(0)", "a.clamp(min=0)", [](const Inputs& x) -> Outputs { return {x.a.clamp(0)}; }},
    {"a.clamp({}, 1)", "a.clamp(max=1)", [](const Inputs& x) -> Outputs { return {x.a.clamp({}, 1)}; }},
    {"torch::clamp(a, 0)", "torch.clamp(a, min=0)", [](const Inputs& x) -> Outputs { return {torch::clamp(x.a, 0)}; }},
    {"a.to(kInt)", "a.to(torch.int32)", [](const Inputs& x) -> Outputs { return {x.a.to(kInt)}; }},
    {"a.to(kInt, false, true)", "a.to(torch.int32, copy=True)", [](const Inputs& x) -> Outputs { return {x.a.to(kInt, false, true)}; }},
    {"a.to(b.to(kDouble))", "a.to(b.double())", [](const Inputs& x) -> Outputs { return {x.a.to(x.b.to(kDouble))}; }},
    {"a.index_select(0, idx)", "a.index_select(0, idx)", [](const Inputs& x) -> Outputs { return {x.a.index_select(0, x.idx)}; }},
    {"a.index_select(1, idx)", "a.index_select(1, idx)", [](const Inputs& x) -> Outputs { return {x.a.index_select(1, x.idx)}; }},
    {"torch::div(a, b, \"floor\")", "torch.div(a, b, rounding_mode='floor')", [](const Inputs& x) -> Outputs { return {torch::div(x.a, x.b, "floor")}; }},
    {"torch::div(a, 2, \"trunc\")", "torch.div(a, 2, rounding_mode='trunc')", [](const Inputs& x) -> Outputs { return {torch::div(x.a, 2, "trunc")}; }},
    {"tensor({3, 4}) / 2", "torch.tensor([3, 4]) / 2", [](const Inputs&) -> Outputs { return {torch::tensor({3, 4}) / 2}; }},
    {"tensor({3, 4}) * 1.5", "torch.tensor([3, 4]) * 1.5", [](const Inputs&) -> Outputs { return {torch::tensor({3, 4}) * 1.5}; }},
    {"a.add(b, 2)", "a.add(b, alpha=2)", [](const Inputs& x) -> Outputs { return {x.a.add(x.b, 2)}; }},
    {"a.sub(1, 2)", "a.sub(1, alpha=2)", [](const Inputs& x) -> Outputs { return {x.a.sub(1, 2)}; }},
    {"a.mul(true)", "a.mul(True)", [](const Inputs& x) -> Outputs { return {x.a.mul(true)}; }},
    {"a.sort(true)", "a.sort(1)", [](const Inputs& x) -> Outputs { return both(x.a.sort(true)); }},
    {"a.sort(0)", "a.sort(0)", [](const Inputs& x) -> Outputs { return both(x.a.sort(0)); }},
    {"a.sort(1, true)", "a.sort(1, descending=True)", [](const Inputs& x) -> Outputs { return both(x.a.sort(1, true)); }},
    {"a.topk(2, 1, false)", "a.topk(2, 1, largest=False)", [](const Inputs& x) -> Outputs { return both(x.a.topk(2, 1, false)); }},
    {"a.cumsum(1, kDouble)", "a.cumsum(1, dtype=torch.float64)", [](const Inputs& x) -> Outputs { return {x.a.cumsum(1, kDouble)}; }},
    {"a.softmax(1, kDouble)", "a.softmax(1, dtype=torch.float64)", [](const Inputs& x) -> Outputs { return {x.a.softmax(1, kDouble)}; }},
    {"a.reshape(-1)", "a.reshape(-1)", [](const Inputs& x) -> Outputs { return {x.a.reshape(-1)}; }},
    {"a.select(0, -1)", "a.select(0, -1)", [](const Inputs& x) -> Outputs { return {x.a.select(0, -1)}; }},
    {"a.split(1)[1]", "a.split(1)[1]", [](const Inputs& x) -> Outputs { return {x.a.split(1)[1]}; }},
    {"a.chunk(2, 1)[1]", "a.chunk(2, 1)[1]", [](const Inputs& x) -> Outputs { return {x.a.chunk(2, 1)[1]}; }},
    {"a.roll(1)", "a.roll(1)", [](const Inputs& x) -> Outputs { return {x.a.roll(1)}; }},
    {"a.roll(1, 1)", "a.roll(1, 1)", [](const Inputs& x) -> Outputs { return {x.a.roll(1, 1)}; }},
    {"a.tril(-1)", "a.tril(-1)", [](const Inputs& x) -> Outputs { return {x.a.tril(-1)}; }},
    {"full({2}, 1)", "torch.full([2], 1)", [](const Inputs&) -> Outputs { return {torch::full({2}, 1)}; }},
    {"full({2}, true)", "torch.full([2], True)", [](const Inputs&) -> Outputs { return {torch::full({2}, true)}; }},
    {"full({2}, 2, kDouble)", "torch.full([2], 2, dtype=torch.float64)", [](const Inputs&) -> Outputs { return {torch::full({2}, 2, kDouble)}; }},
    {"ones(3)", "torch.ones(3)", [](const Inputs&) -> Outputs { return {torch::ones(3)}; }},
    {"tensor(1)", "torch.tensor(1)", [](const Inputs&) -> Outputs { return {torch::tensor(1)}; }},
    {"tensor({1, 2})", "torch.tensor([1, 2])", [](const Inputs&) -> Outputs { return {torch::tensor({1, 2})}; }},
    {"tensor({true, false})", "torch.tensor([True, False])", [](const Inputs&) -> Outputs { return {torch::tensor({true, false})}; }},
    {"arange(5)", "torch.arange(5)", [](const Inputs&) -> Outputs { return {torch::arange(5)}; }},
    {"arange(3, kFloat)", "torch.arange(3, dtype=torch.float32)", [](const Inputs&) -> Outputs { return {torch::arange(3, kFloat)}; }},
    {"arange(0., 1., .25)", "torch.arange(0., 1., .25)", [](const Inputs&) -> Outputs { return {torch::arange(0., 1., .25)}; }},
    {"where(a < 0, a, 0)", "torch.where(a < 0, a, 0.)", [](const Inputs& x) -> Outputs { return {torch::where(x.a < 0, x.a, 0)}; }},
    {"masked_fill(a < 0, tensor(9.0))", "a.masked_fill(a < 0, torch.tensor(9.0))", [](const Inputs& x) -> Outputs { return {x.a.masked_fill(x.a < 0, torch::tensor(9.0))}; }},
    {"a.index({1, 0})", "a[1, 0]", [](const Inputs& x) -> Outputs { return {x.a.index({1, 0})}; }},
    {"nll_loss(.., {}, Reduction::Sum)", "torch.nn.functional.nll_loss(a.log_softmax(1), torch.tensor([0, 1, 3]), reduction='sum')", [](const Inputs& x) -> Outputs { return {torch::nll_loss(x.a.log_softmax(1), torch::tensor({0, 1, 3}), {}, at::Reduction::Sum)}; }},
    {"mse_loss(a, b, Reduction::Sum)", "torch.nn.functional.mse_loss(a, b.expand(3, 4), reduction='sum')", [](const Inputs& x) -> Outputs { return {torch::mse_loss(x.a, x.b.expand({3, 4}), at::Reduction::Sum)}; }},
    {"a.scatter(1, i, 0)", "a.scatter(1, torch.tensor([[0], [1], [2]]), 0)", [](const Inputs& x) -> Outputs { return {x.a.scatter(1, torch::tensor({{0}, {1}, {2}}, kLong), 0)}; }},
    {"a.sub(b, 2)", "a.sub(b, alpha=2)", [](const Inputs& x) -> Outputs { return {x.a.sub(x.b, 2)}; }},
    {"a.lerp(b, 0.5)", "a.lerp(b, 0.5)", [](const Inputs& x) -> Outputs { return {x.a.lerp(x.b, 0.5)}; }},
    {"a.topk(2, 0)", "a.topk(2, 0)", [](const Inputs& x) -> Outputs { return both(x.a.topk(2, 0)); }},
    {"a[1]", "a[1]", [](const Inputs& x) -> Outputs { return {x.a[1]}; }},
    {"a.index({Slice(), 0})", "a[:, 0]", [](const Inputs& x) -> Outputs { return {x.a.index({indexing::Slice(), 0})}; }},
    {"linspace(0, 1, 5)", "torch.linspace(0, 1, 5)", [](const Inputs&) -> Outputs { return {torch::linspace(0, 1, 5)}; }},
    {"where(a > 0, 1.0, 0.0)", "torch.where(a > 0, 1.0, 0.0)", [](const Inputs& x) -> Outputs { return {torch::where(x.a > 0, 1.0, 0.0)}; }},
    {"dropout(a, 0.5, false)", "torch.dropout(a, 0.5, False)", [](const Inputs& x) -> Outputs { return {torch::dropout(x.a, 0.5, false)}; }},
  };
  return table;
}
// clang-format on

const char* const kPrelude = R"PY(
torch.set_default_dtype(torch.float32)
a = torch.tensor([1.5, -2.0, 3.25, 0.5, 4.0, -1.0, 2.5, 6.0, -3.5, 0.25, 1.0, 2.0]).reshape(3, 4)
b = torch.tensor([2.0, -3.0, 1.5, 4.0])
idx = torch.tensor([2, 0])
)PY";

const std::vector<brasa::testing_oracle::OracleRow>& oracle_rows() {
  static const std::vector<brasa::testing_oracle::OracleRow> table = [] {
    std::vector<brasa::testing_oracle::OracleRow> out;
    for (const Row& r : rows()) out.push_back({r.cpp, r.python, [&r] { return r.run(Inputs()); }});
    return out;
  }();
  return table;
}

class Overloads : public ::testing::TestWithParam<size_t> {};

TEST_P(Overloads, MeansWhatLibtorchMeans) {
  brasa::testing_oracle::expect_row_matches_torch(kPrelude, oracle_rows(), GetParam(), 1e-6);
}

std::string row_name(const ::testing::TestParamInfo<size_t>& info) {
  return "row" + std::to_string(info.param);
}

INSTANTIATE_TEST_SUITE_P(Compat, Overloads, ::testing::Range<size_t>(0, rows().size()), row_name);

}  // namespace
