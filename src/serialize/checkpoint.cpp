// Checkpointer: tracked states + step + RNG in one atomically written file; the last K kept.

#include "brasa/serialize/checkpoint.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "brasa/archive/error.h"
#include "brasa/core/generator.h"
#include "brasa/nn/module.h"
#include "brasa/optim/optimizer.h"
#include "brasa/optim/schedulers/lr_scheduler.h"
#include "brasa/optim/schedulers/reduce_on_plateau_scheduler.h"

namespace brasa::serialize {
namespace fs = std::filesystem;
namespace {

const char* const kStep = "step";
const char* const kRng = "rng_state";
const char* const kExtra = "extra";

// The step of "<prefix>-<digits>.pt", or -1.
int64_t step_of(const std::string& file, const std::string& prefix) {
  const std::string head = prefix + "-", tail = ".pt";
  if (file.size() <= head.size() + tail.size() || file.compare(0, head.size(), head) != 0 ||
      file.compare(file.size() - tail.size(), tail.size(), tail) != 0)
    return -1;
  const std::string digits = file.substr(head.size(), file.size() - head.size() - tail.size());
  if (digits.empty() || digits.size() > 18 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return -1;
  return std::stoll(digits);
}

}  // namespace

Checkpointer::Checkpointer(std::string directory, size_t keep_last, std::string prefix)
    : directory_(std::move(directory)), keep_last_(keep_last), prefix_(std::move(prefix)) {
  BRASA_CHECK(keep_last_ > 0, "Checkpointer: keep_last must be at least 1");
  BRASA_CHECK(!prefix_.empty() && prefix_.find('/') == std::string::npos,
              "Checkpointer: the prefix must be a non-empty file name, got '", prefix_, "'");
}

Checkpointer& Checkpointer::track(const std::string& name, std::function<void(OutputArchive&)> save,
                                  std::function<void(InputArchive&)> load) {
  BRASA_CHECK(name != kStep && name != kRng && name != kExtra, "Checkpointer::track: '", name,
              "' is a reserved name");
  for (const auto& t : tracked_)
    BRASA_CHECK(t.name != name, "Checkpointer::track: '", name, "' is already tracked");
  tracked_.push_back({name, std::move(save), std::move(load)});
  return *this;
}

Checkpointer& Checkpointer::track(const std::string& name, nn::Module& module) {
  return track(
      name, [&module](OutputArchive& a) { module.save(a); },
      [&module](InputArchive& a) { module.load(a); });
}

Checkpointer& Checkpointer::track(const std::string& name, optim::Optimizer& optimizer) {
  return track(
      name, [&optimizer](OutputArchive& a) { optimizer.save(a); },
      [&optimizer](InputArchive& a) { optimizer.load(a); });
}

template <typename Scheduler>
static void track_scheduler(Checkpointer& c, const std::string& name, Scheduler& s) {
  c.track(
      name, [&s](OutputArchive& a) { a.write("state", s.state_dict()); },
      [&s](InputArchive& a) {
        IValue v;
        a.read("state", v);
        s.load_state_dict(v);
      });
}

Checkpointer& Checkpointer::track(const std::string& name, optim::LRScheduler& scheduler) {
  track_scheduler(*this, name, scheduler);
  return *this;
}

Checkpointer& Checkpointer::track(const std::string& name,
                                  optim::ReduceLROnPlateauScheduler& scheduler) {
  track_scheduler(*this, name, scheduler);
  return *this;
}

std::string Checkpointer::save(int64_t step, const IValue& extra) {
  BRASA_CHECK(step >= 0, "Checkpointer::save: step must be non-negative, got ", step);
  OutputArchive archive;
  for (const auto& t : tracked_) {
    OutputArchive nested;
    t.save(nested);
    archive.write(t.name, nested);
  }
  archive.write(kStep, IValue(step));
  archive.write(kRng, get_rng_state());
  if (!extra.isNone()) archive.write(kExtra, extra);
  std::error_code ec;
  fs::create_directories(directory_, ec);
  BRASA_CHECK_TYPED(SerializationError, !ec, "Checkpointer: cannot create '", directory_,
                    "': ", ec.message());
  char name[64];
  std::snprintf(name, sizeof name, "-%010lld.pt", static_cast<long long>(step));
  const std::string path = (fs::path(directory_) / (prefix_ + name)).string();
  archive.save_to(path);
  const std::vector<std::string> files = list();
  for (size_t i = 0; i + keep_last_ < files.size(); ++i) fs::remove(files[i], ec);
  return path;
}

std::vector<std::string> Checkpointer::list() const {
  std::vector<std::pair<int64_t, std::string>> found;
  std::error_code ec;
  for (fs::directory_iterator it(directory_, ec), end; !ec && it != end; it.increment(ec)) {
    const int64_t step = step_of(it->path().filename().string(), prefix_);
    if (step >= 0 && it->is_regular_file(ec)) found.emplace_back(step, it->path().string());
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

std::optional<std::string> Checkpointer::latest() const {
  auto files = list();
  if (files.empty()) return std::nullopt;
  return files.back();
}

int64_t Checkpointer::restore_from(const std::string& path, IValue* extra) {
  InputArchive archive;
  archive.load_from(path);
  // Read everything that can fail on a damaged file before changing any object.
  IValue step;
  archive.read(kStep, step);
  BRASA_CHECK_TYPED(SerializationError, step.isInt() && step.toInt() >= 0, "Checkpointer: '", path,
                    "' has a bad 'step' (", step.tagKind(), ")");
  Tensor rng;
  archive.read(kRng, rng);
  std::vector<InputArchive> nested(tracked_.size());
  for (size_t i = 0; i < tracked_.size(); ++i) archive.read(tracked_[i].name, nested[i]);
  for (size_t i = 0; i < tracked_.size(); ++i) tracked_[i].load(nested[i]);
  set_rng_state(rng);
  if (extra != nullptr) {
    IValue v;
    *extra = archive.try_read(kExtra, v) ? v : IValue();
  }
  return step.toInt();
}

std::optional<int64_t> Checkpointer::restore(const std::optional<std::string>& path,
                                             IValue* extra) {
  if (path) return restore_from(*path, extra);
  const std::vector<std::string> files = list();
  for (auto it = files.rbegin(); it != files.rend(); ++it) {
    try {
      return restore_from(*it, extra);
    } catch (const SerializationError& e) {
      std::fprintf(stderr, "brasa: checkpoint '%s' is unreadable (%s); trying an older one\n",
                   it->c_str(), e.what());
    }
  }
  return std::nullopt;
}

}  // namespace brasa::serialize
