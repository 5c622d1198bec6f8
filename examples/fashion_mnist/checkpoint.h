#pragma once
// Checkpoints of the main job (and of char_gpt): training checkpoints (model, optimizer, data
// position, RNG, step) through brasa::serialize::Checkpointer, and the final model as a safetensors
// file.

#include <torch/torch.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "brasa/serialize/checkpoint.h"
#include "brasa/serialize/safetensors.h"

/// Training checkpoints in a directory (the newest 3 kept), written atomically.
class TrainingCheckpoints {
 public:
  explicit TrainingCheckpoints(std::string dir) : checkpointer_(std::move(dir), 3) {}
  template <class Model, class Loader>
  void track(Model& model, torch::optim::Optimizer& optimizer, Loader& loader) {
    checkpointer_.track("model", *model).track("optimizer", optimizer).track("data", loader);
  }
  /// Without a data loader (char_gpt draws its batches from the RNG, which every checkpoint holds).
  template <class Model>
  void track(Model& model, torch::optim::Optimizer& optimizer) {
    checkpointer_.track("model", *model).track("optimizer", optimizer);
  }
  /// Restores the newest readable checkpoint; returns its step (0 when there is none). Throws,
  /// naming the newest file, when there are checkpoints but none can be read.
  int64_t resume() {
    const auto path = checkpointer_.latest();
    const auto step = checkpointer_.restore();
    if (!step && path)  // there were checkpoints, but none could be read
      throw std::runtime_error("cannot resume: checkpoint '" + *path +
                               "' and any older ones are unreadable (warnings above)");
    if (!step) {
      std::printf("no checkpoint in %s: starting from scratch\n",
                  checkpointer_.directory().c_str());
      return 0;
    }
    std::printf("resumed at step %lld from %s\n", static_cast<long long>(*step),
                path ? path->c_str() : "?");
    return *step;
  }
  void save(int64_t step) { checkpointer_.save(step); }

 private:
  brasa::serialize::Checkpointer checkpointer_;
};

/// Writes the model's state_dict as safetensors at `path` and with torch::save next to it (same
/// name, extension .pt); both load into PyTorch's model with load_state_dict. Returns the .pt path.
template <class Model>
std::string save_model(Model& model, const std::string& path) {
  brasa::serialize::save_safetensors(*model, path, {{"format", "pt"}});
  std::string pt = path;
  const auto dot = pt.rfind('.');
  if (dot != std::string::npos && pt.find('/', dot) == std::string::npos) pt.resize(dot);
  pt += ".pt";
  torch::save(model, pt);
  return pt;
}
