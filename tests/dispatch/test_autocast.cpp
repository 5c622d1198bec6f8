// CPU autocast against torch.autocast("cpu", dtype=torch.bfloat16) of PyTorch 1.13, op by op:
// the dtype of every output and its values (within bf16 tolerance); then nesting, the cast cache,
// gradients through autocast, and bad input.
#include <ATen/autocast_mode.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/dispatch/autocast_mode.h"
#include "support/torch_oracle.h"

namespace brasa {
namespace {

using testing_oracle::formula;

// Input i of the given shape and dtype; the Python side's `T(shape, i, dtype)` is the same tensor.
Tensor T(IntArrayRef shape, int i, ScalarType dtype = kFloat) {
  return formula(shape, 0.5, 0.23, i).to(dtype);
}

const char* kPythonInputs = R"PY(
import torch.nn.functional as F
def T(shape, i, dtype=torch.float32): return formula(shape, 0.5, 0.23, i).to(dtype)
codes = {torch.float32: 0, torch.bfloat16: 1, torch.float64: 2, torch.complex64: 3}
def out(k, t):
    print(k + '.dtype', codes.get(t.dtype, -1))
    if t.is_complex(): t = torch.view_as_real(t)
    pr(k, t.double())
bf = torch.bfloat16
)PY";

int dtype_code(ScalarType t) {
  switch (t) {
    case kFloat: return 0;
    case kBFloat16: return 1;
    case kDouble: return 2;
    case ScalarType::ComplexFloat: return 3;
    default: return -1;
  }
}

struct Case {
  std::string name;
  std::string python;  // an expression of T(...), evaluated inside torch.autocast
  std::function<Tensor()> brasa;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      // Lower precision.
      {"mm", "torch.mm(T((4, 6), 1), T((6, 5), 2))",
       [] {
         return mm(T({4, 6}, 1), T({6, 5}, 2));
       }},
      {"mm_mixed", "torch.mm(T((4, 6), 1, bf), T((6, 5), 2))",
       [] {
         return mm(T({4, 6}, 1, kBFloat16), T({6, 5}, 2));
       }},
      {"mm_double", "torch.mm(T((4, 6), 1, torch.float64), T((6, 5), 2, torch.float64))",
       [] {
         return mm(T({4, 6}, 1, kDouble), T({6, 5}, 2, kDouble));
       }},
      {"bmm", "torch.bmm(T((2, 4, 6), 1), T((2, 6, 5), 2))",
       [] {
         return bmm(T({2, 4, 6}, 1), T({2, 6, 5}, 2));
       }},
      {"addmm", "torch.addmm(T((5,), 3), T((4, 6), 1), T((6, 5), 2))",
       [] {
         return addmm(T({5}, 3), T({4, 6}, 1), T({6, 5}, 2));
       }},
      {"baddbmm", "torch.baddbmm(T((2, 4, 5), 3), T((2, 4, 6), 1), T((2, 6, 5), 2))",
       [] {
         return baddbmm(T({2, 4, 5}, 3), T({2, 4, 6}, 1), T({2, 6, 5}, 2));
       }},
      {"matmul_3d", "torch.matmul(T((2, 4, 6), 1), T((6, 5), 2))",
       [] {
         return matmul(T({2, 4, 6}, 1), T({6, 5}, 2));
       }},
      {"matmul_dot", "torch.matmul(T((6,), 1), T((6,), 2))",
       [] { return matmul(T({6}, 1), T({6}, 2)); }},
      {"linear_3d", "F.linear(T((2, 3, 6), 1), T((5, 6), 2), T((5,), 3))",
       [] {
         return linear(T({2, 3, 6}, 1), T({5, 6}, 2), T({5}, 3));
       }},
      {"linear_2d", "F.linear(T((3, 6), 1), T((5, 6), 2), T((5,), 3))",
       [] {
         return linear(T({3, 6}, 1), T({5, 6}, 2), T({5}, 3));
       }},
      {"conv1d", "F.conv1d(T((2, 3, 9), 1), T((4, 3, 3), 2), T((4,), 3))",
       [] {
         return conv1d(T({2, 3, 9}, 1), T({4, 3, 3}, 2), T({4}, 3));
       }},
      {"conv2d", "F.conv2d(T((2, 3, 7, 7), 1), T((4, 3, 3, 3), 2), T((4,), 3), padding=1)",
       [] {
         return conv2d(T({2, 3, 7, 7}, 1), T({4, 3, 3, 3}, 2), T({4}, 3), 1, 1);
       }},
      // 1.13 runs transposed convolutions in float32 on CPU, even of bf16 inputs.
      {"conv_transpose2d", "F.conv_transpose2d(T((2, 3, 5, 5), 1, bf), T((3, 4, 3, 3), 2))",
       [] {
         return conv_transpose2d(T({2, 3, 5, 5}, 1, kBFloat16), T({3, 4, 3, 3}, 2));
       }},
      {"sdpa",
       "F._scaled_dot_product_attention(T((2, 4, 8), 1), T((2, 4, 8), 2), T((2, 4, 8), 3))[0]",
       [] {
         return scaled_dot_product_attention(T({2, 4, 8}, 1), T({2, 4, 8}, 2), T({2, 4, 8}, 3));
       }},
      // Float32.
      {"prod", "torch.prod(T((3, 4), 1, bf), 1)",
       [] {
         return prod(T({3, 4}, 1, kBFloat16), 1);
       }},
      {"mse_loss", "F.mse_loss(T((3, 4), 1, bf), T((3, 4), 2, bf))",
       [] {
         return mse_loss(T({3, 4}, 1, kBFloat16), T({3, 4}, 2, kBFloat16));
       }},
      {"l1_loss", "F.l1_loss(T((3, 4), 1, bf), T((3, 4), 2))",
       [] {
         return l1_loss(T({3, 4}, 1, kBFloat16), T({3, 4}, 2));
       }},
      {"cross_entropy", "F.cross_entropy(T((3, 5), 1, bf), torch.tensor([0, 4, 2]))",
       [] {
         return cross_entropy_loss(T({3, 5}, 1, kBFloat16), tensor({0, 4, 2}).to(kLong));
       }},
      {"nll_loss", "F.nll_loss(T((3, 5), 1, bf), torch.tensor([1, 3, 2]))",
       [] {
         return nll_loss(T({3, 5}, 1, kBFloat16), tensor({1, 3, 2}).to(kLong));
       }},
      {"bce_with_logits", "F.binary_cross_entropy_with_logits(T((6,), 1, bf), T((6,), 2).abs())",
       [] { return binary_cross_entropy_with_logits(T({6}, 1, kBFloat16), T({6}, 2).abs()); }},
      {"reflection_pad2d", "F.pad(T((1, 2, 4, 4), 1, bf), (1, 1, 2, 2), mode='reflect')",
       [] {
         return reflection_pad2d(T({1, 2, 4, 4}, 1, kBFloat16), {1, 1, 2, 2});
       }},
      {"replication_pad1d", "F.pad(T((1, 2, 5), 1, bf), (2, 1), mode='replicate')",
       [] {
         return replication_pad1d(T({1, 2, 5}, 1, kBFloat16), {2, 1});
       }},
      {"avg_pool3d", "F.avg_pool3d(T((1, 2, 4, 4, 4), 1, bf), 2)",
       [] {
         return avg_pool3d(T({1, 2, 4, 4, 4}, 1, kBFloat16), {2, 2, 2});
       }},
      {"adaptive_avg_pool3d", "F.adaptive_avg_pool3d(T((1, 2, 4, 4, 4), 1, bf), 2)",
       [] {
         return adaptive_avg_pool3d(T({1, 2, 4, 4, 4}, 1, kBFloat16), {2, 2, 2});
       }},
      {"linalg_inv", "torch.linalg.inv(T((3, 3), 1, bf) + 2 * torch.eye(3).to(bf))",
       [] {
         return linalg_inv(T({3, 3}, 1, kBFloat16) + eye(3).to(kBFloat16) * 2);
       }},
      {"linalg_svdvals", "torch.linalg.svdvals(T((3, 4), 1, bf))",
       [] {
         return linalg_svdvals(T({3, 4}, 1, kBFloat16));
       }},
      {"fft_rfft", "torch.fft.rfft(T((8,), 1, bf))", [] { return fft_rfft(T({8}, 1, kBFloat16)); }},
      {"cdist", "torch.cdist(T((3, 4), 1, bf), T((2, 4), 2, bf))",
       [] {
         return cdist(T({3, 4}, 1, kBFloat16), T({2, 4}, 2, kBFloat16));
       }},
      {"cosine_embedding_loss",
       "F.cosine_embedding_loss(T((3, 4), 1, bf), T((3, 4), 2, bf), torch.tensor([1, -1, 1]))",
       [] {
         return cosine_embedding_loss(T({3, 4}, 1, kBFloat16), T({3, 4}, 2, kBFloat16),
                                      tensor({1, -1, 1}).to(kLong));
       }},
      {"max_pool3d", "F.max_pool3d(T((1, 2, 4, 4, 4), 1, bf), 2)",
       [] {
         return max_pool3d(T({1, 2, 4, 4, 4}, 1, kBFloat16), {2, 2, 2});
       }},
      {"matrix_norm", "torch.linalg.matrix_norm(T((3, 4), 1, bf))",
       [] {
         return linalg_matrix_norm(T({3, 4}, 1, kBFloat16));
       }},
      {"matrix_norm_nuc", "torch.linalg.matrix_norm(T((3, 4), 1, bf), 'nuc')",
       [] {
         return linalg_matrix_norm(T({3, 4}, 1, kBFloat16), "nuc");
       }},
      {"eigvalsh", "torch.linalg.eigvalsh(T((3, 3), 1, bf))",
       [] {
         return std::get<0>(linalg_eigh(T({3, 3}, 1, kBFloat16)));
       }},
      // Promote.
      {"cat_mixed", "torch.cat([T((2, 3), 1, bf), T((2, 3), 2)])",
       [] {
         return cat({T({2, 3}, 1, kBFloat16), T({2, 3}, 2)});
       }},
      {"cat_bf16", "torch.cat([T((2, 3), 1, bf), T((2, 3), 2, bf)])",
       [] {
         return cat({T({2, 3}, 1, kBFloat16), T({2, 3}, 2, kBFloat16)});
       }},
      {"stack_mixed", "torch.stack([T((2, 3), 1), T((2, 3), 2, bf)])",
       [] {
         return stack({T({2, 3}, 1), T({2, 3}, 2, kBFloat16)});
       }},
      {"index_copy_mixed",
       "torch.index_copy(T((4, 3), 1, bf), 0, torch.tensor([2, 0]), T((2, 3), 2))",
       [] {
         return index_copy(T({4, 3}, 1, kBFloat16), 0, tensor({2, 0}).to(kLong), T({2, 3}, 2));
       }},
      // Not on any list: run in the dtypes they get.
      {"softmax_fp32", "torch.softmax(T((3, 4), 1), 1)",
       [] {
         return softmax(T({3, 4}, 1), 1);
       }},
      {"softmax_bf16", "torch.softmax(T((3, 4), 1, bf), 1)",
       [] {
         return softmax(T({3, 4}, 1, kBFloat16), 1);
       }},
      {"layer_norm_fp32", "F.layer_norm(T((3, 4), 1), (4,))",
       [] {
         return nn::functional::layer_norm(T({3, 4}, 1), nn::functional::LayerNormFuncOptions({4}));
       }},
      {"relu_of_mm", "torch.relu(torch.mm(T((4, 6), 1), T((6, 5), 2)))",
       [] {
         return relu(mm(T({4, 6}, 1), T({6, 5}, 2)));
       }},
      {"add_mixed", "T((3,), 1, bf) + T((3,), 2)", [] { return T({3}, 1, kBFloat16) + T({3}, 2); }},
      {"vector_norm_bf16", "torch.linalg.vector_norm(T((3, 4), 1, bf))",
       [] {
         return linalg_vector_norm(T({3, 4}, 1, kBFloat16));
       }},
      {"cosine_similarity_bf16", "F.cosine_similarity(T((3, 4), 1, bf), T((3, 4), 2, bf))",
       [] {
         return nn::functional::cosine_similarity(T({3, 4}, 1, kBFloat16), T({3, 4}, 2, kBFloat16));
       }},
  };
  return c;
}

