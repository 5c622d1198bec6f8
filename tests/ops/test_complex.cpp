// Complex dtypes beyond what the conformance family (tests/conformance/cases_complex.py) compares:
// the complex<T> element type, Scalar, item(), printing, view geometry, randn, warnings, typed
// errors for kernels without complex support, autograd through real losses, and the FFT
// primitives' adjoints against finite differences. Expected values were checked with PyTorch 1.13.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "brasa/brasa.h"

using namespace brasa;

namespace {

using cf = complex<float>;
using cd = complex<double>;

Tensor view_as_real_or_self(const Tensor& t) { return t.is_complex() ? view_as_real(t) : t; }

TEST(Complex, ElementType) {
  cf z(1, 2);
  EXPECT_EQ(z.real(), 1);
  EXPECT_EQ(z.imag(), 2);
  z.imag(-3);
  EXPECT_EQ(z, cf(1, -3));
  EXPECT_EQ(cd(1, 2) * cd(3, -4), cd(11, 2));
  const cd q = cd(1, 2) / cd(3, -4);  // (-0.2, 0.4)
  EXPECT_NEAR(q.real(), -0.2, 1e-15);
  EXPECT_NEAR(q.imag(), 0.4, 1e-15);
  EXPECT_EQ(cd(1, 2) + 1.0, cd(2, 2));
  EXPECT_DOUBLE_EQ(std::abs(cd(3, 4)), 5);
  EXPECT_DOUBLE_EQ(std::arg(cd(0, 1)), M_PI / 2);
  EXPECT_EQ(std::conj(cd(1, 2)), cd(1, -2));
  EXPECT_DOUBLE_EQ(std::norm(cd(3, 4)), 25);
  EXPECT_EQ(sizeof(cf), 8u);
  EXPECT_EQ(alignof(cd), 16u);
  std::ostringstream os;
  os << cd(1.5, -2);
  EXPECT_EQ(os.str(), "(1.5,-2)");
}

TEST(Complex, Dtypes) {
  EXPECT_EQ(element_size(kComplexFloat), 8u);
  EXPECT_EQ(element_size(kComplexDouble), 16u);
  EXPECT_STREQ(to_string(kCFloat), "ComplexFloat");
  EXPECT_TRUE(is_complex_type(kComplexDouble));
  EXPECT_FALSE(is_floating_type(kComplexDouble));
  EXPECT_EQ(int(kComplexFloat), 9);
  EXPECT_EQ(int(kComplexDouble), 10);
  // PyTorch 1.13: float64 with complex64 is complex128; a lower-priority complex keeps the
  // floating tensor's precision.
  EXPECT_EQ(promote_types(kDouble, kComplexFloat), kComplexDouble);
  EXPECT_EQ(promote_types(kHalf, kComplexFloat), kComplexFloat);
  Tensor f = zeros({2}), z0 = zeros({}, TensorOptions(kComplexDouble));
  EXPECT_EQ(result_type(f, z0), kComplexFloat);
  EXPECT_EQ(result_type(f, Scalar(cd(0, 1))), kComplexFloat);
  EXPECT_EQ(result_type(zeros({2}, TensorOptions(kLong)), Scalar(cd(0, 1))), kComplexFloat);
  EXPECT_FALSE(can_cast(kComplexFloat, kDouble));
  EXPECT_TRUE(can_cast(kDouble, kComplexFloat));
}

TEST(Complex, ScalarAndItem) {
  Scalar s(cf(1, 2));
  EXPECT_TRUE(s.isComplex());
  EXPECT_EQ(s.type(), kComplexDouble);
  EXPECT_EQ(s.toComplexDouble(), cd(1, 2));
  EXPECT_EQ((-s).toComplexDouble(), cd(-1, -2));
  EXPECT_EQ(s.conj().toComplexDouble(), cd(1, -2));
  Tensor t = full({2, 2}, s);
  EXPECT_EQ(t.dtype(), kComplexFloat);  // the default dtype's complex type, like PyTorch
  EXPECT_EQ(t[1][0].item<cf>(), cf(1, 2));
  Tensor u = tensor({cd(1, -1), cd(0.5, 2)});
  EXPECT_EQ(u.dtype(), kComplexDouble);
  EXPECT_EQ(u[1].item<cd>(), cd(0.5, 2));
  EXPECT_EQ(u.sum().item<cd>(), cd(1.5, 1));
  EXPECT_EQ(u.data_ptr<cd>()[0], cd(1, -1));
  std::ostringstream os;
  os << u[0].item();
  EXPECT_EQ(os.str(), "(1,-1)");
  EXPECT_THROW(tensor({cf(1, 2)}, TensorOptions(kFloat)), TypeError);
}

// libtorch 1.13 prints the real parts of a complex tensor (it converts to Double for printing).
TEST(Complex, PrintsLikeLibtorch) {
  Tensor t = tensor({cf(1.5, 9), cf(-2, 1), cf(3.25, 0)});
  std::ostringstream os;
  os << t;
  EXPECT_EQ(os.str(), " 1.5000\n-2.0000\n 3.2500\n[ CPUComplexFloatType{3} ]");
}

TEST(Complex, ConversionsWarnOnceWhenDroppingImag) {
  std::vector<std::string> warnings;
  auto previous = set_warning_handler([&](const std::string& m) { warnings.push_back(m); });
  Tensor z = tensor({cd(1.5, 2), cd(-3, 4)});
  Tensor r = z.to(kFloat);
  set_warning_handler(previous);
  EXPECT_EQ(r.dtype(), kFloat);
  EXPECT_FLOAT_EQ(r[1].item<float>(), -3);
  // once per process: another test may have triggered it already
  EXPECT_LE(warnings.size(), 1u);
  Tensor back = r.to(kComplexDouble);
  EXPECT_EQ(back[0].item<cd>(), cd(1.5, 0));
  EXPECT_TRUE(z.to(kBool)[0].item<bool>());
}

TEST(Complex, ViewsShareStorage) {
  Tensor z = tensor({cf(1, 2), cf(3, 4), cf(5, 6)});
  Tensor r = view_as_real(z);
  EXPECT_EQ(r.dtype(), kFloat);
  EXPECT_EQ(r.sizes(), IntArrayRef({3, 2}));
  EXPECT_EQ(r.strides(), IntArrayRef({2, 1}));
  Tensor im = z.slice(0, 1, 3).imag();
  EXPECT_EQ(im.storage_offset(), 3);
  EXPECT_EQ(im.strides(), IntArrayRef({2}));
  im.fill_(-1);
  EXPECT_EQ(z[2].item<cf>(), cf(5, -1));
  z.real().mul_(10);
  EXPECT_EQ(z[0].item<cf>(), cf(10, 2));
  Tensor base = arange(24, TensorOptions(kDouble)).reshape({4, 6});
  Tensor c = view_as_complex(base.slice(0, 0, 4, 2).reshape({2, 3, 2}));
  EXPECT_EQ(c.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(c[1][2].item<cd>(), cd(16, 17));
  EXPECT_THROW(view_as_complex(base.t()), ValueError);  // last stride 4
  EXPECT_THROW(view_as_real(base), TypeError);
  EXPECT_THROW(z.real().imag(), TypeError);
  Tensor m = view_as_real(empty({2}, TensorOptions(kComplexFloat).device(Device(kMeta))));
  EXPECT_EQ(m.sizes(), IntArrayRef({2, 2}));
}

// PyTorch draws a complex randn as the interleaved (real, imag) pairs of a real randn scaled by
// sqrt(1/2): torch.randn(3, dtype=cfloat) is torch.randn(6) / sqrt(2) for the same seed. brasa's
// generator is Philox, not PyTorch's stream, so the check is that relation, not PyTorch's numbers.
TEST(Complex, RandnIsScaledRealPairs) {
  Generator g1 = make_generator(11), g2 = make_generator(11);
  Tensor z = randn({3}, g1, TensorOptions(kComplexFloat));
  Tensor r = randn({6}, g2, TensorOptions(kFloat)) * std::sqrt(0.5);
  EXPECT_TRUE(allclose(view_as_real(z).reshape({6}), r, 1e-6, 1e-7));
  Tensor big = randn({20000}, TensorOptions(kComplexDouble));
  EXPECT_NEAR(big.abs().pow(2).mean().item<double>(), 1.0, 0.05);
  EXPECT_NEAR(big.imag().std().item<double>(), std::sqrt(0.5), 0.02);
}

TEST(Complex, UnsupportedKernelsRaiseTypedErrors) {
  Tensor z = tensor({cf(1, 2)});
  EXPECT_THROW(z.exp(), TypeError);
  EXPECT_THROW(z.lt(z), TypeError);
  EXPECT_THROW(z.floor(), TypeError);
  EXPECT_THROW(z.abs_(), TypeError);  // the result would be real
  EXPECT_THROW(z.max(), TypeError);
  try {
    z.sigmoid();
    FAIL();
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("ComplexFloat"), std::string::npos) << e.what();
  }
}

// Gradients through real losses, compared with PyTorch 1.13's (conjugate Wirtinger convention):
// z = [1+2j, -0.5+1j], w = [2-1j, 0.5+0.5j]; loss = (z * w).abs().sum() + (z / w).real().sum()
// + (z.conj() * z).imag().sum() + z.angle().sum().
TEST(Complex, GradientsThroughRealLosses) {
  Tensor z = tensor({cd(1, 2), cd(-0.5, 1)}).requires_grad_();
  Tensor w = tensor({cd(2, -1), cd(0.5, 0.5)}).requires_grad_();
  Tensor loss =
      (z * w).abs().sum() + (z / w).real().sum() + (z.conj() * z).imag().sum() + z.angle().sum();
  loss.backward();
  // torch: z.grad = [1+2j, -0.1162277660+1.2324555320j],
  //        w.grad = [2.2-0.6j, -1.2094305850+1.7905694150j]
  const cd gz[] = {cd(1, 2), cd(-0.1162277660, 1.2324555320)};
  const cd gw[] = {cd(2.2, -0.6), cd(-1.2094305850, 1.7905694150)};
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(z.grad()[i].item<cd>().real(), gz[i].real(), 1e-6);
    EXPECT_NEAR(z.grad()[i].item<cd>().imag(), gz[i].imag(), 1e-6);
    EXPECT_NEAR(w.grad()[i].item<cd>().real(), gw[i].real(), 1e-6);
    EXPECT_NEAR(w.grad()[i].item<cd>().imag(), gw[i].imag(), 1e-6);
  }
  EXPECT_THROW(z.sum().backward(), TypeError);  // complex scalar: no implicit grad
}

