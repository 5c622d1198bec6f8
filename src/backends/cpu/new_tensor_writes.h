#pragma once
// Note [Version of new tensors]
// Kernels count their writes to a tensor they were given (in-place and out= ops) in its version
// counter. A factory or an op that fills a result it has just allocated (ones = empty + fill_,
// clone = empty + copy_, cat = empty + copies) would then hand back a tensor at version 1 or more,
// where libtorch's new tensors start at 0 (its counting happens above the kernels, which its
// factories bypass) and programs check _version() against that. Such ops do their filling inside
// a NewTensorWrites scope, in which this thread's kernels leave version counters alone. Only the
// new tensor may be written in the scope: nothing else has seen it, so nothing has recorded its
// version.

#include "brasa/core/tensor.h"

namespace brasa::cpu {

/// RAII: while alive, this thread's kernels do not count their writes (Note [Version of new
/// tensors]). Scopes nest.
class NewTensorWrites {
 public:
  NewTensorWrites();
  ~NewTensorWrites();
  NewTensorWrites(const NewTensorWrites&) = delete;
  NewTensorWrites& operator=(const NewTensorWrites&) = delete;

 private:
  bool prev_;
};

/// Counts a kernel's write to t in t's version counter, unless inside NewTensorWrites.
void count_write(const Tensor& t);

}  // namespace brasa::cpu
