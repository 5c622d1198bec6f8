// grad_fn()->name() of common libtorch calls against live PyTorch 1.13 (Note [Overload node
// names]). A C++ call picks one of libtorch's overloads (x * 2 is mul.Scalar, MulBackward1); each
// row's Python calls that same overload through torch.ops.aten, so PyTorch names the node the C++
// call makes in libtorch. The rows were also checked against a program built with Debian's
// libtorch 1.13.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <functional>
#include <string>
#include <vector>

#include "support/torch_oracle.h"

namespace {

namespace F = torch::nn::functional;
using torch::Tensor;

struct Inputs {
  Tensor x = (torch::arange(12, torch::kDouble).reshape({3, 4}) * 0.07 + 0.1).requires_grad_();
  Tensor y = (torch::arange(12, torch::kDouble).reshape({3, 4}) * 0.05 + 0.6).requires_grad_();
  Tensor m = (torch::arange(20, torch::kDouble).reshape({4, 5}) * 0.03).requires_grad_();
  Tensor idx = torch::tensor({0, 2}, torch::kLong);
};

const char* kPrelude = R"PY(
A = torch.ops.aten
F = torch.nn.functional
x = (torch.arange(12, dtype=torch.float64).reshape(3, 4) * 0.07 + 0.1).requires_grad_()
y = (torch.arange(12, dtype=torch.float64).reshape(3, 4) * 0.05 + 0.6).requires_grad_()
m = (torch.arange(20, dtype=torch.float64).reshape(4, 5) * 0.03).requires_grad_()
idx = torch.tensor([0, 2])
def name(k, t):
    n = t.grad_fn.name() if t.grad_fn is not None else 'None'
    print(k, ' '.join(str(ord(c)) for c in n))
)PY";

struct Row {
  const char* cpp;     // the libtorch call
  const char* python;  // the aten overload it calls
  std::function<Tensor(const Inputs&)> run;
};

