#pragma once
// Tensor parallelism (torch.distributed.tensor.parallel): parallelize_module shards the
// parameters of chosen Linear / Embedding / LayerNorm submodules over a 1-D mesh (the TP ranks)
// and replaces their forward with one that computes on the local shard and runs the collectives
// the style prescribes, in forward and (through autograd) in backward (Note [Tensor parallel in
// brasa], docs/distributed.md).
//
//   auto tp = init_device_mesh("cpu", {2, 2}, {"dp", "tp"})["tp"];
//   parallelize_module(block, tp, {{"attn.qkv", ColwiseParallel().fused(3)},
//                                  {"attn.proj", RowwiseParallel()},
//                                  {"mlp.fc", ColwiseParallel()},
//                                  {"mlp.proj", RowwiseParallel()}});
//
// Styles, with torch 2.x's defaults (`layouts` describe the plain tensors that flow between
// modules: activations stay ordinary tensors, use_local_output is always true):
//   ColwiseParallel   Linear: weight and bias Shard(0); Embedding: weight Shard(1).
//                     Input Replicate() (or Shard(d): all-gathered), output Shard(-1) (or
//                     Replicate(): all-gathered).
//   RowwiseParallel   Linear: weight Shard(1), bias Replicate(); input Shard(-1) (or Replicate():
//                     each rank takes its chunk). Embedding: weight Shard(0) (vocabulary rows),
//                     masked lookup; give it input_layouts(Replicate()) for token ids as PyTorch
//                     does. Output Partial, made Replicate() by an all-reduce (or Shard(d) by a
//                     reduce-scatter: sequence parallel).
//   SequenceParallel  LayerNorm (and Dropout): parameters Replicate(), the input is this rank's
//                     chunk of the sequence dim (input_layouts(Replicate()) chunks a whole input),
//                     output Shard(sequence_dim) (or Replicate(): all-gathered, backward keeps
//                     this rank's chunk -- where a sequence-parallel region ends before
//                     replicated compute, as a GPT's final LayerNorm before its output layer);
//                     gradients of the parameters are all-reduced.
// A Colwise -> Rowwise pair (an MLP; attention's qkv -> out projection) costs one all-reduce in
// forward and one in backward.
//
// C++ modules have no forward hooks: the model must call the parallelized submodules through
// brasa::nn::utils::call(module, x) (brasa/nn/utils/forward_override.h), where their new forward
// is installed, and must not assume the global sizes of sharded outputs (attention: infer the
// local head count from the qkv output, as view(B, T, 3, -1, head_dim) does).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "brasa/distributed/dtensor.h"
#include "brasa/nn/module.h"

namespace brasa::distributed {

class BRASA_API ParallelStyle {
 public:
  enum class Kind : uint8_t { Colwise, Rowwise, Sequence };
  explicit ParallelStyle(Kind kind);

  /// The layout of the plain tensor the module receives (Replicate() or Shard(d)).
  ParallelStyle input_layouts(Placement layout) const;
  /// The layout the module's output is given (Replicate() or Shard(d); for Colwise, Shard(-1)).
  ParallelStyle output_layouts(Placement layout) const;
  /// Colwise on a Linear whose output features are `parts` equal consecutive blocks (a fused
  /// q/k/v projection): each block is sharded on its own, so every rank holds the same heads of
  /// q, k and v. Default 1.
  ParallelStyle fused(int64_t parts) const;
  /// SequenceParallel's sequence dim (default 1).
  ParallelStyle sequence_dim(int64_t dim) const;

  Kind kind() const { return kind_; }
  const Placement& input_layout() const { return input_; }
  const Placement& output_layout() const { return output_; }
  int64_t fused_parts() const { return fused_; }
  int64_t seq_dim() const { return sequence_dim_; }
  std::string to_string() const;