const std::map<std::string, std::vector<double>>& policy_reference() {
  std::string body = kPythonInputs;
  body += "with torch.autocast('cpu', dtype=torch.bfloat16):\n";
  for (const Case& c : cases()) body += "    out('" + c.name + "', " + c.python + ")\n";
  return testing_oracle::run_python_shared(body);
}

void check_case(const Case& c, const std::map<std::string, std::vector<double>>& ref) {
  SCOPED_TRACE(c.name);
  Tensor r = c.brasa();
  auto it = ref.find(c.name + ".dtype");
  ASSERT_NE(it, ref.end()) << "PyTorch has no result for " << c.name;
  EXPECT_EQ(dtype_code(r.scalar_type()), static_cast<int>(it->second.at(0)))
      << c.name << ": brasa's result is " << r.scalar_type();
  if (r.is_complex()) r = view_as_real(r);
  testing_oracle::expect_close(c.name, r, ref, 2e-2);
}

TEST(Autocast, PolicyMatchesPyTorchOpByOp) {
  const auto& ref = policy_reference();
  AutocastGuard guard(kBFloat16);
  for (const Case& c : cases()) check_case(c, ref);
}

TEST(Autocast, OffOutsideTheRegion) {
  {
    AutocastGuard guard;
    EXPECT_TRUE(autocast::is_cpu_enabled());
    EXPECT_EQ(mm(T({2, 3}, 1), T({3, 2}, 2)).scalar_type(), kBFloat16);
  }
  EXPECT_FALSE(autocast::is_cpu_enabled());
  EXPECT_EQ(mm(T({2, 3}, 1), T({3, 2}, 2)).scalar_type(), kFloat);
}

