// libtorch's Tensor methods that forward to an op (Note [Forwarded Tensor methods]), the in-place
// forms that write back, the in-place views and Tensor::unfold, each spelled as a libtorch program
// spells it and compared with the same method in live PyTorch.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>
#include <vector>

#include "support/oracle_rows.h"

namespace {

using brasa::testing_oracle::OracleRow;
using torch::Tensor;
using Outputs = std::vector<Tensor>;

const char* const kPrelude = R"PY(
torch.set_default_dtype(torch.float32)
a = torch.tensor([1.5, -2.0, 3.25, 0.5, 4.0, -1.0, 2.5, 6.0, -3.5, 0.25, 1.0, 2.0]).reshape(3, 4)
b = torch.tensor([2.0, -3.0, 1.5, 4.0])
p = a.abs() + 0.5
q = torch.sigmoid(a)
m = a[:, :3].clone()
i = torch.tensor([1, 2, 2, 5])
idx = torch.tensor([2, 0])
src = torch.arange(12.0).reshape(3, 4)
)PY";

Tensor a() {
  return torch::tensor({1.5, -2.0, 3.25, 0.5, 4.0, -1.0, 2.5, 6.0, -3.5, 0.25, 1.0, 2.0},
                       torch::kFloat)
      .reshape({3, 4});
}
Tensor b() { return torch::tensor({2.0, -3.0, 1.5, 4.0}, torch::kFloat); }
Tensor p() { return a().abs() + 0.5; }
Tensor q() { return torch::sigmoid(a()); }
Tensor m() { return a().narrow(1, 0, 3).clone(); }
Tensor i() { return torch::tensor({1, 2, 2, 5}, torch::kLong); }
Tensor idx() { return torch::tensor({2, 0}, torch::kLong); }
Tensor src() { return torch::arange(12.0, torch::kFloat).reshape({3, 4}); }

template <typename... T>
Outputs all(const std::tuple<T...>& t) {
  return std::apply([](const auto&... x) { return Outputs{x...}; }, t);
}
Outputs all(const std::vector<Tensor>& v) { return v; }

