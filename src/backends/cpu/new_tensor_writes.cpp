#include "backends/cpu/new_tensor_writes.h"

#include "brasa/core/tensor_impl.h"

namespace brasa::cpu {
namespace {
// Note [Initial-exec TLS] (src/dispatch/grad_mode.cpp).
thread_local bool t_new_tensor_writes __attribute__((tls_model("initial-exec"))) = false;
}  // namespace

NewTensorWrites::NewTensorWrites() : prev_(t_new_tensor_writes) { t_new_tensor_writes = true; }
NewTensorWrites::~NewTensorWrites() { t_new_tensor_writes = prev_; }

void count_write(const Tensor& t) {
  if (!t_new_tensor_writes) t.unsafeGetTensorImpl()->bump_version();
}

}  // namespace brasa::cpu
