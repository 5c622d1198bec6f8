// libtorch spellings of complex tensors and torch::fft: this file compiles as it would against
// libtorch 1.13 (the same calls were compiled against Debian's libtorch and printed the values
// asserted here).
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <complex>

namespace {

TEST(CompatComplex, Spellings) {
  c10::complex<float> z(1, 2);
  EXPECT_FLOAT_EQ(std::abs(c10::complex<float>(3, 4)), 5);
  EXPECT_EQ(std::conj(z), c10::complex<float>(1, -2));
  torch::Tensor t = torch::tensor({z, c10::complex<float>(0, -1)});
  EXPECT_EQ(t.scalar_type(), torch::kComplexFloat);
  EXPECT_EQ(t.dtype(), at::kCFloat);
  EXPECT_TRUE(t.is_complex());
  EXPECT_TRUE(c10::isComplexType(t.scalar_type()));
  EXPECT_EQ(c10::toRealValueType(torch::kComplexDouble), torch::kDouble);
  EXPECT_EQ((t * z)[0].item<c10::complex<float>>(), c10::complex<float>(-3, 4));
  torch::Tensor parts = torch::view_as_real(t);
  EXPECT_EQ(parts.sizes(), torch::IntArrayRef({2, 2}));
  torch::Tensor back = torch::complex(t.real(), t.imag());
  EXPECT_TRUE(torch::equal(back, t));
  EXPECT_TRUE(at::complex(t.real(), t.imag()).equal(t));
  torch::Tensor d = torch::zeros({2}, torch::dtype(torch::kComplexDouble));
  EXPECT_EQ(d.element_size(), 16);
  EXPECT_EQ(torch::randn({3}, torch::kComplexDouble).dtype(), torch::kComplexDouble);
}

TEST(CompatComplex, Fft) {
  torch::Tensor x = torch::arange(8, torch::kDouble);
  torch::Tensor X = torch::fft::rfft(x);
  EXPECT_EQ(X.sizes(), torch::IntArrayRef({5}));
  EXPECT_EQ(X.dtype(), torch::kComplexDouble);
  EXPECT_EQ(X[0].item<c10::complex<double>>(), c10::complex<double>(28, 0));
  EXPECT_TRUE(torch::allclose(torch::fft::irfft(X, 8), x));
  torch::Tensor F = torch::fft::fftn(torch::ones({2, 3}), c10::nullopt, c10::nullopt, "ortho");
  EXPECT_NEAR(F[0][0].item<c10::complex<float>>().real(), std::sqrt(6.0), 1e-5);
  EXPECT_EQ(at::fft_fft2(torch::ones({2, 3})).sizes(), torch::IntArrayRef({2, 3}));
  EXPECT_EQ(torch::fft::fftshift(torch::fft::fftfreq(4))[0].item<float>(), -0.5f);
  EXPECT_EQ(torch::fft::rfftfreq(8, torch::kDouble).size(0), 5);
}

}  // namespace
