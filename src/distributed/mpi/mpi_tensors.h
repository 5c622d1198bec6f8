#pragma once
// Tensor helpers of the MPI backend: argument checks, contiguous staging buffers copied back into
// the caller's tensors, AVG division, byte-level copies. Internal.

#include <string>
#include <vector>

#include "brasa/core/tensor.h"

namespace brasa::distributed::mpi {

/// The one tensor of a `tensors` argument: exactly one, defined, on the CPU.
const Tensor& single_tensor(const std::vector<Tensor>& tensors, const std::string& where);
/// Throws unless `t` is defined and on the CPU; `what` names it ("input", "output 2").
void check_cpu_tensor(const Tensor& t, const std::string& where, const std::string& what);
/// Throws unless `t` has `ref`'s dtype and shape.
void check_same_layout(const Tensor& t, const Tensor& ref, const std::string& where,
                       const std::string& what);
/// The dtype a reduction runs in: float32 for float16/bfloat16, the dtype itself otherwise.
ScalarType reduce_dtype(ScalarType dtype);

/// A contiguous buffer of `dtype` holding `user`'s values; commit() copies it back when it is a
/// separate copy.
struct Staged {
  Staged() = default;
  Staged(const Tensor& user, ScalarType dtype);
  void commit() const;
  Tensor user;
  Tensor buf;
  bool copied = false;
};

/// In place buf /= n (integers truncate).
void divide_inplace(const Tensor& buf, int64_t n);
/// Copies t's bytes (any layout) to dst (t.nbytes() bytes).
void copy_to_bytes(const Tensor& t, char* dst);
/// Fills t (any layout) from src (t.nbytes() bytes).
void copy_from_bytes(const Tensor& t, const char* src);

}  // namespace brasa::distributed::mpi
