// from_file, is_pinned / pin_memory (CPU-only: libtorch without CUDA) and lift / lift_fresh.
#include <gtest/gtest.h>
#include <torch/torch.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "brasa/brasa.h"

using namespace brasa;

namespace {

// A file of `values` (raw float32) in the test's temporary directory, removed at the end.
struct TempFile {
  std::string path;
  explicit TempFile(const std::vector<float>& values) {
    path = (std::filesystem::temp_directory_path() /
            ("brasa_from_file_" + std::to_string(::getpid()) + ".bin"))
               .string();
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(values.data()),
            std::streamsize(values.size() * sizeof(float)));
  }
  ~TempFile() { std::remove(path.c_str()); }
};

}  // namespace

TEST(StorageOps, FromFileReadsACopy) {
  TempFile file({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  Tensor t = torch::from_file(file.path, false, 4);
  EXPECT_EQ(t.scalar_type(), kFloat);
  EXPECT_TRUE(equal(t, tensor({0.0f, 1.0f, 2.0f, 3.0f})));
  // The bytes reinterpreted as other dtypes, as libtorch does (little-endian machine).
  Tensor d = from_file(file.path, std::nullopt, 3, TensorOptions().dtype(kDouble));
  EXPECT_EQ(d.sizes(), IntArrayRef({3}));
  EXPECT_DOUBLE_EQ(d[0].item<double>(), 0.0078125);
  EXPECT_EQ(from_file(file.path).numel(), 0);  // size 0 by default
  EXPECT_TRUE(from_file(file.path, false, 2, TensorOptions().requires_grad(true)).requires_grad());
  t.fill_(7);  // a copy: the file is unchanged
  EXPECT_TRUE(equal(from_file(file.path, false, 1), tensor({0.0f})));
}

TEST(StorageOps, FromFileShared) {
  TempFile file({1, 2, 3});
  {
    Tensor t = from_file(file.path, true, 3);
    EXPECT_TRUE(equal(t, tensor({1.0f, 2.0f, 3.0f})));
    t[1].fill_(20.0);  // written through to the file
  }
  EXPECT_TRUE(equal(from_file(file.path, false, 3), tensor({1.0f, 20.0f, 3.0f})));
}

TEST(StorageOps, FromFileErrors) {
  TempFile file({1, 2, 3});
  EXPECT_THROW(from_file(file.path, false, 4), ValueError);  // 16 bytes > 12
  EXPECT_THROW(from_file(file.path, true, 4), ValueError);
  EXPECT_THROW(from_file(file.path, false, -1), ValueError);
  EXPECT_THROW(from_file(file.path + ".missing", false, 1), ValueError);
  try {
    from_file(file.path + ".missing", false, 1);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(".missing"), std::string::npos) << e.what();
  }
}

TEST(StorageOps, PinnedMemoryAndLift) {
  Tensor t = ones({2, 3});
  EXPECT_FALSE(is_pinned(t));
  EXPECT_FALSE(at::is_pinned(t, Device(kCPU)));
  EXPECT_THROW(pin_memory(t), NotImplementedError);
  EXPECT_TRUE(torch::lift(t).is_same(t));
  EXPECT_TRUE(at::lift_fresh(t).is_same(t));
}

TEST(StorageOps, BesselFunctionsAreNotDifferentiable) {
  Tensor x = tensor({0.5, 2.0}).requires_grad_();
  for (Tensor y :
       {torch::special::bessel_j0(x), torch::special::bessel_j1(x), torch::special::bessel_y0(x),
        torch::special::bessel_y1(x), torch::special::modified_bessel_k0(x),
        torch::special::modified_bessel_k1(x), torch::special::scaled_modified_bessel_k0(x),
        torch::special::scaled_modified_bessel_k1(x), torch::special::airy_ai(x)}) {
    EXPECT_FALSE(y.requires_grad());
    EXPECT_EQ(y.scalar_type(), kFloat);
  }
  EXPECT_THROW(special_bessel_j0(ones({2}, kHalf)), TypeError);
}
