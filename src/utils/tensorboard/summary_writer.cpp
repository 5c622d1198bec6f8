#include <cstdio>
#include <filesystem>

#include "brasa/core/error.h"
#include "brasa/utils/tensorboard.h"
#include "utils/tensorboard/event_file.h"
#include "utils/tensorboard/summaries.h"

namespace brasa::tensorboard {

SummaryWriter::SummaryWriter(const std::string& log_dir, double flush_secs)
    : log_dir_(log_dir),
      flush_secs_(flush_secs),
      file_(std::make_unique<detail::EventFile>(log_dir, flush_secs)) {
  file_path_ = file_->path();
}

SummaryWriter::~SummaryWriter() {
  try {
    close();
  } catch (const Error&) {
    // A destructor cannot report it; close() explicitly to see I/O errors.
  }
}

detail::EventFile& SummaryWriter::run(const std::string& sub_dir) {
  BRASA_CHECK_TYPED(RuntimeError, file_, "tensorboard::SummaryWriter: writing to '", log_dir_,
                    "' after close()");
  if (sub_dir.empty()) return *file_;
  std::unique_ptr<detail::EventFile>& f = runs_[sub_dir];
  if (!f)
    f = std::make_unique<detail::EventFile>((std::filesystem::path(log_dir_) / sub_dir).string(),
                                            flush_secs_);
  return *f;
}

void SummaryWriter::add_scalar(const std::string& tag, double value, int64_t step) {
  std::lock_guard<std::mutex> lock(mutex_);
  run("").write_summary(detail::scalar_summary(tag, value), step);
}

void SummaryWriter::add_scalars(const std::string& main_tag,
                                const std::map<std::string, double>& values, int64_t step) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [name, value] : values)
    run(main_tag + "_" + name).write_summary(detail::scalar_summary(main_tag, value), step);
}

void SummaryWriter::add_histogram(const std::string& tag, const Tensor& values, int64_t step) {
  BRASA_CHECK_TYPE(values.defined(), "tensorboard::SummaryWriter::add_histogram: '", tag,
                   "' is an undefined tensor");
  BRASA_CHECK_TYPE(!values.is_complex(), "tensorboard::SummaryWriter::add_histogram: '", tag,
                   "' is complex (", values.scalar_type(), "); expected a real tensor");
  const Tensor v = values.detach().to(Device(kCPU), kDouble).contiguous();
  const double* p = v.data_ptr<double>();
  const detail::Histogram h = detail::make_histogram(tag, std::vector<double>(p, p + v.numel()));
  std::lock_guard<std::mutex> lock(mutex_);
  run("").write_summary(detail::histogram_summary(tag, h), step);
}

void SummaryWriter::add_text(const std::string& tag, const std::string& text, int64_t step) {
  std::lock_guard<std::mutex> lock(mutex_);
  run("").write_summary(detail::text_summary(tag, text), step);
}

void SummaryWriter::add_hparams(const std::map<std::string, HParamValue>& hparams,
                                const std::map<std::string, double>& metrics,
                                const std::string& run_name) {
  BRASA_CHECK(!hparams.empty(), "tensorboard::SummaryWriter::add_hparams: no hyperparameters");
  std::string name = run_name;
  if (name.empty()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6f", detail::wall_time());
    name = buf;
  }
  std::vector<std::string> tags;
  for (const auto& kv : metrics) tags.push_back(kv.first);
  std::lock_guard<std::mutex> lock(mutex_);
  run("");  // checks that the writer is open
  detail::EventFile session((std::filesystem::path(log_dir_) / name).string(), flush_secs_);
  for (const std::string& s : detail::hparams_summaries(hparams, tags)) session.write_summary(s, 0);
  for (const auto& [tag, value] : metrics)
    session.write_summary(detail::scalar_summary(tag, value), 0);
  session.close();
}

void SummaryWriter::flush() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (file_) file_->flush();
  for (auto& kv : runs_) kv.second->flush();
}

void SummaryWriter::close() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!file_) return;
  for (auto& kv : runs_) kv.second->close();
  runs_.clear();
  const std::unique_ptr<detail::EventFile> f = std::move(file_);
  f->close();
}

}  // namespace brasa::tensorboard
