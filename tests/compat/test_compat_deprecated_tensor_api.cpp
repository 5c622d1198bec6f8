// libtorch 1.13's deprecated Tensor::data<T>() and Tensor::type() (Note [Deprecated tensor API]):
// older programs still call them; values as libtorch 1.13 gives them.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace {

TEST(CompatDeprecatedTensorApi, DataIsDataPtr) {
  auto t = torch::arange(4, torch::kFloat);
  EXPECT_EQ(t.data<float>(), t.data_ptr<float>());
  EXPECT_EQ(*(t.data<float>() + 3), 3.0f);
  EXPECT_THROW(t.data<double>(), c10::Error);  // the wrong element type, as data_ptr<T>()
}

TEST(CompatDeprecatedTensorApi, TypeIsTheBackendAndDtype) {
  auto f = torch::ones({2}, torch::kFloat);
  auto& ty = f.type();
  EXPECT_EQ(ty.scalarType(), torch::kFloat);
  EXPECT_EQ(ty.backend(), c10::Backend::CPU);
  EXPECT_EQ(ty.toString(), "CPUFloatType");
  EXPECT_EQ(torch::ones({1}, torch::kLong).type().toString(), "CPULongType");
  EXPECT_FALSE(ty.is_cuda());
  EXPECT_FALSE(ty.is_sparse());
  EXPECT_EQ(ty.device_type(), torch::kCPU);
  EXPECT_TRUE(f.type() == torch::zeros({3}).type());
  EXPECT_TRUE(f.type() != f.to(torch::kDouble).type());
  EXPECT_EQ(&ty, &f.type());  // a reference to one table entry, as libtorch's registry gives
  EXPECT_EQ(ty.toScalarType(torch::kHalf).toString(), "CPUHalfType");
  at::TensorOptions opts = ty.options();
  EXPECT_EQ(opts.dtype(), torch::kFloat);
  EXPECT_EQ(torch::empty({1}, ty.toScalarType(torch::kInt).options()).dtype(), torch::kInt);
}

}  // namespace

#pragma GCC diagnostic pop