// A real tensor that meets a complex one gets the real part of its complex gradient.
TEST(Complex, RealInputOfComplexOpGetsRealGradient) {
  Tensor x = tensor({1.0, -2.0}, TensorOptions(kDouble)).requires_grad_();
  Tensor y = (x * Scalar(cd(0, 1)) + 1).abs().sum();
  y.backward();
  EXPECT_EQ(x.grad().dtype(), kDouble);
  // d/dx |1 + i x| = x / sqrt(1 + x^2)
  EXPECT_NEAR(x.grad()[0].item<double>(), 1 / std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(x.grad()[1].item<double>(), -2 / std::sqrt(5.0), 1e-12);
}

// The FFT derivatives (Note [FFT adjoints]) against central differences of a real loss.
double loss_of(const Tensor& x, const std::function<Tensor(const Tensor&)>& f,
               const Tensor& probe) {
  NoGradGuard guard;
  return real(f(x) * probe).sum().item<double>() +
         (f(x).is_complex() ? imag(f(x) * probe).sum().item<double>() : 0.0);
}

void check_fft_grad(const Tensor& x0, const std::function<Tensor(const Tensor&)>& f) {
  Tensor probe;
  {
    NoGradGuard guard;
    Tensor y = f(x0);
    Generator gen = make_generator(7);
    probe = randn(y.sizes(), gen, TensorOptions(y.dtype()));
  }
  Tensor x = x0.clone().requires_grad_();
  Tensor y = f(x);
  Tensor l = real(y * probe).sum() +
             (y.is_complex() ? imag(y * probe).sum() : zeros({}, TensorOptions(kDouble)));
  l.backward();
  Tensor g = x.grad();
  Tensor flat = view_as_real_or_self(x0);
  const double h = 1e-6;
  for (int64_t i = 0; i < flat.numel(); ++i) {
    Tensor xp = x0.clone(), xm = x0.clone();
    view_as_real_or_self(xp).view({-1})[i].add_(h);
    view_as_real_or_self(xm).view({-1})[i].sub_(h);
    const double fd = (loss_of(xp, f, probe) - loss_of(xm, f, probe)) / (2 * h);
    const double an = view_as_real_or_self(g).reshape({-1})[i].item<double>();
    EXPECT_NEAR(an, fd, 1e-6) << "element " << i;
  }
}

TEST(Fft, AdjointsMatchFiniteDifferences) {
  Generator gen = make_generator(3);
  Tensor c = randn({3, 5}, gen, TensorOptions(kComplexDouble));
  Tensor r = randn({3, 6}, gen, TensorOptions(kDouble));
  Tensor r_odd = randn({2, 7}, gen, TensorOptions(kDouble));
  check_fft_grad(c, [](const Tensor& x) { return fft::fft(x, std::nullopt, -1, "ortho"); });
  check_fft_grad(c, [](const Tensor& x) { return fft::ifftn(x, IntArrayRef({4, 6})); });
  check_fft_grad(r, [](const Tensor& x) { return fft::rfft(x); });
  check_fft_grad(r_odd, [](const Tensor& x) {
    return fft::rfft2(x, std::nullopt, {-2, -1}, "forward");
  });
  check_fft_grad(c, [](const Tensor& x) { return fft::irfft(x); });     // n = 8, even
  check_fft_grad(c, [](const Tensor& x) { return fft::irfft(x, 9); });  // odd, padded
  check_fft_grad(c, [](const Tensor& x) { return fft::irfftn(x, IntArrayRef({4, 7})); });
}

TEST(Fft, RoundTripsAndFrequencies) {
  Generator gen = make_generator(5);
  Tensor x = randn({4, 10}, gen, TensorOptions(kDouble));
  EXPECT_TRUE(allclose(fft::irfft(fft::rfft(x), 10), x, 1e-12, 1e-12));
  EXPECT_TRUE(allclose(real(fft::ifft(fft::fft(x))), x, 1e-12, 1e-12));
  Tensor f = fft::fftfreq(5, 0.5);
  EXPECT_EQ(f.dtype(), kFloat);
  EXPECT_FLOAT_EQ(f[2].item<float>(), 0.8f);
  EXPECT_FLOAT_EQ(f[3].item<float>(), -0.8f);
  EXPECT_THROW(fft::rfft(x.to(kComplexDouble)), TypeError);
  EXPECT_THROW(fft::fft(x, std::nullopt, -1, "bogus"), ValueError);
  Tensor m = fft::rfft(empty({4, 10}, TensorOptions(kDouble).device(Device(kMeta))));
  EXPECT_EQ(m.sizes(), IntArrayRef({4, 6}));
  EXPECT_EQ(m.dtype(), kComplexDouble);
}

}  // namespace
