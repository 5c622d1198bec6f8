#pragma once
// Training checkpoints: the model, optimizer, scheduler, data position, step and RNG state in one
// torch.save-format file, written atomically (temporary file, fsync, rename), keeping the last K.
// Resuming from one reproduces the uninterrupted run bit for bit (tests/serialize/test_resume*).
//
//   brasa::serialize::Checkpointer ckpt("runs/a", /*keep_last=*/3);
//   ckpt.track("model", *model).track("optimizer", optimizer).track("data", *loader);
//   int64_t step = ckpt.restore().value_or(0);   // continue where the last run stopped
//   ... every N steps: ckpt.save(step);

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "brasa/archive/archive.h"

namespace brasa::nn {
class Module;
}
namespace brasa::optim {
class Optimizer;
class LRScheduler;
class ReduceLROnPlateauScheduler;
}  // namespace brasa::optim

namespace brasa::serialize {

/// Anything with save(OutputArchive&) const and load(InputArchive&): data loaders, samplers.
template <typename T, typename = void>
inline constexpr bool is_archive_serializable_v = false;
template <typename T>
inline constexpr bool is_archive_serializable_v<
    T, std::void_t<decltype(std::declval<const T&>().save(std::declval<OutputArchive&>())),
                   decltype(std::declval<T&>().load(std::declval<InputArchive&>()))>> = true;

class BRASA_API Checkpointer {
 public:
  /// Checkpoints go to `directory` (created if missing) as <prefix>-<step>.pt. ValueError for
  /// keep_last == 0.
  explicit Checkpointer(std::string directory, size_t keep_last = 3,
                        std::string prefix = "checkpoint");

  /// Adds an object whose state every checkpoint holds under `name` (ValueError for a name used
  /// twice or one of the reserved "step", "rng_state", "extra"). The objects must outlive this.
  Checkpointer& track(const std::string& name, nn::Module& module);
  Checkpointer& track(const std::string& name, optim::Optimizer& optimizer);
  Checkpointer& track(const std::string& name, optim::LRScheduler& scheduler);
  Checkpointer& track(const std::string& name, optim::ReduceLROnPlateauScheduler& scheduler);
  template <typename T, typename = std::enable_if_t<is_archive_serializable_v<T>>>
  Checkpointer& track(const std::string& name, T& object) {
    return track(
        name, [&object](OutputArchive& a) { object.save(a); },
        [&object](InputArchive& a) { object.load(a); });
  }
  Checkpointer& track(const std::string& name, std::function<void(OutputArchive&)> save,
                      std::function<void(InputArchive&)> load);

  /// Writes the states of all tracked objects, `step`, the default generator's state and `extra`
  /// as <directory>/<prefix>-<step>.pt atomically, then deletes all but the newest keep_last.
  /// Returns the path.
  std::string save(int64_t step, const IValue& extra = IValue());
  /// Loads `path`, or else the newest readable checkpoint (falling back to older ones when the
  /// newest is unreadable, with a warning on stderr), into every tracked object and the default
  /// generator. Returns the saved step, or nullopt when there is no checkpoint. Throws
  /// SerializationError when `path` is unreadable or lacks a tracked name. `extra`, if given,
  /// receives the saved extra value.
  std::optional<int64_t> restore(const std::optional<std::string>& path = std::nullopt,
                                 IValue* extra = nullptr);
  /// The checkpoint files, oldest first.
  std::vector<std::string> list() const;
  std::optional<std::string> latest() const;
  const std::string& directory() const { return directory_; }

 private:
  struct Tracked {
    std::string name;
    std::function<void(OutputArchive&)> save;
    std::function<void(InputArchive&)> load;
  };
  int64_t restore_from(const std::string& path, IValue* extra);

  std::string directory_;
  size_t keep_last_;
  std::string prefix_;
  std::vector<Tracked> tracked_;
};

}  // namespace brasa::serialize
