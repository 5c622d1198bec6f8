// Tensor helpers of the MPI backend.

#include "distributed/mpi/mpi_tensors.h"

#include <cstring>

#include "brasa/core/dispatch_type.h"
#include "brasa/distributed/error.h"

namespace brasa::distributed::mpi {

const Tensor& single_tensor(const std::vector<Tensor>& tensors, const std::string& where) {
  BRASA_CHECK(tensors.size() == 1, where, ": expected exactly one tensor, got ", tensors.size());
  check_cpu_tensor(tensors[0], where, "tensor");
  return tensors[0];
}

void check_cpu_tensor(const Tensor& t, const std::string& where, const std::string& what) {
  BRASA_CHECK(t.defined(), where, ": ", what, " is an undefined tensor");
  BRASA_CHECK(t.is_cpu(), where, ": ", what, " must be a CPU tensor, got device ", t.device());
}

void check_same_layout(const Tensor& t, const Tensor& ref, const std::string& where,
                       const std::string& what) {
  check_cpu_tensor(t, where, what);
  BRASA_CHECK_TYPE(t.scalar_type() == ref.scalar_type(), where, ": ", what, " has dtype ",
                   t.scalar_type(), " but the input has dtype ", ref.scalar_type());
  BRASA_CHECK(t.sizes() == ref.sizes(), where, ": ", what, " has shape ", t.sizes(),
              " but the input has shape ", ref.sizes());
}

ScalarType reduce_dtype(ScalarType dtype) {
  return dtype == ScalarType::Half || dtype == ScalarType::BFloat16 ? ScalarType::Float : dtype;
}

Staged::Staged(const Tensor& user_, ScalarType dtype) : user(user_) {
  copied = !(user.is_contiguous() && user.scalar_type() == dtype);
  if (!copied) {
    buf = user;
  } else {
    buf = user.scalar_type() == dtype ? user.contiguous() : user.to(dtype).contiguous();
  }
}

void Staged::commit() const {
  if (copied) user.copy_(buf);
}

void divide_inplace(const Tensor& buf, int64_t n) {
  BRASA_DISPATCH_ALL_TYPES(buf.scalar_type(), "divide_inplace", [&] {
    auto* p = buf.data_ptr<scalar_t>();
    const auto d = static_cast<scalar_t>(n);
    for (int64_t i = 0, e = buf.numel(); i < e; ++i) p[i] = static_cast<scalar_t>(p[i] / d);
  });
}

void copy_to_bytes(const Tensor& t, char* dst) {
  if (t.numel() == 0) return;
  Tensor c = t.contiguous();
  std::memcpy(dst, c.data_ptr(), c.nbytes());
}

void copy_from_bytes(const Tensor& t, const char* src) {
  if (t.numel() == 0) return;
  if (t.is_contiguous()) {
    std::memcpy(t.data_ptr(), src, t.nbytes());
    return;
  }
  Tensor c = t.contiguous().clone();
  std::memcpy(c.data_ptr(), src, c.nbytes());
  t.copy_(c);
}

}  // namespace brasa::distributed::mpi
