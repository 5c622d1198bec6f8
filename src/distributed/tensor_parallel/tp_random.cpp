// The tensor-parallel RNG tracker: named MT19937 streams swapped into the default generator for
// the lifetime of a fork (Note [Tensor-parallel RNG] in docs/distributed.md).

#include <utility>

#include "brasa/brasa.h"
#include "brasa/distributed/tensor_parallel_random.h"

namespace brasa::distributed {

void RNGStatesTracker::add(const std::string& name, uint64_t seed) {
  BRASA_CHECK(!has(name), "RNGStatesTracker::add: a stream named '", name, "' exists already");
  const auto same = seeds_.find(seed);
  BRASA_CHECK(same == seeds_.end(), "RNGStatesTracker::add('", name, "', ", seed, "): stream '",
              (same == seeds_.end() ? std::string() : same->second),
              "' has that seed already (the two would draw the same numbers)");
  states_[name] = make_generator(seed).get_state();
  seeds_[seed] = name;
}

void RNGStatesTracker::reset() {
  BRASA_CHECK(active_.empty(), "RNGStatesTracker::reset inside a fork of '", active_, "'");
  states_.clear();
  seeds_.clear();
}

std::map<std::string, Tensor> RNGStatesTracker::get_states() const {
  std::map<std::string, Tensor> out;
  for (const auto& [name, state] : states_) out[name] = state.clone();
  return out;
}

void RNGStatesTracker::set_states(const std::map<std::string, Tensor>& states) {
  BRASA_CHECK(active_.empty(), "RNGStatesTracker::set_states inside a fork of '", active_, "'");
  std::map<std::string, Tensor> checked;
  for (const auto& [name, state] : states) {
    Generator probe = make_generator();
    probe.set_state(state);  // ValueError for a state of the wrong dtype or size
    checked[name] = probe.get_state();
  }
  // Seeds are what add() checks; restored streams keep theirs through the states.
  seeds_.clear();
  states_ = std::move(checked);
}

RNGStatesTracker::Fork RNGStatesTracker::fork(const std::string& name) {
  BRASA_CHECK(has(name), "RNGStatesTracker::fork: no stream named '", name,
              "' (tensor_parallel_manual_seed adds '", kModelParallelRNG, "')");
  if (active_ == name) return Fork(nullptr, name);  // already drawing from it
  BRASA_CHECK(active_.empty(), "RNGStatesTracker::fork('", name, "') inside a fork of '", active_,
              "'");
  return Fork(this, name);
}

RNGStatesTracker::Fork::Fork(RNGStatesTracker* tracker, std::string name)
    : tracker_(tracker), name_(std::move(name)) {
  if (!tracker_) return;
  Generator& g = default_generator();  // get_state / set_state lock it
  saved_ = g.get_state();
  g.set_state(tracker_->states_.at(name_));
  tracker_->active_ = name_;
}

RNGStatesTracker::Fork::Fork(Fork&& other) noexcept
    : tracker_(std::exchange(other.tracker_, nullptr)),
      name_(std::move(other.name_)),
      saved_(std::move(other.saved_)) {}

RNGStatesTracker::Fork::~Fork() {
  if (!tracker_) return;
  Generator& g = default_generator();  // get_state / set_state lock it
  tracker_->states_[name_] = g.get_state();
  g.set_state(saved_);
  tracker_->active_.clear();
}

RNGStatesTracker& tensor_parallel_rng_tracker() {
  static RNGStatesTracker tracker;
  return tracker;
}

void tensor_parallel_manual_seed(uint64_t seed, int64_t tp_rank) {
  BRASA_CHECK(tp_rank >= 0, "tensor_parallel_manual_seed: TP rank ", tp_rank, " is negative");
  RNGStatesTracker& t = tensor_parallel_rng_tracker();
  t.reset();
  manual_seed(seed);
  t.add(kModelParallelRNG, seed + kModelParallelSeedOffset + static_cast<uint64_t>(tp_rank));
}

void tensor_parallel_manual_seed(uint64_t seed, const DeviceMesh& tp) {
  BRASA_CHECK(tp.ndim() == 1,
              "tensor_parallel_manual_seed: the TP mesh must be 1-D (mesh[\"tp\"]), got ",
              tp.to_string());
  tensor_parallel_manual_seed(seed, static_cast<int64_t>(tp.get_local_rank()));
}

}  // namespace brasa::distributed
