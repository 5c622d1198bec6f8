#pragma once
// Loads the example npu backend (examples/custom_backend) as a plugin, for tests of the backend
// extension point against a device whose memory the host cannot read.

#include <gtest/gtest.h>

#include "brasa/backend.h"
#include "brasa/brasa.h"

namespace brasa::testing {

inline void load_npu() {
#ifdef BRASA_NPU_LIBRARY
  backend::load_backend(BRASA_NPU_LIBRARY);
#endif
}

class NpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef BRASA_NPU_LIBRARY
    GTEST_SKIP() << "the npu example backend is not built";
#endif
    load_npu();
    backend::reset_fallback_report();
    npu = Device("npu");
  }
  Device npu = Device(kCPU);  // "npu" once the backend is loaded
};

/// Same dtype, shape and bytes.
inline ::testing::AssertionResult bitwise_equal(const Tensor& a, const Tensor& b) {
  Tensor x = a.cpu().contiguous(), y = b.cpu().contiguous();
  if (x.dtype() != y.dtype() || x.sizes().vec() != y.sizes().vec())
    return ::testing::AssertionFailure() << "dtype or shape differ: " << x.dtype() << x.sizes()
                                         << " vs " << y.dtype() << y.sizes();
  if (x.nbytes() && std::memcmp(x.data_ptr(), y.data_ptr(), x.nbytes()) != 0)
    return ::testing::AssertionFailure() << "values differ:\n" << x << "\nvs\n" << y;
  return ::testing::AssertionSuccess();
}

}  // namespace brasa::testing
