#pragma once
// TensorBoard logs: brasa::tensorboard::SummaryWriter writes event files that TensorBoard reads
// (scalars, histograms, text, hparams), like torch.utils.tensorboard.SummaryWriter in Python;
// libtorch's C++ frontend has no equivalent. Note [TensorBoard event files] in
// src/utils/tensorboard/event_file.cpp describes the format.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>

#include "brasa/core/macros.h"
#include "brasa/core/tensor.h"

namespace brasa::tensorboard {

namespace detail {
class EventFile;
}

/// A hyperparameter's value for add_hparams: a number, a string or a bool (TensorBoard's three
/// hparam types). Integers are logged as numbers (float64), as in PyTorch.
class BRASA_API HParamValue {
 public:
  enum class Kind { Number, String, Bool };
  template <class T,
            typename = std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, bool>>>
  HParamValue(T v) : kind_(Kind::Number), number_(static_cast<double>(v)) {}  // NOLINT
  HParamValue(bool v) : kind_(Kind::Bool), bool_(v) {}                        // NOLINT
  HParamValue(const char* v) : kind_(Kind::String), string_(v) {}             // NOLINT
  HParamValue(std::string v) : kind_(Kind::String), string_(std::move(v)) {}  // NOLINT

  Kind kind() const { return kind_; }
  double number() const { return number_; }
  const std::string& string() const { return string_; }
  bool boolean() const { return bool_; }

 private:
  Kind kind_;
  double number_ = 0;
  std::string string_;
  bool bool_ = false;
};

/// Writes TensorBoard event files into `log_dir` (created with its parents if missing): one file
/// `events.out.tfevents.<unix time>.<host>.<pid>.<n>` per writer. Records are buffered and reach
/// the file on flush(), close(), destruction, or on the first write `flush_secs` seconds after
/// the last flush. Thread-safe. Throws brasa::RuntimeError naming the path and the OS reason when
/// `log_dir` is a file or cannot be created, or the event file cannot be written.
class BRASA_API SummaryWriter {
 public:
  explicit SummaryWriter(const std::string& log_dir, double flush_secs = 120);
  ~SummaryWriter();
  SummaryWriter(const SummaryWriter&) = delete;
  SummaryWriter& operator=(const SummaryWriter&) = delete;

  /// One point of the scalar series `tag`; NaN and infinities are written as they are.
  void add_scalar(const std::string& tag, double value, int64_t step = 0);
  /// Several series in one chart: value k goes to the run `log_dir/<main_tag>_<k>` under the tag
  /// `main_tag` (PyTorch's layout), each run with its own event file.
  void add_scalars(const std::string& main_tag, const std::map<std::string, double>& values,
                   int64_t step = 0);
  /// The distribution of `values` (any real dtype and shape, on any device) in TensorBoard's
  /// default buckets (edges ±1e-12·1.1^k up to 1e20, and 0). Non-finite elements are left out;
  /// ValueError when no finite element remains (an empty tensor included).
  void add_histogram(const std::string& tag, const Tensor& values, int64_t step = 0);
  /// Markdown text, shown by TensorBoard's text dashboard under `<tag>/text_summary`.
  void add_text(const std::string& tag, const std::string& text, int64_t step = 0);
  /// One session of the hparams dashboard, written as PyTorch does into a run of its own,
  /// `log_dir/<run_name>` (default: the current unix time): the hyperparameters, and each metric
  /// as a scalar at step 0. ValueError for an empty `hparams`.
  void add_hparams(const std::map<std::string, HParamValue>& hparams,
                   const std::map<std::string, double>& metrics, const std::string& run_name = "");

  /// Writes the buffered records to the event files.
  void flush();
  /// Flushes and closes the files; later add_* calls throw RuntimeError. Idempotent.
  void close();

  const std::string& log_dir() const { return log_dir_; }
  /// The event file of this writer's own run.
  const std::string& file_path() const { return file_path_; }

 private:
  detail::EventFile& run(const std::string& sub_dir);  // "" for the writer's own file
  std::string log_dir_;
  double flush_secs_;
  std::string file_path_;
  mutable std::mutex mutex_;
  std::unique_ptr<detail::EventFile> file_;
  std::map<std::string, std::unique_ptr<detail::EventFile>> runs_;  // add_scalars' runs
};

}  // namespace brasa::tensorboard
