#pragma once
// Errors of distributed training: a failed or lost peer, a broken store connection, a timeout.

#include "brasa/core/error.h"

namespace brasa::distributed {

/// A collective, store operation or peer failed; the message names the operation, the ranks and
/// the cause (c10d::DistBackendError / DistStoreError).
class BRASA_API DistributedError : public Error {
 public:
  using Error::Error;
};
/// An operation did not finish within its timeout; the message names it and the timeout.
class BRASA_API DistributedTimeoutError : public DistributedError {
 public:
  using DistributedError::DistributedError;
};

}  // namespace brasa::distributed
