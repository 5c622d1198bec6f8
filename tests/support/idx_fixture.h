#pragma once
// Writes small MNIST-style idx files (plain or gzip) into a fresh temporary directory.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace brasa::testing {

inline void put_be32(std::vector<uint8_t>& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) {
    out.push_back(static_cast<uint8_t>(v >> shift));
  }
}

/// Image i has pixel p = (i * 7 + p) % 256; label i is i % 10.
inline std::vector<uint8_t> idx_images(uint32_t n, uint32_t rows, uint32_t cols) {
  std::vector<uint8_t> out;
  put_be32(out, 0x803);
  put_be32(out, n);
  put_be32(out, rows);
  put_be32(out, cols);
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t p = 0; p < rows * cols; ++p) {
      out.push_back(static_cast<uint8_t>((i * 7 + p) % 256));
    }
  }
  return out;
}

inline std::vector<uint8_t> idx_labels(uint32_t n) {
  std::vector<uint8_t> out;
  put_be32(out, 0x801);
  put_be32(out, n);
  for (uint32_t i = 0; i < n; ++i) {
    out.push_back(static_cast<uint8_t>(i % 10));
  }
  return out;
}

class TempDir {
 public:
  TempDir() {
    static std::mt19937_64 rng(std::random_device{}());
    path_ = std::filesystem::temp_directory_path() / ("brasa_data_" + std::to_string(rng()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string str() const { return path_.string(); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

  void write(const std::string& name, const std::vector<uint8_t>& bytes) const {
    std::ofstream out(file(name), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }
  /// Writes name.gz (gzip of bytes) and no plain file.
  void write_gz(const std::string& name, const std::vector<uint8_t>& bytes) const {
    write(name, bytes);
    const std::string cmd = "gzip -f '" + file(name) + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
  }
  std::vector<uint8_t> read(const std::string& name) const {
    std::ifstream in(file(name), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  /// A complete train (n examples) + test (n/2 examples) dataset of 28x28 images.
  void write_mnist(uint32_t n, bool gz) const {
    auto put = [&](const std::string& name, const std::vector<uint8_t>& bytes) {
      gz ? write_gz(name, bytes) : write(name, bytes);
    };
    put("train-images-idx3-ubyte", idx_images(n, 28, 28));
    put("train-labels-idx1-ubyte", idx_labels(n));
    put("t10k-images-idx3-ubyte", idx_images(n / 2, 28, 28));
    put("t10k-labels-idx1-ubyte", idx_labels(n / 2));
  }

 private:
  std::filesystem::path path_;
};

}  // namespace brasa::testing