// clang-format off
const std::vector<Row>& rows() {
  static const std::vector<Row> r = {
    {"x + y", "x + y", [](const Inputs& i) { return i.x + i.y; }},
    {"x + 2", "A.add.Scalar(x, 2)", [](const Inputs& i) { return i.x + 2; }},
    {"2 + x", "A.add.Scalar(x, 2)", [](const Inputs& i) { return 2 + i.x; }},
    {"x.add(2)", "A.add.Scalar(x, 2)", [](const Inputs& i) { return i.x.add(2); }},
    {"x.add(y, 2)", "A.add.Tensor(x, y, alpha=2)", [](const Inputs& i) { return i.x.add(i.y, 2); }},
    {"x - y", "x - y", [](const Inputs& i) { return i.x - i.y; }},
    {"x - 2", "A.sub.Scalar(x, 2)", [](const Inputs& i) { return i.x - 2; }},
    {"2 - x", "torch.full_like(x, 2).sub_(x)", [](const Inputs& i) { return 2 - i.x; }},
    {"x * y", "x * y", [](const Inputs& i) { return i.x * i.y; }},
    {"x * 2", "A.mul.Scalar(x, 2)", [](const Inputs& i) { return i.x * 2; }},
    {"2 * x", "A.mul.Scalar(x, 2)", [](const Inputs& i) { return 2 * i.x; }},
    {"x.mul(2.5)", "A.mul.Scalar(x, 2.5)", [](const Inputs& i) { return i.x.mul(2.5); }},
    {"x / y", "x / y", [](const Inputs& i) { return i.x / i.y; }},
    {"x / 2", "A.div.Scalar(x, 2)", [](const Inputs& i) { return i.x / 2; }},
    {"2 / x", "torch.full_like(x, 2).div_(x)", [](const Inputs& i) { return 2 / i.x; }},
    {"x.div(y, \"floor\")", "A.div.Tensor_mode(x, y, rounding_mode='floor')",
     [](const Inputs& i) { return i.x.div(i.y, "floor"); }},
    {"x.div(2, \"trunc\")", "A.div.Scalar_mode(x, 2, rounding_mode='trunc')",
     [](const Inputs& i) { return i.x.div(2, "trunc"); }},
    {"x.pow(2)", "A.pow.Tensor_Scalar(x, 2)", [](const Inputs& i) { return i.x.pow(2); }},
    {"x.pow(y)", "A.pow.Tensor_Tensor(x, y)", [](const Inputs& i) { return i.x.pow(i.y); }},
    {"torch::pow(2, x)", "A.pow.Scalar(2, x)", [](const Inputs& i) { return torch::pow(2, i.x); }},
    {"x.square()", "A.pow.Tensor_Scalar(x, 2)", [](const Inputs& i) { return i.x.square(); }},
    {"torch::rsub(x, y)", "A.rsub.Tensor(x, y)", [](const Inputs& i) { return torch::rsub(i.x, i.y); }},
    {"torch::rsub(x, 2)", "A.rsub.Scalar(x, 2)", [](const Inputs& i) { return torch::rsub(i.x, 2); }},
    {"x.remainder(y)", "A.remainder.Tensor(x, y)", [](const Inputs& i) { return i.x.remainder(i.y); }},
    {"x.remainder(2)", "A.remainder.Scalar(x, 2)", [](const Inputs& i) { return i.x.remainder(2); }},
    {"x % 2", "A.remainder.Scalar(x, 2)", [](const Inputs& i) { return i.x % 2; }},
    {"x.fmod(y)", "A.fmod.Tensor(x, y)", [](const Inputs& i) { return i.x.fmod(i.y); }},
    {"x.fmod(2)", "A.fmod.Scalar(x, 2)", [](const Inputs& i) { return i.x.fmod(2); }},
    {"torch::atan2(x, y)", "torch.atan2(x, y)", [](const Inputs& i) { return torch::atan2(i.x, i.y); }},
    {"torch::maximum(x, y)", "torch.maximum(x, y)", [](const Inputs& i) { return torch::maximum(i.x, i.y); }},
    {"x.clamp(0.2, 0.5)", "A.clamp(x, 0.2, 0.5)", [](const Inputs& i) { return i.x.clamp(0.2, 0.5); }},
    {"x.clamp_min(0.3)", "A.clamp_min(x, 0.3)", [](const Inputs& i) { return i.x.clamp_min(0.3); }},
    {"x.clone().mul_(2)", "A.mul_.Scalar(x.clone(), 2)", [](const Inputs& i) { return i.x.clone().mul_(2); }},
    {"x.clone().add_(2)", "A.add_.Scalar(x.clone(), 2)", [](const Inputs& i) { return i.x.clone().add_(2); }},
    {"x.clone().sub_(2)", "A.sub_.Scalar(x.clone(), 2)", [](const Inputs& i) { return i.x.clone().sub_(2); }},
    {"x.clone().div_(2)", "A.div_.Scalar(x.clone(), 2)", [](const Inputs& i) { return i.x.clone().div_(2); }},
    {"x.clone().mul_(y)", "x.clone().mul_(y)", [](const Inputs& i) { return i.x.clone().mul_(i.y); }},
    {"x.clone().pow_(2)", "A.pow_.Scalar(x.clone(), 2)", [](const Inputs& i) { return i.x.clone().pow_(2); }},
    {"x.sum()", "x.sum()", [](const Inputs& i) { return i.x.sum(); }},
    {"x.sum(1)", "x.sum(1)", [](const Inputs& i) { return i.x.sum(1); }},
    {"x.mean()", "x.mean()", [](const Inputs& i) { return i.x.mean(); }},
    {"x.mean(1)", "x.mean(1)", [](const Inputs& i) { return i.x.mean(1); }},
    {"x.prod()", "x.prod()", [](const Inputs& i) { return i.x.prod(); }},
    {"x.prod(1)", "x.prod(1)", [](const Inputs& i) { return i.x.prod(1); }},
    {"x.max()", "x.max()", [](const Inputs& i) { return i.x.max(); }},
    {"x.min()", "x.min()", [](const Inputs& i) { return i.x.min(); }},
    {"std::get<0>(x.max(1))", "x.max(1)[0]", [](const Inputs& i) { return std::get<0>(i.x.max(1)); }},
    {"x.amax(1)", "x.amax(1)", [](const Inputs& i) { return i.x.amax(1); }},
    {"x.norm()", "A.norm.Scalar(x, 2)", [](const Inputs& i) { return i.x.norm(); }},
    {"x.norm(2, 1)", "A.norm.ScalarOpt_dim(x, 2, [1])", [](const Inputs& i) { return i.x.norm(2, 1); }},
    {"x.std()", "x.std()", [](const Inputs& i) { return i.x.std(); }},
    {"x.logsumexp(1)", "x.logsumexp(1)", [](const Inputs& i) { return i.x.logsumexp(1); }},
    {"x.cumsum(1)", "x.cumsum(1)", [](const Inputs& i) { return i.x.cumsum(1); }},
    {"-x", "-x", [](const Inputs& i) { return -i.x; }},
    {"x.exp()", "x.exp()", [](const Inputs& i) { return i.x.exp(); }},
    {"x.log1p()", "x.log1p()", [](const Inputs& i) { return i.x.log1p(); }},
    {"x.sigmoid()", "x.sigmoid()", [](const Inputs& i) { return i.x.sigmoid(); }},
    {"x.relu()", "x.relu()", [](const Inputs& i) { return i.x.relu(); }},
    {"x.mm(m)", "x.mm(m)", [](const Inputs& i) { return i.x.mm(i.m); }},
    {"x.matmul(m)", "x.matmul(m)", [](const Inputs& i) { return i.x.matmul(i.m); }},
    {"F::linear(x, m.t(), m[0])", "F.linear(x, m.t(), m[0])",
     [](const Inputs& i) { return F::linear(i.x, i.m.t(), i.m[0]); }},
    {"x.view({12})", "x.view(12)", [](const Inputs& i) { return i.x.view({12}); }},
    {"x.reshape({12})", "x.reshape(12)", [](const Inputs& i) { return i.x.reshape({12}); }},
    {"x.t().reshape({12})", "x.t().reshape(12)", [](const Inputs& i) { return i.x.t().reshape({12}); }},
    {"x.flatten()", "x.flatten()", [](const Inputs& i) { return i.x.flatten(); }},
    {"x.t()", "x.t()", [](const Inputs& i) { return i.x.t(); }},
    {"x.transpose(0, 1)", "x.transpose(0, 1)", [](const Inputs& i) { return i.x.transpose(0, 1); }},
    {"x.permute({1, 0})", "x.permute(1, 0)", [](const Inputs& i) { return i.x.permute({1, 0}); }},
    {"x.unsqueeze(0).squeeze(0)", "x.unsqueeze(0).squeeze(0)",
     [](const Inputs& i) { return i.x.unsqueeze(0).squeeze(0); }},
    {"x.expand({2, 3, 4})", "x.expand(2, 3, 4)", [](const Inputs& i) { return i.x.expand({2, 3, 4}); }},
    {"x[0]", "x[0]", [](const Inputs& i) { return i.x[0]; }},
    {"x.narrow(0, 1, 2)", "x.narrow(0, 1, 2)", [](const Inputs& i) { return i.x.narrow(0, 1, 2); }},
    {"x.index_select(0, idx)", "x.index_select(0, idx)",
     [](const Inputs& i) { return i.x.index_select(0, i.idx); }},
    {"x.masked_fill(x > 0.5, 0)", "x.masked_fill(x > 0.5, 0)",
     [](const Inputs& i) { return i.x.masked_fill(i.x > 0.5, 0); }},
    {"x.masked_fill(x > 0.5, torch::tensor(0.))", "A.masked_fill.Tensor(x, x > 0.5, torch.tensor(0.))",
     [](const Inputs& i) { return i.x.masked_fill(i.x > 0.5, torch::tensor(0.)); }},
    {"torch::where(x > 0.5, x, y)", "torch.where(x > 0.5, x, y)",
     [](const Inputs& i) { return torch::where(i.x > 0.5, i.x, i.y); }},
    {"torch::cat({x, y})", "torch.cat([x, y])", [](const Inputs& i) { return torch::cat({i.x, i.y}); }},
    {"x.split(2)[0]", "x.split(2)[0]", [](const Inputs& i) { return i.x.split(2)[0]; }},
    {"x.chunk(2)[0]", "x.chunk(2)[0]", [](const Inputs& i) { return i.x.chunk(2)[0]; }},
    {"x.split_with_sizes({1, 2})[0]", "x.split_with_sizes([1, 2])[0]",
     [](const Inputs& i) { return i.x.split_with_sizes({1, 2})[0]; }},
    {"x.unbind()[0]", "x.unbind()[0]", [](const Inputs& i) { return i.x.unbind()[0]; }},
    {"x.clone()", "x.clone()", [](const Inputs& i) { return i.x.clone(); }},
    {"x.t().contiguous()", "x.t().contiguous()", [](const Inputs& i) { return i.x.t().contiguous(); }},
    {"x.to(torch::kFloat)", "x.to(torch.float32)", [](const Inputs& i) { return i.x.to(torch::kFloat); }},
    {"x.softmax(1)", "x.softmax(1)", [](const Inputs& i) { return i.x.softmax(1); }},
    {"x.log_softmax(1)", "x.log_softmax(1)", [](const Inputs& i) { return i.x.log_softmax(1); }},
    {"F::gelu(x)", "F.gelu(x)", [](const Inputs& i) { return F::gelu(i.x); }},
    {"F::elu(x)", "F.elu(x)", [](const Inputs& i) { return F::elu(i.x); }},
    {"at::normal(x, 1.0)", "torch.normal(x, 1.0)", [](const Inputs& i) { return at::normal(i.x, 1.0); }},
    {"at::normal(0.5, y)", "torch.normal(0.5, y)", [](const Inputs& i) { return at::normal(0.5, i.y); }},
    {"at::normal(x, y)", "torch.normal(x, y)", [](const Inputs& i) { return at::normal(i.x, i.y); }},
  };
  return r;
}
// clang-format on

