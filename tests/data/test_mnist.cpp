// MNIST idx reading: plain and gzip files, and typed errors for missing or damaged files.

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "brasa/brasa.h"
#include "support/idx_fixture.h"

namespace brasa::data::datasets {
namespace {

using brasa::testing::idx_images;
using brasa::testing::idx_labels;
using brasa::testing::TempDir;

void expect_example(MNIST& ds, size_t i) {
  Example<> ex = ds.get(i);
  ASSERT_EQ(ex.data.sizes(), (std::vector<int64_t>{1, 28, 28}));
  EXPECT_EQ(ex.data.scalar_type(), kFloat32);
  EXPECT_EQ(ex.target.scalar_type(), kInt64);
  EXPECT_EQ(ex.target.item<int64_t>(), static_cast<int64_t>(i % 10));
  const float* px = ex.data.contiguous().data_ptr<float>();
  for (int p : {0, 1, 100, 783}) {
    EXPECT_FLOAT_EQ(px[p], static_cast<float>((i * 7 + p) % 256) / 255.0f) << "pixel " << p;
  }
}

class MnistFormat : public ::testing::TestWithParam<bool> {};

TEST_P(MnistFormat, ReadsTrainAndTest) {
  TempDir dir;
  dir.write_mnist(12, /*gz=*/GetParam());
  MNIST train(dir.str());
  EXPECT_TRUE(train.is_train());
  ASSERT_EQ(train.size(), 12u);
  EXPECT_EQ(train.images().sizes(), (std::vector<int64_t>{12, 1, 28, 28}));
  EXPECT_EQ(train.targets().sizes(), (std::vector<int64_t>{12}));
  EXPECT_LE(train.images().max().item<float>(), 1.0f);
  EXPECT_GE(train.images().min().item<float>(), 0.0f);
  for (size_t i : {0, 5, 11}) {
    expect_example(train, i);
  }
  MNIST test(dir.str(), MNIST::Mode::kTest);
  EXPECT_FALSE(test.is_train());
  EXPECT_EQ(test.size(), 6u);
  expect_example(test, 3);
  EXPECT_THROW(train.get(12), IndexError);
}

INSTANTIATE_TEST_SUITE_P(PlainAndGzip, MnistFormat, ::testing::Bool());

TEST(Mnist, GetBatchMatchesGet) {
  TempDir dir;
  dir.write_mnist(20, false);
  MNIST ds(dir.str());
  std::vector<size_t> idx{19, 0, 7, 7};
  auto batch = ds.get_batch(idx);
  ASSERT_EQ(batch.size(), 4u);
  for (size_t k = 0; k < idx.size(); ++k) {
    Example<> one = ds.get(idx[k]);
    EXPECT_TRUE(batch[k].data.equal(one.data));
    EXPECT_TRUE(batch[k].target.equal(one.target));
  }
  std::vector<size_t> bad{1, 20};
  EXPECT_THROW(ds.get_batch(bad), IndexError);
}

TEST(Mnist, MissingFilesNameThePathAndThePackage) {
  TempDir dir;
  try {
    MNIST ds(dir.str());
    FAIL() << "no error";
  } catch (const DataFileNotFoundError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(dir.file("train-images-idx3-ubyte")), std::string::npos) << msg;
    EXPECT_NE(msg.find("apt-get install dataset-fashion-mnist"), std::string::npos) << msg;
  }
  dir.write("train-images-idx3-ubyte", idx_images(3, 28, 28));
  EXPECT_THROW(MNIST(dir.str()), DataFileNotFoundError);  // labels missing
}

TEST(Mnist, CorruptFiles) {
  TempDir dir;
  dir.write("train-labels-idx1-ubyte", idx_labels(4));
  auto images = idx_images(4, 28, 28);
  auto expect_corrupt = [&](const std::vector<uint8_t>& bytes, const std::string& needle) {
    dir.write("train-images-idx3-ubyte", bytes);
    try {
      MNIST ds(dir.str());
      FAIL() << "no error for " << needle;
    } catch (const DataFileCorruptError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  auto bad_magic = images;
  bad_magic[3] = 0x01;
  expect_corrupt(bad_magic, "bad magic");
  expect_corrupt(std::vector<uint8_t>(images.begin(), images.end() - 1), "truncated");
  expect_corrupt(std::vector<uint8_t>(images.begin(), images.begin() + 10), "truncated");
  expect_corrupt({}, "truncated");
  auto trailing = images;
  trailing.push_back(0);
  expect_corrupt(trailing, "trailing");
  expect_corrupt(idx_images(5, 28, 28), "labels");  // 5 images, 4 labels
  auto huge = images;
  huge[4] = huge[5] = 0xff;  // announces ~4e9 images
  expect_corrupt(huge, "");
}

TEST(Mnist, CorruptGzip) {
  TempDir dir;
  dir.write_gz("train-images-idx3-ubyte", idx_images(50, 28, 28));
  dir.write_gz("train-labels-idx1-ubyte", idx_labels(50));
  const auto gz = dir.read("train-images-idx3-ubyte.gz");
  dir.write("train-images-idx3-ubyte.gz",
            std::vector<uint8_t>(gz.begin(), gz.begin() + gz.size() / 2));
  EXPECT_THROW(MNIST(dir.str()), DataFileCorruptError);
  auto flipped = gz;
  for (size_t i = 20; i < 60 && i < flipped.size(); ++i) {
    flipped[i] ^= 0x5a;
  }
  dir.write("train-images-idx3-ubyte.gz", flipped);
  EXPECT_THROW(MNIST(dir.str()), DataFileCorruptError);
}

// Random truncations and garbage never crash: they load or throw a brasa::Error.
TEST(Mnist, FuzzTruncationAndGarbage) {
  TempDir dir;
  dir.write_gz("train-labels-idx1-ubyte", idx_labels(8));
  const auto images = idx_images(8, 28, 28);
  dir.write_gz("train-images-idx3-ubyte", images);
  const auto gz = dir.read("train-images-idx3-ubyte.gz");
  std::mt19937 rng(7);
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<uint8_t> bytes = trial % 2 ? gz : images;
    bytes.resize(std::uniform_int_distribution<size_t>(0, bytes.size())(rng));
    if (trial % 3 == 0) {
      for (int k = 0; k < 4 && !bytes.empty(); ++k) {
        bytes[std::uniform_int_distribution<size_t>(0, bytes.size() - 1)(rng)] =
            static_cast<uint8_t>(rng());
      }
    }
    dir.write("train-images-idx3-ubyte.gz", bytes);
    try {
      MNIST ds(dir.str());
      EXPECT_EQ(ds.size(), 8u);
    } catch (const Error&) {
    }
  }
}

TEST(Mnist, FashionMnistIfInstalled) {
  const std::string root = "/usr/share/datasets/fashion-mnist";
  if (!std::filesystem::exists(root + "/t10k-images-idx3-ubyte.gz")) {
    GTEST_SKIP() << "dataset-fashion-mnist is not installed";
  }
  MNIST test(root, MNIST::Mode::kTest);
  EXPECT_EQ(test.size(), 10000u);
  EXPECT_EQ(test.targets().max().item<int64_t>(), 9);
  EXPECT_EQ(test.targets().min().item<int64_t>(), 0);
}

}  // namespace
}  // namespace brasa::data::datasets