TEST(Autocast, IsPerThread) {
  AutocastGuard guard;
  ScalarType other = kBFloat16;
  std::thread t([&] { other = mm(T({2, 3}, 1), T({3, 2}, 2)).scalar_type(); });
  t.join();
  EXPECT_EQ(other, kFloat) << "autocast of this thread leaked into another";
  EXPECT_EQ(mm(T({2, 3}, 1), T({3, 2}, 2)).scalar_type(), kBFloat16);
}

TEST(Autocast, UnderNoGrad) {
  AutocastGuard guard;
  NoGradGuard no_grad;
  Tensor w = T({5, 6}, 2).requires_grad_();
  Tensor y = linear(T({3, 6}, 1), w);
  EXPECT_EQ(y.scalar_type(), kBFloat16);
  EXPECT_FALSE(y.requires_grad());
}

TEST(Autocast, LibtorchSwitches) {
  at::autocast::set_cpu_enabled(true);
  at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
  EXPECT_TRUE(at::autocast::is_cpu_enabled());
  EXPECT_EQ(at::autocast::get_autocast_cpu_dtype(), at::kBFloat16);
  EXPECT_EQ(at::autocast::increment_nesting(), 1);
  EXPECT_EQ(at::matmul(T({2, 3}, 1), T({3, 2}, 2)).scalar_type(), kBFloat16);
  EXPECT_EQ(at::autocast::decrement_nesting(), 0);
  at::autocast::clear_cache();
  at::autocast::set_cpu_enabled(false);
  EXPECT_EQ(at::matmul(T({2, 3}, 1), T({3, 2}, 2)).scalar_type(), kFloat);
}