 private:
  Kind kind_;
  Placement input_, output_;
  int64_t fused_ = 1;
  int64_t sequence_dim_ = 1;
};

BRASA_API ParallelStyle ColwiseParallel();
BRASA_API ParallelStyle RowwiseParallel();
BRASA_API ParallelStyle SequenceParallel(int64_t sequence_dim = 1);

/// Submodule names (as named_modules spells them; a `*` component matches any one name, as in
/// "blocks.*.mlp.fc") and their styles.
using ParallelizePlan = std::vector<std::pair<std::string, ParallelStyle>>;

/// Applies `plan` to `module`'s submodules over `mesh` (1-D: on a larger mesh pass its TP dim,
/// mesh["tp"]). Every rank must call it with the same model (as from the same seed): parameters
/// are not broadcast, each rank keeps its piece. Nothing is changed when it throws: ValueError
/// for a mesh that is not 1-D, a name that matches no submodule, a module already parallelized,
/// a dim the TP ranks do not divide (Linear's out_features x fused parts for Colwise, its
/// in_features for Rowwise; Embedding's embedding_dim / num_embeddings), a layout the style does
/// not take; TypeError for a module type the style does not apply to; NotImplementedError for
/// Embedding's max_norm, sparse, or Rowwise with scale_grad_by_freq.
BRASA_API void parallelize_module(const std::shared_ptr<nn::Module>& module, const DeviceMesh& mesh,
                                  const ParallelizePlan& plan);
/// One style for `module` itself.
BRASA_API void parallelize_module(const std::shared_ptr<nn::Module>& module, const DeviceMesh& mesh,
                                  const ParallelStyle& style);

template <typename ModuleHolder, typename = decltype(std::declval<const ModuleHolder&>().ptr())>
void parallelize_module(const ModuleHolder& module, const DeviceMesh& mesh,
                        const ParallelizePlan& plan) {
  parallelize_module(std::static_pointer_cast<nn::Module>(module.ptr()), mesh, plan);
}
template <typename ModuleHolder, typename = decltype(std::declval<const ModuleHolder&>().ptr())>
void parallelize_module(const ModuleHolder& module, const DeviceMesh& mesh,
                        const ParallelStyle& style) {
  parallelize_module(std::static_pointer_cast<nn::Module>(module.ptr()), mesh, style);
}

/// How parallelize_module sharded a parameter: on `mesh`, `placement` of the global `shape`
/// (Shard(0), Shard(1) or Replicate()); `fused` > 1: dim 0 is `fused` blocks each sharded alone.
struct TensorParallelLayout {
  DeviceMesh mesh;
  Placement placement;
  int64_t fused = 1;
  std::vector<int64_t> shape;
};

/// The layout of `param` if parallelize_module sharded or replicated it, else nullopt.
BRASA_API std::optional<TensorParallelLayout> tensor_parallel_layout(const Tensor& param);
/// `param` as the DTensor its layout describes (its local piece is the parameter's own data,
/// shared): Shard(0), Shard(1) or Replicate() on the TP mesh. ValueError for a parameter
/// parallelize_module did not take, and for a fused one (its blocks are sharded one by one, which
/// one placement cannot say: use tensor_parallel_full_tensor).
BRASA_API DTensor tensor_parallel_dtensor(const Tensor& param);
/// The whole value of `param` from `local`, this rank's piece of it (default: the parameter's own
/// data; under fully_shard pass the piece it gathered): an all-gather over the TP mesh for
/// sharded parameters (every rank of it must call), `local` itself for the others.
BRASA_API Tensor tensor_parallel_full_tensor(const Tensor& param, const Tensor& local = Tensor());

/// The collectives tensor parallel ran in this process, by phase (a count per call, of any size).
struct TensorParallelCounts {
  int64_t all_reduce = 0, all_gather = 0, reduce_scatter = 0;
};
struct TensorParallelStats {
  TensorParallelCounts forward, backward;
};
BRASA_API TensorParallelStats tensor_parallel_stats();
BRASA_API void reset_tensor_parallel_stats();

}  // namespace brasa::distributed
