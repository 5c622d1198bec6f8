#pragma once
// --tensorboard DIR: the training curves as TensorBoard event files (brasa's SummaryWriter;
// libtorch has no C++ writer). Per step: train/loss, train/lr, train/grad_norm (the global L2
// norm of the gradients, before the optimizer step) and train/examples_per_s (of that step);
// per epoch: test/accuracy and train/epoch_examples_per_s. Without the option nothing is computed.
// char_gpt uses it too, with its rate named train/tokens_per_s and the gradient norm that
// clip_grad_norm_ returns.

#include <torch/torch.h>

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "brasa/utils/tensorboard.h"

class TensorBoardLog {
 public:
  explicit TensorBoardLog(const std::string& dir, std::string rate_tag = "train/examples_per_s")
      : writer_(dir.empty() ? nullptr : std::make_unique<brasa::tensorboard::SummaryWriter>(dir)),
        rate_tag_(std::move(rate_tag)) {
    if (writer_) std::printf("TensorBoard logs in %s\n", writer_->file_path().c_str());
  }
  explicit operator bool() const { return writer_ != nullptr; }

  /// Before the step: starts its clock.
  void start_step() { step_start_ = std::chrono::steady_clock::now(); }
  /// The global gradient norm; call after backward(), before the optimizer's step.
  void grad_norm(const std::vector<torch::Tensor>& parameters) {
    torch::NoGradGuard no_grad;
    torch::Tensor sum = torch::zeros({}, torch::kDouble);
    for (const auto& p : parameters)
      if (p.grad().defined()) sum = sum + p.grad().to(torch::kDouble).pow(2).sum().cpu();
    grad_norm_ = std::sqrt(sum.item<double>());
  }
  /// A gradient norm computed elsewhere (clip_grad_norm_'s result).
  void set_grad_norm(double norm) { grad_norm_ = norm; }
  void end_step(int64_t step, double loss, double lr, int64_t examples) {
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - step_start_).count();
    writer_->add_scalar("train/loss", loss, step);
    writer_->add_scalar("train/lr", lr, step);
    writer_->add_scalar("train/grad_norm", grad_norm_, step);
    writer_->add_scalar(rate_tag_, s > 0 ? examples / s : 0, step);
  }
  /// Any other scalar (char_gpt's validation loss), flushed at once.
  void add_scalar(const std::string& tag, double value, int64_t step) {
    writer_->add_scalar(tag, value, step);
    writer_->flush();
  }
  void end_epoch(int64_t step, double accuracy, double examples_per_s) {
    writer_->add_scalar("test/accuracy", accuracy, step);
    writer_->add_scalar("train/epoch_examples_per_s", examples_per_s, step);
    writer_->flush();
  }

 private:
  std::unique_ptr<brasa::tensorboard::SummaryWriter> writer_;
  std::string rate_tag_;
  std::chrono::steady_clock::time_point step_start_;
  double grad_norm_ = 0;
};
