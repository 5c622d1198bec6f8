// A program that reopens torch::nn (libtorch's any.cpp adds a helper there) defines
// BRASA_REOPENABLE_TORCH_NN before its first include (Note [libtorch namespaces]); compiled on its
// own, outside the unity batches, because the macro changes what the headers declare.
#define BRASA_REOPENABLE_TORCH_NN

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <utility>
#include <vector>

// The helper must land in the namespace the rest of the program calls torch::nn, see AnyValue
// unqualified, and leave torch::nn::Linear and friends reachable afterwards.
namespace torch {
namespace nn {
template <typename T>
AnyValue brasa_test_make_value(T&& value) {
  return AnyValue(std::forward<T>(value));
}
}  // namespace nn
}  // namespace torch

namespace {

TEST(LibtorchApiSurface, ReopenedTorchNnExtendsBrasaNn) {
  auto value = torch::nn::brasa_test_make_value<int>(5);
  ASSERT_NE(value.try_get<int>(), nullptr);
  EXPECT_EQ(value.get<int>(), 5);
  torch::nn::Linear linear(2, 3);
  EXPECT_EQ(linear->weight.sizes(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(torch::nn::functional::relu(torch::tensor({-1.0})).item<double>(), 0.0);
}

}  // namespace
