#pragma once
// One parameter of a fully_shard unit (Note [FSDP2 in brasa]) and an all-gather in flight
// (Note [FSDP prefetch]).

#include <string>
#include <vector>

#include "brasa/distributed/fsdp.h"

namespace brasa::distributed {

struct FSDPState::Param {
  std::string name;
  Tensor param;                // the module's tensor
  std::vector<int64_t> shape;  // the whole parameter's
  ScalarType dtype;            // of the shard (the optimizer's master copy)
  int64_t rows = 0, chunk = 0, local_rows = 0, row_numel = 1;
  Tensor padded;  // [chunk, ...]: this rank's rows, then zeros
  Tensor shard;   // padded's first local_rows rows
  Tensor full;    // the whole parameter in the compute dtype; bytes freed while sharded
  bool requires_grad = false;
  Tensor stashed_grad;      // the sharded grad of earlier steps, during a forward/backward
  Tensor accumulated_grad;  // unsharded, summed over backwards without sync
};

struct FSDPState::Gather {
  IntrusivePtr<Work> work;
  Tensor gathered;  // [ranks * total]: every rank's padded shards, back to back
  int64_t total = 0;
  std::vector<uint32_t> versions;  // of each shard buffer when the all-gather started
};

namespace detail {
inline int64_t elements(IntArrayRef shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}
}  // namespace detail

}  // namespace brasa::distributed
