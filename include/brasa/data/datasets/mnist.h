#pragma once
// MNIST (and Fashion-MNIST): the idx files of a directory loaded into two tensors.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/data/datasets/base.h"

namespace brasa::data::datasets {

/// A dataset file is missing; the message names the path and how to install the data.
class BRASA_API DataFileNotFoundError : public RuntimeError {
  using RuntimeError::RuntimeError;
};
/// A dataset file is unreadable: bad magic, inconsistent sizes, truncated, or a gzip error.
class BRASA_API DataFileCorruptError : public ValueError {
  using ValueError::ValueError;
};

/// Reads {train,t10k}-{images-idx3,labels-idx1}-ubyte from `root`, each plain or gzip-compressed
/// (name + ".gz"). images(): float32 [N, 1, H, W] in [0, 1]; targets(): int64 [N].
/// Debian's dataset-fashion-mnist installs the files to /usr/share/datasets/fashion-mnist.
/// Throws DataFileNotFoundError for a missing file and DataFileCorruptError for a bad one.
class BRASA_API MNIST : public Dataset<MNIST> {
 public:
  enum class Mode { kTrain, kTest };

  explicit MNIST(const std::string& root, Mode mode = Mode::kTrain);

  /// Views of row `index`; throws IndexError when index >= size().
  Example<> get(size_t index) override;
  /// The rows gathered with one index_select each (the batch fast path; see Note [Batch blocks]).
  std::vector<Example<>> get_batch(ArrayRef<size_t> indices) override;
  std::optional<size_t> size() const override;
  bool is_train() const noexcept { return is_train_; }
  const Tensor& images() const { return images_; }
  const Tensor& targets() const { return targets_; }

 private:
  Tensor images_, targets_;
  bool is_train_;
};

}  // namespace brasa::data::datasets
