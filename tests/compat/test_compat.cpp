// A libtorch-style program fragment, written as it would be against libtorch, must compile against
// the compat headers and behave the same (expected values from PyTorch 1.13).
#include <ATen/ATen.h>
#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/Exception.h>
#include <c10/util/Optional.h>
#include <c10/util/irange.h>
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <type_traits>
#include <vector>

namespace {

// A typical user helper: libtorch spellings only.
torch::Tensor scaled_sum(const torch::Tensor& a, const torch::Tensor& b,
                         c10::optional<double> scale = c10::nullopt) {
  TORCH_CHECK(a.dim() >= b.dim(), "scaled_sum: rank mismatch ", a.dim(), " vs ", b.dim());
  auto out = a + b;
  if (scale) out = out * *scale;
  return out;
}

int64_t numel_of(c10::IntArrayRef sizes) {
  int64_t n = 1;
  for (auto i : c10::irange(sizes.size())) n *= sizes[i];
  return n;
}

template <typename scalar_t>
double sum_as_double(const at::Tensor& t) {
  auto c = t.contiguous();
  const scalar_t* p = c.data_ptr<scalar_t>();
  double s = 0;
  for (int64_t i = 0; i < c.numel(); ++i) s += static_cast<double>(p[i]);
  return s;
}

}  // namespace

TEST(Compat, NamespacesNameTheSameTypes) {
  static_assert(std::is_same_v<torch::Tensor, at::Tensor>);
  static_assert(std::is_same_v<at::Tensor, brasa::Tensor>);
  static_assert(std::is_same_v<c10::ScalarType, torch::Dtype>);
  static_assert(std::is_same_v<c10::IntArrayRef, at::IntArrayRef>);
  static_assert(std::is_same_v<c10::optional<int>, std::optional<int>>);
  static_assert(std::is_same_v<c10::Error, brasa::Error>);
  static_assert(std::is_same_v<torch::TensorOptions, c10::TensorOptions>);
  static_assert(torch::kFloat32 == at::kFloat && torch::kF32 == c10::ScalarType::Float);
  static_assert(torch::kI64 == torch::kLong && torch::kU8 == at::kByte);
  EXPECT_EQ(torch::Device(torch::kCPU), c10::Device("cpu"));
}

TEST(Compat, LibtorchStyleProgramRuns) {
  torch::manual_seed(0);
  auto opts = torch::TensorOptions().dtype(torch::kFloat32).device(torch::kCPU);
  torch::Tensor a = torch::ones({2, 3}, opts);
  torch::Tensor b = torch::full({3}, 2.5, torch::dtype(torch::kFloat64));
  at::Tensor c = scaled_sum(a, b, 2.0);  // torch: float + double -> double
  EXPECT_EQ(c.scalar_type(), torch::kDouble);
  EXPECT_EQ(c.sizes(), c10::IntArrayRef({2, 3}));
  EXPECT_EQ(numel_of(c.sizes()), 6);
  EXPECT_DOUBLE_EQ(c.data_ptr<double>()[5], 7.0);

  double total = AT_DISPATCH_FLOATING_TYPES(c.scalar_type(), "sum_as_double",
                                            [&] { return sum_as_double<scalar_t>(c); });
  EXPECT_DOUBLE_EQ(total, 42.0);
  auto z = torch::zeros({4}, at::kInt);
  EXPECT_EQ(z.scalar_type(), c10::kInt);
  EXPECT_EQ(c10::toString(z.scalar_type()), std::string("Int"));
  EXPECT_EQ(c10::elementSize(torch::kF16), 2u);
  EXPECT_TRUE(c10::isFloatingType(torch::kBFloat16));
  EXPECT_FALSE(torch::cuda::is_available());
}

TEST(Compat, DispatchMacros) {
  auto t = torch::ones({3}, torch::kInt16);
  double s =
      AT_DISPATCH_ALL_TYPES(t.scalar_type(), "s", [&] { return sum_as_double<scalar_t>(t); });
  EXPECT_DOUBLE_EQ(s, 3.0);
  auto h = torch::ones({2}, torch::kHalf);
  EXPECT_DOUBLE_EQ(AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, h.scalar_type(), "h",
                                                   [&] { return sum_as_double<scalar_t>(h); }),
                   2.0);
  // libtorch: AT_DISPATCH_FLOATING_TYPES has no Int case -> c10::Error naming the dispatch and
  // dtype.
  try {
    AT_DISPATCH_FLOATING_TYPES(t.scalar_type(), "my_kernel", [&] { (void)sizeof(scalar_t); });
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_NE(std::string(e.what()).find("\"my_kernel\" not implemented for 'Short'"),
              std::string::npos)
        << e.what();
  }
}

TEST(Compat, ChecksThrowCatchableC10Errors) {
  auto a = torch::ones({2});
  auto b = torch::ones({2, 2});
  try {
    scaled_sum(a, b);
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what()), "scaled_sum: rank mismatch 1 vs 2");
  }
  EXPECT_THROW(TORCH_CHECK(1 + 1 == 3), c10::Error);
  try {
    TORCH_CHECK(a.dim() == 5);
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what()), "Expected a.dim() == 5 to be true, but got false.");
  }
  EXPECT_THROW(TORCH_CHECK_INDEX(false, "i"), c10::IndexError);
  EXPECT_THROW(TORCH_CHECK_TYPE(false, "t"), c10::TypeError);
  EXPECT_THROW(TORCH_CHECK_VALUE(false, "v"), c10::ValueError);
  EXPECT_THROW(TORCH_CHECK_NOT_IMPLEMENTED(false, "n"), c10::NotImplementedError);
  EXPECT_THROW(AT_ERROR("boom ", 1), c10::Error);
  EXPECT_NO_THROW(TORCH_CHECK(true, "never built"));
}

TEST(Compat, IrangeAndParallelFor) {
  std::vector<int> seen;
  for (auto i : c10::irange(2, 5)) seen.push_back(i);
  EXPECT_EQ(seen, (std::vector<int>{2, 3, 4}));
  int count = 0;
  for (auto i : c10::irange(-3)) count += static_cast<int>(i) + 1;
  EXPECT_EQ(count, 0);

  std::vector<int64_t> out(1000, 0);
  at::parallel_for(0, 1000, 16, [&](int64_t begin, int64_t end) {
    for (auto i : c10::irange(begin, end)) out[i] = i * 2;
  });
  for (auto i : c10::irange(out.size())) ASSERT_EQ(out[i], static_cast<int64_t>(i) * 2);
  EXPECT_GE(at::get_num_threads(), 1);
}