std::string decode(const std::vector<double>& codes) {
  std::string s;
  for (double c : codes) s.push_back(static_cast<char>(c));
  return s;
}

const std::map<std::string, std::vector<double>>& torch_names() {
  std::string body = kPrelude;
  for (size_t k = 0; k < rows().size(); ++k) {
    body += "name('r" + std::to_string(k) + "', " + rows()[k].python + ")\n";
  }
  return brasa::testing_oracle::run_python_shared(body);
}

}  // namespace

TEST(NodeNamesTorch, EveryRowNamesItsNodeAsLibtorchDoes) {
  const auto& ref = torch_names();
  ASSERT_GE(rows().size(), 60u);
  for (size_t k = 0; k < rows().size(); ++k) {
    const Row& row = rows()[k];
    const std::string key = "r" + std::to_string(k);
    ASSERT_TRUE(ref.count(key)) << "PyTorch did not run " << row.python;
    Inputs in;
    Tensor r = row.run(in);
    ASSERT_TRUE(r.grad_fn() != nullptr) << row.cpp;
    EXPECT_EQ(r.grad_fn()->name(), decode(ref.at(key)))
        << row.cpp << "  vs PyTorch  " << row.python;
  }
}

// The overload names the node of that call only: a node made later by another call keeps its own.
TEST(NodeNamesTorch, AnOverloadNameDoesNotLeakIntoLaterNodes) {
  Inputs in;
  torch::Tensor a;
  {
    torch::NoGradGuard no_grad;
    a = in.x * 2;  // no node: the pending name must not survive the call
  }
  EXPECT_EQ(a.grad_fn(), nullptr);
  EXPECT_EQ((in.x * in.y).grad_fn()->name(), "MulBackward0");
  torch::Tensor d = in.x.detach();
  EXPECT_EQ((d * 2).grad_fn(), nullptr);
  EXPECT_EQ(in.x.exp().grad_fn()->name(), "ExpBackward0");
  // An in-place Scalar op on a tensor it must save a copy of keeps its own name.
  EXPECT_EQ(in.x.clone().mul_(3).grad_fn()->name(), "MulBackward1");
}