TEST(Autocast, NestedRegions) {
  AutocastGuard outer;
  {
    AutocastGuard off(kBFloat16, /*enabled=*/false);
    EXPECT_FALSE(autocast::is_cpu_enabled());
    EXPECT_EQ(mm(T({2, 3}, 1), T({3, 2}, 2)).scalar_type(), kFloat);
    {
      AutocastGuard on_again;
      EXPECT_EQ(mm(T({2, 3}, 1), T({3, 2}, 2)).scalar_type(), kBFloat16);
    }
    EXPECT_FALSE(autocast::is_cpu_enabled());
  }
  EXPECT_TRUE(autocast::is_cpu_enabled());
  EXPECT_EQ(mm(T({2, 3}, 1), T({3, 2}, 2)).scalar_type(), kBFloat16);
}

TEST(Autocast, WeightCastsAreCachedUntilTheOutermostRegionEnds) {
  Tensor w = T({5, 6}, 2).requires_grad_();
  Tensor not_leaf = T({5, 6}, 3).requires_grad_() * 2;
  Tensor no_grad = T({5, 6}, 4);
  {
    AutocastGuard outer;
    {
      AutocastGuard inner;
      linear(T({3, 6}, 1), w);
      EXPECT_EQ(autocast::cache_size(), 1u);
    }
    EXPECT_EQ(autocast::cache_size(), 1u) << "an inner region's end keeps the cache";
    linear(T({3, 6}, 1), w);
    linear(T({3, 6}, 1), w);
    EXPECT_EQ(autocast::cache_size(), 1u) << "one cast of w, reused";
    linear(T({3, 6}, 1), not_leaf);
    linear(T({3, 6}, 1), no_grad);
    EXPECT_EQ(autocast::cache_size(), 1u) << "only leaves that require grad are cached";
  }
  EXPECT_EQ(autocast::cache_size(), 0u);
  {
    AutocastGuard no_cache(kBFloat16, true, /*cache_enabled=*/false);
    linear(T({3, 6}, 1), w);
    EXPECT_EQ(autocast::cache_size(), 0u);
  }
}

