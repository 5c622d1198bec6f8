// MNIST: the four idx files of a directory, loaded once into an image and a target tensor.

#include "brasa/data/datasets/mnist.h"

#include <filesystem>

#include "brasa/core/parallel.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "data/idx_file.h"

namespace brasa::data::datasets {

namespace {
// `root/name`, or `root/name.gz` when only the compressed file exists.
std::string find_file(const std::string& root, const std::string& name) {
  const std::filesystem::path plain = std::filesystem::path(root) / name;
  std::error_code ec;
  if (std::filesystem::exists(plain, ec)) {
    return plain.string();
  }
  const std::string gz = plain.string() + ".gz";
  if (std::filesystem::exists(gz, ec)) {
    return gz;
  }
  BRASA_THROW(data::datasets::DataFileNotFoundError, "MNIST: neither ", plain.string(), " nor ", gz,
              " exists; for Fashion-MNIST run `apt-get install dataset-fashion-mnist` and use ",
              "the root /usr/share/datasets/fashion-mnist");
}

Tensor read_images(const std::string& path) {
  data::detail::IdxFile idx = data::detail::parse_idx(data::detail::read_maybe_gzip(path), 3, path);
  Tensor images = brasa::empty({idx.dims[0], 1, idx.dims[1], idx.dims[2]}, kFloat32);
  const uint8_t* src = idx.bytes.data() + idx.payload_offset;
  float* dst = images.data_ptr<float>();
  parallel_for(0, images.numel(), 1 << 16, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      dst[i] = static_cast<float>(src[i]) * (1.0f / 255.0f);
    }
  });
  return images;
}

Tensor read_targets(const std::string& path) {
  data::detail::IdxFile idx = data::detail::parse_idx(data::detail::read_maybe_gzip(path), 1, path);
  Tensor targets = brasa::empty({idx.dims[0]}, kInt64);
  const uint8_t* src = idx.bytes.data() + idx.payload_offset;
  int64_t* dst = targets.data_ptr<int64_t>();
  for (int64_t i = 0; i < idx.dims[0]; ++i) {
    dst[i] = src[i];
  }
  return targets;
}
}  // namespace

MNIST::MNIST(const std::string& root, Mode mode) : is_train_(mode == Mode::kTrain) {
  const std::string prefix = is_train_ ? "train" : "t10k";
  const std::string images_path = find_file(root, prefix + "-images-idx3-ubyte");
  const std::string targets_path = find_file(root, prefix + "-labels-idx1-ubyte");
  images_ = read_images(images_path);
  targets_ = read_targets(targets_path);
  BRASA_CHECK_TYPED(data::datasets::DataFileCorruptError, images_.size(0) == targets_.size(0),
                    "MNIST: ", images_path, " has ", images_.size(0), " images but ", targets_path,
                    " has ", targets_.size(0), " labels");
}

Example<> MNIST::get(size_t index) {
  BRASA_CHECK_INDEX(index < static_cast<size_t>(images_.size(0)), "MNIST: index ", index,
                    " is out of range for ", images_.size(0), " examples");
  const auto i = static_cast<int64_t>(index);
  return {images_[i], targets_[i]};
}

// Note [Batch blocks]
// Gathering a batch row by row and stacking it costs two small ops per example. Instead the rows
// are gathered by one index_select into a fresh block, and the examples are views of its rows;
// Normalize and Stack recognise such rows (transforms::detail::as_block) and work on the block.
std::vector<Example<>> MNIST::get_batch(ArrayRef<size_t> indices) {
  const auto n = static_cast<int64_t>(indices.size());
  Tensor index = brasa::empty({n}, kInt64);
  int64_t* idx = index.data_ptr<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    BRASA_CHECK_INDEX(indices[i] < static_cast<size_t>(images_.size(0)), "MNIST: index ",
                      indices[i], " is out of range for ", images_.size(0), " examples");
    idx[i] = static_cast<int64_t>(indices[i]);
  }
  Tensor images = images_.index_select(0, index);
  Tensor targets = targets_.index_select(0, index);
  std::vector<Example<>> batch;
  batch.reserve(indices.size());
  for (int64_t i = 0; i < n; ++i) {
    batch.emplace_back(images[i], targets[i]);
  }
  return batch;
}

std::optional<size_t> MNIST::size() const { return static_cast<size_t>(images_.size(0)); }

}  // namespace brasa::data::datasets
