#pragma once
// Argument checks and tensor staging shared by the Gloo collectives. Errors name the op
// ("ProcessGroupGloo::<op>"), the tensor shapes/dtypes and the ranks.

#include <sstream>
#include <string>
#include <vector>

#include "brasa/core/tensor.h"

namespace brasa::distributed::gloo_backend {

/// "Float[2, 3]".
inline std::string describe(const Tensor& t) {
  std::ostringstream os;
  os << t.scalar_type() << t.sizes();
  return os.str();
}

/// A defined CPU tensor.
inline void check_tensor(const char* op, const Tensor& t, const char* what) {
  BRASA_CHECK(t.defined(), "ProcessGroupGloo::", op, ": ", what, " is an undefined tensor");
  BRASA_CHECK(t.is_cpu(), "ProcessGroupGloo::", op, ": ", what,
              " must be a CPU tensor (Gloo here is CPU-only), got device ", t.device());
}

/// The only tensor of a one-tensor list.
inline const Tensor& single_tensor(const char* op, const std::vector<Tensor>& tensors,
                                   const char* what = "tensors") {
  BRASA_CHECK(tensors.size() == 1, "ProcessGroupGloo::", op, ": expected exactly 1 tensor in ",
              what, ", got ", tensors.size());
  check_tensor(op, tensors[0], what);
  return tensors[0];
}

/// `t` has the dtype and shape of `ref`.
inline void check_like(const char* op, const Tensor& t, const Tensor& ref, const std::string& what,
                       const char* ref_what) {
  check_tensor(op, t, what.c_str());
  BRASA_CHECK_TYPE(t.scalar_type() == ref.scalar_type(), "ProcessGroupGloo::", op, ": ", what,
                   " has dtype ", t.scalar_type(), " but ", ref_what, " has dtype ",
                   ref.scalar_type());
  BRASA_CHECK(t.sizes() == ref.sizes(), "ProcessGroupGloo::", op, ": ", what, " has shape ",
              t.sizes(), " but ", ref_what, " has shape ", ref.sizes());
}

/// A list of `n` tensors shaped like `ref`.
inline void check_list(const char* op, const std::vector<Tensor>& list, size_t n, const Tensor& ref,
                       const char* list_what, const char* ref_what) {
  BRASA_CHECK(list.size() == n, "ProcessGroupGloo::", op, ": ", list_what, " must hold ", n,
              " tensors (one per rank), got ", list.size());
  for (size_t i = 0; i < n; ++i) {
    check_like(op, list[i], ref, std::string(list_what) + "[" + std::to_string(i) + "]", ref_what);
  }
}

inline void check_root(const char* op, int64_t root, int size) {
  BRASA_CHECK_INDEX(root >= 0 && root < size, "ProcessGroupGloo::", op, ": rootRank ", root,
                    " is out of range for a group of size ", size);
}

/// A contiguous tensor with t's values (t itself when already contiguous).
inline Tensor dense(const Tensor& t) { return t.is_contiguous() ? t : t.contiguous(); }

/// Copies a staging buffer back into the user's tensor when they differ.
inline void copy_back(const Tensor& user, const Tensor& buffer) {
  if (!user.is_same(buffer)) user.copy_(buffer);
}

}  // namespace brasa::distributed::gloo_backend