TEST(Autocast, GradientsMatchPyTorch) {
  const auto& ref = testing_oracle::run_python_shared(std::string(kPythonInputs) + R"PY(
x = T((4, 6), 1).requires_grad_()
w = T((5, 6), 2).requires_grad_()
b = T((5,), 3).requires_grad_()
with torch.autocast('cpu', dtype=torch.bfloat16):
    h = F.linear(x, w, b)
    y = F.linear(torch.relu(h), w[:, :5].t().contiguous())
    loss = F.mse_loss(y, T((4, 5), 4))
out('loss', loss)
out('h', h)
loss.backward()
out('gx', x.grad)
out('gw', w.grad)
out('gb', b.grad)
)PY");
  Tensor x = T({4, 6}, 1).requires_grad_(), w = T({5, 6}, 2).requires_grad_(),
         b = T({5}, 3).requires_grad_();
  Tensor loss, h;
  {
    AutocastGuard guard;
    h = linear(x, w, b);
    Tensor y = linear(relu(h), w.slice(1, 0, 5).t().contiguous());
    loss = mse_loss(y, T({4, 5}, 4));
  }
  loss.backward();
  const std::vector<std::pair<std::string, Tensor>> got = {
      {"loss", loss}, {"h", h}, {"gx", x.grad()}, {"gw", w.grad()}, {"gb", b.grad()}};
  for (const auto& [k, t] : got) {
    SCOPED_TRACE(k);
    EXPECT_EQ(dtype_code(t.scalar_type()), static_cast<int>(ref.at(k + ".dtype").at(0)));
    testing_oracle::expect_close(k, t, ref, 3e-2);
  }
}

TEST(Autocast, UnsupportedDtypeIsAnError) {
  try {
    AutocastGuard guard(kHalf);
    FAIL() << "AutocastGuard(Half) did not throw";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("BFloat16"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Half"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(autocast::is_cpu_enabled()) << "a refused region leaves autocast off";
  EXPECT_THROW(autocast::set_autocast_cpu_dtype(kFloat), ValueError);
  EXPECT_EQ(autocast::get_autocast_cpu_dtype(), kBFloat16);
  AutocastGuard disabled(kHalf, /*enabled=*/false);  // a disabled region takes any dtype
  EXPECT_FALSE(autocast::is_cpu_enabled());
}

TEST(Autocast, BadOperandsStillNameTheOp) {
  AutocastGuard guard;
  try {
    mm(T({2, 3}, 1), T({4, 2}, 2));
    FAIL() << "mm of mismatched shapes did not throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("mm"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace brasa