// clang-format off
const std::vector<OracleRow>& rows() {
  static const std::vector<OracleRow> table = {
    {"a.xlogy(p)", "a.xlogy(p)", [] { return Outputs{a().xlogy(p())}; }},
    {"a.nansum()", "a.nansum()", [] { return Outputs{a().nansum()}; }},
    {"a.nansum({1}, true)", "a.nansum([1], keepdim=True)", [] { return Outputs{a().nansum({1}, true)}; }},
    {"a.nanmean()", "a.nanmean()", [] { return Outputs{a().nanmean()}; }},
    {"a.diff()", "a.diff()", [] { return Outputs{a().diff()}; }},
    {"a.diff(1, 0)", "a.diff(1, 0)", [] { return Outputs{a().diff(1, 0)}; }},
    {"a.rot90(1, {0, 1})", "a.rot90(1, [0, 1])", [] { return Outputs{a().rot90(1, {0, 1})}; }},
    {"a.fliplr()", "a.fliplr()", [] { return Outputs{a().fliplr()}; }},
    {"a.flipud()", "a.flipud()", [] { return Outputs{a().flipud()}; }},
    {"a.ravel()", "a.ravel()", [] { return Outputs{a().ravel()}; }},
    {"a.trace()", "a.trace()", [] { return Outputs{a().trace()}; }},
    {"a.sgn()", "a.sgn()", [] { return Outputs{a().sgn()}; }},
    {"a.signbit()", "a.signbit()", [] { return Outputs{a().signbit()}; }},
    {"a.positive()", "a.positive()", [] { return Outputs{a().positive()}; }},
    {"a.msort()", "a.msort()", [] { return Outputs{a().msort()}; }},
    {"a.median()", "a.median()", [] { return Outputs{a().median()}; }},
    {"a.median(1)", "a.median(1)", [] { return all(a().median(1)); }},
    {"a.kthvalue(2, 1)", "a.kthvalue(2, 1)", [] { return all(a().kthvalue(2, 1)); }},
    {"a.quantile(0.5)", "a.quantile(0.5)", [] { return Outputs{a().quantile(0.5)}; }},
    {"a.quantile(0.25, 1, true)", "a.quantile(0.25, 1, True)", [] { return Outputs{a().quantile(0.25, 1, true)}; }},
    {"a.cummax(1)", "a.cummax(1)", [] { return all(a().cummax(1)); }},
    {"a.aminmax()", "a.aminmax()", [] { return all(a().aminmax()); }},
    {"a.tensor_split(3, 1)", "a.tensor_split(3, 1)", [] { return all(a().tensor_split(3, 1)); }},
    {"a.hsplit(2)", "a.hsplit(2)", [] { return all(a().hsplit(2)); }},
    {"a.vsplit({1})", "a.vsplit(1)", [] { return all(a().vsplit({1})); }},  // int64_t sections, as in libtorch
    {"a.vsplit(std::vector<int64_t>{1})", "a.vsplit([1])", [] { return all(a().vsplit(std::vector<int64_t>{1})); }},
    {"a.heaviside(b)", "a.heaviside(b)", [] { return Outputs{a().heaviside(b())}; }},
    {"a.float_power(2)", "a.float_power(2)", [] { return Outputs{a().float_power(2)}; }},
    {"a.fmax(b)", "a.fmax(b)", [] { return Outputs{a().fmax(b())}; }},
    {"a.logaddexp(b)", "a.logaddexp(b)", [] { return Outputs{a().logaddexp(b())}; }},
    {"a.greater_equal(0.5)", "a.greater_equal(0.5)", [] { return Outputs{a().greater_equal(0.5)}; }},
    {"a.multiply(b)", "a.multiply(b)", [] { return Outputs{a().multiply(b())}; }},
    {"a.subtract(b, 2)", "a.subtract(b, alpha=2)", [] { return Outputs{a().subtract(b(), 2)}; }},
    {"a.cov()", "a.cov()", [] { return Outputs{a().cov()}; }},
    {"a.corrcoef()", "a.corrcoef()", [] { return Outputs{a().corrcoef()}; }},
    {"a.histc(4)", "a.histc(4)", [] { return Outputs{a().histc(4)}; }},
    {"i.bincount()", "i.bincount()", [] { return Outputs{i().bincount()}; }},
    {"a.repeat_interleave(2, 0)", "a.repeat_interleave(2, 0)", [] { return Outputs{a().repeat_interleave(2, 0)}; }},
    {"a.take_along_dim(a.argsort(1), 1)", "a.take_along_dim(a.argsort(1), 1)", [] { return Outputs{a().take_along_dim(a().argsort(1), 1)}; }},
    {"a.kron(b.reshape({2, 2}))", "a.kron(b.reshape(2, 2))", [] { return Outputs{a().kron(b().reshape({2, 2}))}; }},
    {"b.diag_embed()", "b.diag_embed()", [] { return Outputs{b().diag_embed()}; }},
    {"b.diagflat(1)", "b.diagflat(1)", [] { return Outputs{b().diagflat(1)}; }},
    {"p.lgamma()", "p.lgamma()", [] { return Outputs{p().lgamma()}; }},
    {"p.polygamma(1)", "p.polygamma(1)", [] { return Outputs{p().polygamma(1)}; }},
    {"(p + 1).mvlgamma(2)", "(p + 1).mvlgamma(2)", [] { return Outputs{(p() + 1).mvlgamma(2)}; }},
    {"a.masked_scatter(a > 0, src)", "a.masked_scatter(a > 0, src)", [] { return Outputs{a().masked_scatter(a() > 0, src())}; }},
    {"a.index_put({idx}, src.narrow(0, 0, 2))", "a.index_put((idx,), src[:2])", [] { return Outputs{a().index_put({idx()}, src().narrow(0, 0, 2))}; }},
    {"a.unfold(1, 2, 1)", "a.unfold(1, 2, 1)", [] { return Outputs{a().unfold(1, 2, 1)}; }},
    {"a.unfold(0, 2, 2)", "a.unfold(0, 2, 2)", [] { return Outputs{a().unfold(0, 2, 2)}; }},
    {"m.det()", "m.det()", [] { return Outputs{m().det()}; }},
    {"m.inverse()", "m.inverse()", [] { return Outputs{m().inverse()}; }},
    {"m.slogdet()", "m.slogdet()", [] { return all(m().slogdet()); }},
    {"m.matrix_power(2)", "m.matrix_power(2)", [] { return Outputs{m().matrix_power(2)}; }},
    {"m.matrix_exp()", "(m / 4).matrix_exp()", [] { return Outputs{(m() / 4).matrix_exp()}; }},
    // In place, written back (NAME_ forwarding to NAME).
    {"a.cumsum_(1)", "a.clone().cumsum_(1)", [] { Tensor t = a(); t.cumsum_(1); return Outputs{t}; }},
    {"a.addcmul_(a, b, 0.5)", "a.clone().addcmul_(a, b, value=0.5)", [] { Tensor t = a(); t.addcmul_(a(), b(), 0.5); return Outputs{t}; }},
    {"q.logit_(0.1)", "q.clone().logit_(0.1)", [] { Tensor t = q(); t.logit_(0.1); return Outputs{t}; }},
    {"a.deg2rad_()", "a.clone().deg2rad_()", [] { Tensor t = a(); t.deg2rad_(); return Outputs{t}; }},
    {"p.digamma_()", "p.clone().digamma_()", [] { Tensor t = p(); t.digamma_(); return Outputs{t}; }},
    {"p.polygamma_(2)", "p.clone().polygamma_(2)", [] { Tensor t = p(); t.polygamma_(2); return Outputs{t}; }},
    {"a.clip_(-1, 2)", "a.clone().clip_(-1, 2)", [] { Tensor t = a(); t.clip_(-1, 2); return Outputs{t}; }},
    {"a.xlogy_(p)", "a.clone().xlogy_(p)", [] { Tensor t = a(); t.xlogy_(p()); return Outputs{t}; }},
    {"m.addmm_(m, m, 0.5, 2)", "m.clone().addmm_(m, m, beta=0.5, alpha=2)", [] { Tensor t = m(); t.addmm_(m(), m(), 0.5, 2); return Outputs{t}; }},
    // In-place views.
    {"a.t_()", "a.clone().t_()", [] { Tensor t = a(); t.t_(); return Outputs{t}; }},
    {"a.transpose_(0, 1)", "a.clone().transpose_(0, 1)", [] { Tensor t = a(); t.transpose_(0, 1); return Outputs{t}; }},
    {"a.unsqueeze_(1)", "a.clone().unsqueeze_(1)", [] { Tensor t = a(); t.unsqueeze_(1); return Outputs{t}; }},
    {"a.reshape({3, 1, 4}).squeeze_(1)", "a.reshape(3, 1, 4).squeeze_(1)", [] { Tensor t = a().reshape({3, 1, 4}); t.squeeze_(1); return Outputs{t}; }},
    {"a.reshape({1, 3, 1, 4}).squeeze_()", "a.reshape(1, 3, 1, 4).squeeze_()", [] { Tensor t = a().reshape({1, 3, 1, 4}); t.squeeze_(); return Outputs{t}; }},
    {"a.swapaxes_(0, 1)", "a.clone().swapaxes_(0, 1)", [] { Tensor t = a(); t.swapaxes_(0, 1); return Outputs{t}; }},
    {"a.narrow_copy(1, 1, 2)", "a.narrow_copy(1, 1, 2)", [] { return Outputs{a().narrow_copy(1, 1, 2)}; }},
    {"a.resize_as_(b)", "a.clone().resize_as_(b)", [] { Tensor t = a(); t.resize_as_(b()); return Outputs{t}; }},
    {"a.as_strided_({2, 2}, {1, 4}, 1)", "a.clone().as_strided_((2, 2), (1, 4), 1)", [] { Tensor t = a(); t.as_strided_({2, 2}, {1, 4}, 1); return Outputs{t}; }},
  };
  return table;
}
// clang-format on

