#pragma once
// Random numbers under tensor parallelism (Megatron-LM's CUDA RNG states tracker, the role of
// torch.distributed.tensor's RNG tracker): Note [Tensor-parallel RNG] in docs/distributed.md.
//
// The TP ranks of a model hold the same replicated activations (after a row-parallel all-reduce,
// the embeddings, the residual stream) and different shards of the sharded ones (a column-parallel
// output: this rank's heads or hidden units; a sequence-parallel chunk). Dropout on a replicated
// activation must draw the same mask on every TP rank, or the replicas diverge; dropout on a
// sharded one must draw independent masks, or every shard is dropped in the same pattern.
//
//   tensor_parallel_manual_seed(1234, mesh["tp"]);   // after building the model
//   y = dropout(replicated);                         // the default generator: seed 1234 everywhere
//   {
//     auto guard = tensor_parallel_rng_tracker().fork();   // this rank's stream
//     att = dropout(att_local_heads);
//   }
//
// parallelize_module's SequenceParallel Dropout forks by itself (its input is a sequence chunk),
// when the tracker holds the stream.

#include <cstdint>
#include <map>
#include <string>

#include "brasa/core/tensor.h"
#include "brasa/distributed/device_mesh.h"

namespace brasa::distributed {

/// The name of the stream that sharded regions draw from (Megatron's).
inline constexpr const char* kModelParallelRNG = "model-parallel-rng";
/// Megatron's offset of the tensor-parallel seed: rank r's stream is seeded seed + 2718 + r.
inline constexpr uint64_t kModelParallelSeedOffset = 2718;

/// Named random streams beside the default generator. A fork makes one of them the default
/// generator's state for its lifetime: every draw that uses the default generator (dropout,
/// rand, bernoulli, ...) inside it comes from that stream, which advances; the default
/// generator's own state is restored when the fork ends, as if nothing had been drawn.
class BRASA_API RNGStatesTracker {
 public:
  /// A new stream seeded with `seed` (an MT19937 generator, as the default one). ValueError when
  /// `name` exists or another stream has that seed (their draws would coincide).
  void add(const std::string& name, uint64_t seed);
  bool has(const std::string& name) const { return states_.count(name) != 0; }
  /// Drops every stream (ValueError inside a fork).
  void reset();
  /// The streams' states (Generator::get_state layout), for checkpoints; set_states replaces
  /// them (ValueError inside a fork or for a state of the wrong size).
  std::map<std::string, Tensor> get_states() const;
  void set_states(const std::map<std::string, Tensor>& states);
  /// The name of the stream forked now, or empty.
  const std::string& active() const { return active_; }

  class BRASA_API Fork {
   public:
    ~Fork();
    Fork(Fork&& other) noexcept;
    Fork(const Fork&) = delete;
    Fork& operator=(const Fork&) = delete;
    Fork& operator=(Fork&&) = delete;

   private:
    friend class RNGStatesTracker;
    Fork(RNGStatesTracker* tracker, std::string name);
    RNGStatesTracker* tracker_;  // null: nothing to undo (moved from, or nested in a fork of the
                                 // same stream)
    std::string name_;
    Tensor saved_;  // the default generator's state before the fork
  };
  /// Draws from stream `name` until the returned guard is destroyed. Inside a fork of the same
  /// stream it changes nothing; inside a fork of another stream, or for an unknown name, it is a
  /// ValueError naming the streams.
  [[nodiscard]] Fork fork(const std::string& name = kModelParallelRNG);

 private:
  std::map<std::string, Tensor> states_;
  std::map<uint64_t, std::string> seeds_;
  std::string active_;
};

/// The process-wide tracker that tensor parallel uses.
BRASA_API RNGStatesTracker& tensor_parallel_rng_tracker();

/// Megatron's model_parallel_cuda_manual_seed: the default generator is seeded with `seed` (the
/// same on every TP rank: replicated regions draw the same masks), and the tracker's
/// kModelParallelRNG stream, replaced if it exists, with seed + 2718 + the rank's index in `tp`
/// (sharded regions draw independent masks). `tp`: the 1-D TP mesh (mesh["tp"] on a 2-D mesh);
/// ValueError for another.
BRASA_API void tensor_parallel_manual_seed(uint64_t seed, const DeviceMesh& tp);
/// The same for TP rank `tp_rank` (no mesh: a single process emulating a rank, or tests).
BRASA_API void tensor_parallel_manual_seed(uint64_t seed, int64_t tp_rank);

}  // namespace brasa::distributed
