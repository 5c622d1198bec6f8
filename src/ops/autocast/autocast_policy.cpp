// The Autocast-key kernels: which dispatched ops autocast casts, and to what (Note [Autocast] in
// brasa/dispatch/autocast_mode.h). The lists are PyTorch 1.13's CPU lists
// (`torch._C._dispatch_get_registrations_for_dispatch_key("AutocastCPU")`) restricted to the ops
// brasa dispatches; composite functions on them (linear, matmul, the losses, index_copy) cast at
// their top instead. Ops not named here run in the dtypes they are given.
#include "brasa/dispatch/autocast_mode.h"
#include "ops/attention/attention_ops.h"
#include "ops/complex/complex_ops.h"
#include "ops/conv/conv_ops.h"
#include "ops/fft/fft_ops.h"
#include "ops/linalg/decomp_ops.h"
#include "ops/linalg/mm_ops.h"
#include "ops/pool/pool_ops.h"
#include "ops/pool/resample_ops.h"
#include "ops/rearrange/rearrange_ops.h"
#include "ops/reduce/reduce_ops.h"

namespace brasa::ops {
namespace {

using autocast::CastPolicy;

// Casts every tensor (and tensor-list element) of the stack by `policy`, then runs the op's next
// kernel with the Autocast key excluded.
template <CastPolicy policy>
void autocast_kernel(const OperatorHandle& op, DispatchKeySet, Stack& stack) {
  std::vector<const Tensor*> tensors;
  for (const Value& v : stack) {
    if (v.is_tensor()) tensors.push_back(&v.tensor());
    if (v.is_tensor_list())
      for (const Tensor& t : v.get<std::vector<Tensor>>()) tensors.push_back(&t);
  }
  const ScalarType dtype = autocast::policy_dtype(policy, tensors);
  for (Value& v : stack) {
    if (v.is_tensor()) v.tensor() = autocast::cached_cast(dtype, v.tensor());
    if (v.is_tensor_list())
      for (Tensor& t : v.get<std::vector<Tensor>>()) t = autocast::cached_cast(dtype, t);
  }
  autocast::AutocastExclude exclude;
  op.call_boxed(stack);
}

// PyTorch 1.13 runs convolutions in the lower-precision dtype and transposed ones in float32.
void convolution_autocast(const OperatorHandle& op, DispatchKeySet keys, Stack& stack) {
  constexpr size_t kTransposed = 6;  // convolution(input, weight, bias, stride, padding,
                                     // dilation, transposed, ...)
  if (stack.at(kTransposed).get<bool>())
    autocast_kernel<CastPolicy::Float32>(op, keys, stack);
  else
    autocast_kernel<CastPolicy::LowerPrecision>(op, keys, stack);
}

template <CastPolicy policy>
void set_policy(OperatorHandle& op) {
  op.impl_boxed(DispatchKey::Autocast, &autocast_kernel<policy>, __FILE__);
}

const bool registered = [] {
  // Products run in the lower-precision dtype (mm and bmm are addmm and baddbmm without self;
  // 1.13's attention is a composite of bmm and softmax, so its result is lower precision too).
  for (OperatorHandle* op :
       std::initializer_list<OperatorHandle*>{&addmm_op(), &baddbmm_op(), &sdpa_forward_op()})
    set_policy<CastPolicy::LowerPrecision>(*op);
  convolution_op().impl_boxed(DispatchKey::Autocast, &convolution_autocast, __FILE__);
  // Ops that lose accuracy or range in 16 bits run in float32.
  for (OperatorHandle* op : std::initializer_list<OperatorHandle*>{
           &prod_op(), &avg_pool3d_op(), &adaptive_avg_pool3d_op(), &reflection_pad1d_op(),
           &reflection_pad2d_op(), &replication_pad1d_op(), &replication_pad2d_op(),
           &replication_pad3d_op(), &view_as_complex_op(), &linalg_inv_op(), &linalg_solve_op(),
           &linalg_cholesky_op(), &linalg_qr_op(), &linalg_svd_op(), &linalg_eigh_op(),
           &linalg_lstsq_op(), &fft_c2c_op(), &fft_r2c_op(), &fft_c2r_op()})
    set_policy<CastPolicy::Float32>(*op);
  // Joins of mixed dtypes run in the widest.
  for (OperatorHandle* op : std::initializer_list<OperatorHandle*>{&cat_op(), &stack_op()})
    set_policy<CastPolicy::Promote>(*op);
  return true;
}();

}  // namespace
}  // namespace brasa::ops
