// Relu's gradient folded into the max-pool backward (Note [Relu gradient in the max-pool backward]
// in src/ops/pool/max_pool.cpp): the fused scatter equals threshold_backward of the pool's
// backward bit for bit, and a compiled relu -> max_pool's backward runs no threshold_backward.
#include <limits>

#include "brasa/profiler/profiler.h"
#include "compile/compile_test_util.h"
#include "ops/pool/pool_ops.h"

namespace brasa::compile_test {
namespace {

using PoolRelu = CompileTest;

// Zeros of both signs, negatives and a NaN among the relu's inputs.
Tensor activations(IntArrayRef shape, ScalarType dt) {
  Tensor x = randn(shape, TensorOptions().dtype(dt));
  Tensor flat = x.view({-1});
  flat.index_put_({indexing::Slice(0, 7)}, 0.0);
  flat.index_put_({indexing::Slice(7, 11)}, -0.0);
  flat.index_put_({13}, std::numeric_limits<double>::quiet_NaN());
  return x;
}

// The same bits (NaN included, which `equal` does not take for equal).
bool same_bits(const Tensor& a, const Tensor& b) {
  const Tensor x = a.contiguous(), y = b.contiguous();
  return x.sizes() == y.sizes() && x.scalar_type() == y.scalar_type() &&
         std::memcmp(x.data_ptr(), y.data_ptr(), x.nbytes()) == 0;
}

// relu's gradient as the op computes it (threshold_backward through the dispatcher).
Tensor threshold_backward(const Tensor& g, const Tensor& y) {
  Stack s{g, y, Scalar(1), Tensor()};
  find_op("threshold_backward")->call_boxed(s);
  return s[0].tensor();
}

struct PoolCase {
  int64_t dims;
  std::vector<int64_t> shape, kernel, stride, padding;
};
const std::vector<PoolCase> kCases = {
    {2, {4, 3, 10, 10}, {2, 2}, {2, 2}, {0, 0}},  // the CNN's pool
    {2, {2, 3, 9, 11}, {3, 3}, {1, 1}, {1, 1}},   // overlapping windows: several gradients add
    {1, {2, 3, 17}, {3}, {2}, {1}},
    {3, {1, 2, 5, 6, 4}, {2, 2, 2}, {1, 2, 1}, {0, 1, 1}},
};

Tensor pool(const PoolCase& c, const Tensor& x) {
  if (c.dims == 1) return max_pool1d(x, c.kernel, c.stride, c.padding);
  if (c.dims == 2) return max_pool2d(x, c.kernel, c.stride, c.padding);
  return max_pool3d(x, c.kernel, c.stride, c.padding);
}

TEST_F(PoolRelu, ScatterEqualsThresholdBackwardBitForBit) {
  manual_seed(3);
  for (const PoolCase& c : kCases)
    for (ScalarType dt : {kFloat, kDouble}) {
      const Tensor y = relu(activations(c.shape, dt));
      auto fwd = c.dims == 1   ? &max_pool1d_with_indices
                 : c.dims == 2 ? &max_pool2d_with_indices
                               : &max_pool3d_with_indices;
      auto bwd = c.dims == 1   ? &max_pool1d_with_indices_backward
                 : c.dims == 2 ? &max_pool2d_with_indices_backward
                               : &max_pool3d_with_indices_backward;
      const std::vector<int64_t> dil(c.kernel.size(), 1);
      const auto [out, ix] = fwd(y, c.kernel, c.stride, c.padding, dil, false);
      Tensor g = randn(out.sizes(), TensorOptions().dtype(dt));
      g.view({-1}).index_put_({0}, -0.0);
      const Tensor want =
          threshold_backward(bwd(g, y, c.kernel, c.stride, c.padding, dil, false, ix), y);
      const Tensor got =
          ops::max_pool_backward_relu(c.dims, g, y, c.kernel, c.stride, c.padding, dil, false, ix);
      EXPECT_TRUE(same_bits(got, want)) << c.dims << " " << dt;
      // A strided relu result takes the two ops' path: the same values.
      const Tensor yt = y.transpose(-1, -2).contiguous().transpose(-1, -2);
      EXPECT_TRUE(same_bits(
          ops::max_pool_backward_relu(c.dims, g, yt, c.kernel, c.stride, c.padding, dil, false, ix),
          want));
    }
}

TEST_F(PoolRelu, CompiledGradientsEqualEagerWithoutThreshold) {
  manual_seed(4);
  for (const PoolCase& c : kCases) {
    Tensor w = randn({c.shape[1]});
    for (size_t d = 2; d < c.shape.size(); ++d) w = w.unsqueeze(-1);
    auto fn = [&c](const Tensor& x, const Tensor& scale) {
      const Tensor p = pool(c, relu(x * scale));
      return (p * p.detach().cos()).sum();
    };
    auto f = brasa::compile(fn);
    const Tensor x0 = activations(c.shape, kFloat);
    for (int call = 0; call < 2; ++call) {
      const Tensor xe = x0.clone().requires_grad_(true), xc = x0.clone().requires_grad_(true);
      const Tensor we = w.clone().requires_grad_(true), wc = w.clone().requires_grad_(true);
      fn(xe, we).backward();
      const Tensor loss = f(xc, wc);
      profiler::Profiler prof;
      if (call == 1) prof.start();  // the first call's backward is the trace's
      loss.backward();
      if (call == 1) {
        prof.stop();
        int pools = 0;
        for (const profiler::KeyAverage& k : prof.key_averages()) {
          EXPECT_NE(k.name, "threshold_backward") << c.dims;
          pools += k.name.find("_with_indices_backward") != std::string::npos ? 1 : 0;
        }
        EXPECT_EQ(pools, 1) << c.dims;
      }
      EXPECT_TRUE(same_bits(xc.grad(), xe.grad())) << c.dims;
      EXPECT_TRUE(allclose(wc.grad(), we.grad(), 1e-5, 1e-6, true)) << c.dims;  // a sum
    }
  }
  EXPECT_EQ(compile_stats().graph_breaks, 0);
}

TEST_F(PoolRelu, AttentionBackwardWritesNoArgument) {
  // Its `output` argument is read, not an out= destination: the tracer marks no node [mutates].
  const OperatorHandle* op = find_op("scaled_dot_product_attention_backward");
  ASSERT_NE(op, nullptr);
  for (const SchemaArgument& a : op->schema_info().arguments) EXPECT_FALSE(a.written) << a.name;
}

}  // namespace
}  // namespace brasa::compile_test
