// Kernels per CPU capability: one thread, best of 9 in thread CPU time, for the kernel families
// whose AVX2/AVX-512 builds are kept or dropped by measurement (Note [Capability builds per file]
// in cmake/BrasaKernels.cmake). Run once per capability and compare:
//   for c in default avx2 avx512; do BRASA_CPU_CAPABILITY_OVERRIDE=$c capability_bench; done
// (bench/capability_bench.py does that and prints the ratios).
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "best_of.h"
#include "brasa/brasa.h"

using namespace brasa;

int main(int argc, char** argv) {
  set_num_threads(1);
  manual_seed(0);
  const std::string only = argc > 1 ? argv[1] : "";
  const Tensor m = randn({1024, 1024});  // rows of 1K: dim 1 is contiguous
  const Tensor md = m.to(kDouble);
  const Tensor v = randn({1 << 20});
  const Tensor small = randn({64, 1024});
  Generator philox = make_generator(0, GeneratorKind::Philox);
  // Pooling, resampling and direct convolution (pool_kernels, resample_kernels,
  // conv_direct_kernels): the [16, 64, 56, 56] activation after a ResNet stem, smaller ones where
  // a workload would take over 50 ms.
  const Tensor act = randn({16, 64, 56, 56});
  const auto [mp2, mp2_idx] = max_pool2d_with_indices(act, {2, 2}, {2, 2});
  const auto [mp3, mp3_idx] = max_pool2d_with_indices(act, {3, 3}, {2, 2}, {1, 1});
  const Tensor ap2 = avg_pool2d(act, {2, 2}, {2, 2});
  const Tensor aap1 = adaptive_avg_pool2d(act, {1, 1}), aap7 = adaptive_avg_pool2d(act, {7, 7});
  const auto [amp7, amp7_idx] = adaptive_max_pool2d(act, {7, 7});
  const Tensor img = randn({4, 64, 56, 56});
  const Tensor pad_g = randn({4, 64, 58, 58}), up_g = randn({4, 64, 112, 112});
  const Tensor cols = im2col(img, {3, 3}, {1, 1}, {1, 1}, {1, 1});
  const Tensor cx = randn({4, 16, 28, 28}, kDouble), cw = randn({32, 16, 3, 3}, kDouble);
  const Tensor cy = conv2d(cx, cw, {}, 1, 1);
  std::vector<std::pair<std::string, std::function<void()>>> work = {
      {"max_dim1", [&] { (void)max(m, 1); }},
      {"max_dim0", [&] { (void)max(m, 0); }},
      {"argmax_dim1", [&] { (void)argmax(m, 1); }},
      {"argmax_dim0", [&] { (void)argmax(m, 0); }},
      {"argmax_all", [&] { (void)argmax(v); }},
      {"logsumexp_dim1", [&] { (void)logsumexp(m, {1}); }},
      {"logsumexp_dim0", [&] { (void)logsumexp(m, {0}); }},
      {"norm3_dim1", [&] { (void)norm(m, 3.0, {1}); }},
      {"norm2_dim1", [&] { (void)norm(m, 2.0, {1}); }},
      {"norm2_dim0", [&] { (void)norm(m, 2.0, {0}); }},
      {"var_dim1", [&] { (void)var(m, {1}); }},
      {"var_dim0", [&] { (void)var(m, {0}); }},
      {"var_dim1_f64", [&] { (void)var(md, {1}); }},
      {"sum_dim1", [&] { (void)m.sum({1}); }},
      {"sum_dim0", [&] { (void)m.sum({0}); }},
      {"sort_1M", [&] { (void)sort(v); }},
      {"sort_rows", [&] { (void)sort(m, 1); }},
      {"topk_rows", [&] { (void)topk(m, 10, 1); }},
      {"randperm_1M", [&] { (void)randperm(1 << 20); }},
      {"rand_1M", [&] { (void)rand({1 << 20}); }},
      {"randn_1M", [&] { (void)randn({1 << 20}); }},
      {"normal_1M_f64", [&] { (void)randn({1 << 20}, kDouble); }},
      {"bernoulli_1M", [&] { (void)empty({1 << 20}).bernoulli_(0.5); }},
      {"philox_rand_1M", [&] { (void)rand({1 << 20}, philox); }},
      {"philox_randn_1M", [&] { (void)randn({1 << 20}, philox); }},
      {"philox_randn_1M_f64", [&] { (void)randn({1 << 20}, philox, kDouble); }},
      {"philox_randperm_1M", [&] { (void)randperm(1 << 20, philox); }},
      {"cumsum_dim1", [&] { (void)cumsum(m, 1); }},
      {"cumsum_dim0", [&] { (void)cumsum(m, 0); }},
      {"cumprod_dim1", [&] { (void)cumprod(m, 1); }},
      {"where_1M", [&] { (void)where(gt(v, 0), v, v.flip({0})); }},
      {"clamp_1M", [&] { (void)clamp(v, -0.5, 0.5); }},
      {"lerp_1M", [&] { (void)lerp(v, v.flip({0}), 0.3); }},
      {"to_half_1M", [&] { (void)v.to(kHalf); }},
      {"to_double_1M", [&] { (void)v.to(kDouble); }},
      {"transpose_copy", [&] { (void)m.t().contiguous(); }},
      {"gt_1M", [&] { (void)gt(v, 0.5); }},
      {"gt_tensor_1M", [&] { (void)gt(v, v.flip({0})); }},
      {"softmax_small", [&] { (void)softmax(small, 1); }},
      {"max_pool2d_2x2",
       [&] {
         (void)max_pool2d_with_indices(act, {2, 2}, {2, 2});
       }},
      {"max_pool2d_3x3",
       [&] {
         (void)max_pool2d_with_indices(act, {3, 3}, {2, 2}, {1, 1});
       }},
      {"max_pool2d_2x2_bwd",
       [&] {
         (void)max_pool2d_with_indices_backward(mp2, act, {2, 2}, {2, 2}, 0, 1, false, mp2_idx);
       }},
      {"max_pool2d_3x3_bwd",
       [&] {
         (void)max_pool2d_with_indices_backward(mp3, act, {3, 3}, {2, 2}, 1, 1, false, mp3_idx);
       }},
      {"avg_pool2d_2x2",
       [&] {
         (void)avg_pool2d(act, {2, 2}, {2, 2});
       }},
      {"avg_pool2d_2x2_bwd",
       [&] {
         (void)avg_pool2d_backward(ap2, act, {2, 2}, {2, 2}, 0, false, true, std::nullopt);
       }},
      {"adaptive_avg_1x1",
       [&] {
         (void)adaptive_avg_pool2d(act, {1, 1});
       }},
      {"adaptive_avg_7x7",
       [&] {
         (void)adaptive_avg_pool2d(act, {7, 7});
       }},
      {"adaptive_avg_1x1_bwd", [&] { (void)adaptive_avg_pool2d_backward(aap1, act); }},
      {"adaptive_avg_7x7_bwd", [&] { (void)adaptive_avg_pool2d_backward(aap7, act); }},
      {"adaptive_max_7x7",
       [&] {
         (void)adaptive_max_pool2d(act, {7, 7});
       }},
      {"adaptive_max_7x7_bwd", [&] { (void)adaptive_max_pool2d_backward(amp7, act, amp7_idx); }},
      {"reflection_pad2d",
       [&] {
         (void)reflection_pad2d(img, {1, 1, 1, 1});
       }},
      {"reflection_pad2d_bwd",
       [&] {
         (void)reflection_pad2d_backward(pad_g, img, {1, 1, 1, 1});
       }},
      {"replication_pad2d",
       [&] {
         (void)replication_pad2d(img, {1, 1, 1, 1});
       }},
      {"replication_pad2d_bwd",
       [&] {
         (void)replication_pad2d_backward(pad_g, img, {1, 1, 1, 1});
       }},
      {"upsample_nearest2d",
       [&] {
         (void)upsample_nearest2d(img, {112, 112});
       }},
      {"upsample_nearest2d_bwd",
       [&] {
         (void)upsample_nearest2d_backward(up_g, {112, 112}, img.sizes());
       }},
      {"upsample_bilinear2d",
       [&] {
         (void)upsample_bilinear2d(img, {112, 112}, false);
       }},
      {"upsample_bilinear2d_bwd",
       [&] {
         (void)upsample_bilinear2d_backward(up_g, {112, 112}, img.sizes(), false);
       }},
      {"im2col_3x3",
       [&] {
         (void)im2col(img, {3, 3}, {1, 1}, {1, 1}, {1, 1});
       }},
      {"col2im_3x3",
       [&] {
         (void)col2im(cols, {56, 56}, {3, 3}, {1, 1}, {1, 1}, {1, 1});
       }},
      {"conv2d_direct_f64", [&] { (void)conv2d(cx, cw, {}, 1, 1); }},
      {"conv2d_direct_f64_bwd",
       [&] {
         (void)convolution_backward(cy, cx, cw, 1, 1, 1, false, 0, 1, {true, true, false});
       }},
  };
  for (const auto& [name, f] : work) {
    if (!only.empty() && name.find(only) == std::string::npos) continue;
    std::printf("%s %.2f\n", name.c_str(), bench::best_thread_us(f));
  }
}