class TensorMethods : public ::testing::TestWithParam<size_t> {};

TEST_P(TensorMethods, MatchPyTorch) {
  brasa::testing_oracle::expect_row_matches_torch(kPrelude, rows(), GetParam(), 1e-5);
}

std::string row_name(const ::testing::TestParamInfo<size_t>& info) {
  return "row" + std::to_string(info.param);
}

INSTANTIATE_TEST_SUITE_P(Compat, TensorMethods, ::testing::Range<size_t>(0, rows().size()),
                         row_name);

TEST(TensorMethodsErrors, InPlaceResultThatCannotBeCastIsATypeError) {
  // libtorch: "result type Float can't be cast to the desired output type Long".
  Tensor t = torch::arange(5);
  try {
    t.acosh_();
    FAIL() << "acosh_ on a Long tensor wrote a Float result into it";
  } catch (const brasa::TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("acosh_"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Long"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(t.equal(torch::arange(5))) << "the failed op changed the tensor";
}

TEST(TensorMethodsErrors, InPlaceResultOfAnotherShapeIsAnError) {
  Tensor t = torch::zeros({3});
  EXPECT_THROW(t.addcmul_(torch::ones({2, 3}), torch::ones({3})), brasa::ValueError);
}

TEST(TensorMethodsErrors, InPlaceViewOfATensorThatRequiresGradIsRefused) {
  Tensor w = torch::ones({3, 1}, torch::requires_grad());
  EXPECT_THROW(w.squeeze_(), brasa::NotImplementedError);
  EXPECT_THROW(w.t_(), brasa::NotImplementedError);
  EXPECT_EQ(w.sizes().vec(), (std::vector<int64_t>{3, 1})) << "the refused op changed the shape";
}

TEST(TensorMethods, InPlaceViewSharesStorage) {
  Tensor t = torch::arange(6.0).reshape({2, 3});
  const void* data = t.data_ptr();
  t.t_();
  EXPECT_EQ(t.data_ptr(), data);
  EXPECT_EQ(t.sizes().vec(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(t.strides().vec(), (std::vector<int64_t>{1, 3}));
}

TEST(TensorMethods, UnfoldMethodIsDifferentiable) {
  // Windows [0,1], [1,2], [2,3] of 4 elements: the middle two are seen twice.
  Tensor x = torch::arange(4.0).requires_grad_();
  x.unfold(0, 2, 1).sum().backward();
  EXPECT_TRUE(x.grad().equal(torch::tensor({1.0, 2.0, 2.0, 1.0}, torch::kFloat)));
}

TEST(TensorMethods, BracedDimsReachTheCall) {
  // Note [Optional list arguments]: `{1}` given for an optional dims parameter once reached the
  // function as a stale stack value at -O2.
  const Tensor x = a();
  const std::vector<int64_t> one{1};
  EXPECT_TRUE(torch::nansum(x, {1}, true).equal(torch::nansum(x, torch::IntArrayRef(one), true)));
  EXPECT_TRUE(x.nanmean({1}).equal(x.nanmean(torch::IntArrayRef(one))));
  EXPECT_TRUE(torch::var(x, {1}, 0, true).equal(torch::var(x, torch::IntArrayRef(one), 0, true)));
  EXPECT_TRUE(
      torch::linalg::vector_norm(x, 2, {1}, false, std::nullopt)
          .equal(torch::linalg::vector_norm(x, 2, torch::IntArrayRef(one), false, std::nullopt)));
  EXPECT_EQ(torch::nansum(x, {0, 1}).item<float>(), torch::nansum(x).item<float>());
}

TEST(TensorMethods, SetSharesTheSourceStorage) {
  Tensor source = torch::arange(6.0).reshape({2, 3});
  Tensor t = torch::zeros({4});
  t.set_(source.t());
  EXPECT_TRUE(t.is_set_to(source.t()));
  EXPECT_FALSE(t.is_set_to(source));
  EXPECT_TRUE(t.equal(source.t()));
  t.fill_(1);
  EXPECT_TRUE(source.equal(torch::ones({2, 3}))) << "set_ did not share the storage";
  EXPECT_THROW(t.set_(torch::arange(3)), brasa::TypeError);
  EXPECT_FALSE(t.is_distributed());
  EXPECT_TRUE(t.tensor_data().is_set_to(t));
}

TEST(TensorMethods, CauchyAndLogNormalDrawTheirDistributions) {
  // Sample statistics of 40000 draws: the Cauchy median and quartiles (median +- sigma), and the
  // mean and std of log(log-normal draws).
  torch::manual_seed(0);
  Tensor c = torch::empty({40000}, torch::kDouble).cauchy_(1.5, 2.0);
  EXPECT_NEAR(c.median().item<double>(), 1.5, 0.1);
  EXPECT_NEAR(c.quantile(0.75).item<double>(), 3.5, 0.15);
  EXPECT_NEAR(c.quantile(0.25).item<double>(), -0.5, 0.15);
  Tensor l = torch::empty({40000}, torch::kDouble).log_normal_(0.5, 0.25).log();
  EXPECT_NEAR(l.mean().item<double>(), 0.5, 0.01);
  EXPECT_NEAR(l.std().item<double>(), 0.25, 0.01);
  EXPECT_THROW(torch::zeros({3}, torch::kLong).cauchy_(), brasa::TypeError);
  EXPECT_THROW(torch::zeros({3}).log_normal_(1, -1), brasa::ValueError);
}

}  // namespace

// pytorch/examples' custom-dataset writes `batch.data.to(options.device)` with a DeviceType.
TEST(TensorMethods, ToTakesADeviceType) {
  torch::Tensor a = torch::ones({2});
  torch::DeviceType d = torch::kCPU;
  EXPECT_TRUE(a.to(d).equal(a));
  EXPECT_EQ(a.to(d).data_ptr(), a.data_ptr());               // same device: the tensor itself
  EXPECT_NE(a.to(d, false, true).data_ptr(), a.data_ptr());  // copy=true: a new tensor
}
