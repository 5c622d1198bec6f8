// The forwards parallelize_module installs: input layout -> the style's compute layout, the
// module's computation on the local shard, its result -> the output layout. Which collective
// each conversion runs (and its backward) is Note [Tensor parallel in brasa] in tp_plan.cpp.

#include <optional>

#include "brasa/brasa.h"
#include "brasa/distributed/tensor_parallel_random.h"
#include "distributed/tensor_parallel/tp_module.h"

namespace brasa::distributed::detail::tp {
namespace {

int64_t dim_of(const Placement& p, const Tensor& x) { return p.dim < 0 ? p.dim + x.dim() : p.dim; }

void check_even(const TPModule& m, const Tensor& x, int64_t dim, const char* what) {
  BRASA_CHECK(dim >= 0 && dim < x.dim(), m.style.to_string(), " on '", m.name, "': ", what, " dim ",
              dim, " is out of range for an input of shape ", x.sizes());
  BRASA_CHECK(x.size(dim) % m.ranks == 0, m.style.to_string(), " on '", m.name, "': ", what,
              " dim ", dim, " of the input ", x.sizes(), " has size ", x.size(dim), ", which the ",
              m.ranks, " TP ranks do not divide");
}

// Colwise: the input made Replicate (its gradient comes back partial, so it is all-reduced).
Tensor colwise_input(const TPModule& m, const Tensor& x) {
  const Placement& in = m.style.input_layout();
  if (in.is_replicate()) return copy_to_parallel(x, m.group);
  return gather_for_parallel(x, m.group, dim_of(in, x));
}

// Colwise: the local Shard(-1) result made the output layout.
Tensor colwise_output(const TPModule& m, const Tensor& y) {
  if (m.style.output_layout().is_replicate()) return gather_to_replicated(y, m.group, -1);
  return y;
}

// Rowwise: the partial result made the output layout.
Tensor rowwise_output(const TPModule& m, const Tensor& y) {
  const Placement& out = m.style.output_layout();
  if (out.is_replicate()) return reduce_from_parallel(y, m.group);
  const int64_t d = dim_of(out, y);
  check_even(m, y, d, "the output's sharded");
  return reduce_scatter_to_shard(y, m.group, d);
}

Tensor linear_forward(const TPModule& m, nn::LinearImpl& linear, const Tensor& input) {
  const auto& opts = linear.options;
  if (m.style.kind() == ParallelStyle::Kind::Colwise) {
    Tensor x = colwise_input(m, input);
    BRASA_CHECK(x.dim() >= 1 && x.size(-1) == opts.in_features(), "Linear(in=", opts.in_features(),
                ", out=", opts.out_features(), ") '", m.name,
                "' (ColwiseParallel): input's last dim is ", x.dim() ? x.size(-1) : 0,
                ", expected ", opts.in_features());
    return colwise_output(m, ::brasa::linear(x, linear.weight, linear.bias));
  }
  // Rowwise: the input made Shard(-1) (a whole input: each rank takes its chunk).
  Tensor x = input;
  if (m.style.input_layout().is_replicate()) {
    check_even(m, x, x.dim() - 1, "the input's last");
    x = chunk_to_shard(x, m.group, -1);
  }
  const int64_t local_in = opts.in_features() / m.ranks;
  BRASA_CHECK(x.dim() >= 1 && x.size(-1) == local_in, "Linear(in=", opts.in_features(),
              ", out=", opts.out_features(), ") '", m.name, "' (RowwiseParallel over ", m.ranks,
              " ranks): input's last dim is ", x.dim() ? x.size(-1) : 0, ", expected its shard of ",
              local_in);
  Tensor y = rowwise_output(m, ::brasa::linear(x, linear.weight, Tensor()));
  if (!linear.bias.defined()) return y;
  // After a reduce-scatter each rank adds the bias to its own rows only: its gradient is partial.
  const Tensor bias =
      m.style.output_layout().is_replicate() ? linear.bias : copy_to_parallel(linear.bias, m.group);
  return y + bias;
}

Tensor embedding_forward(const TPModule& m, nn::EmbeddingImpl& emb, const Tensor& input) {
  Tensor idx = input;
  const Placement& in = m.style.input_layout();
  if (in.is_shard()) idx = gather_no_grad(idx, m.group, dim_of(in, idx));
  const int64_t padding = emb.options.padding_idx().value_or(-1);
  if (m.style.kind() == ParallelStyle::Kind::Colwise) {
    return colwise_output(m, embedding(emb.weight, idx, padding));
  }
  // Rowwise: rows [row_offset, row_offset + rows) of the vocabulary live here; the other ids
  // look up row 0 and are zeroed, so the all-reduce sums exactly one row per id.
  const Tensor outside = logical_or(lt(idx, m.row_offset), ge(idx, m.row_offset + m.rows));
  const Tensor local = (idx - m.row_offset).masked_fill(outside, 0);
  const int64_t local_padding =
      padding >= m.row_offset && padding < m.row_offset + m.rows ? padding - m.row_offset : -1;
  Tensor y = embedding(emb.weight, local, local_padding).masked_fill(outside.unsqueeze(-1), 0);
  return rowwise_output(m, y);
}

// SequenceParallel: the module runs on this rank's chunk of the sequence; its replicated
// parameters get partial gradients, so they pass through copy_to_parallel.
Tensor sequence_forward(const TPModule& m, nn::Module& module, const Tensor& input) {
  Tensor x = input;
  const int64_t d = m.style.seq_dim() < 0 ? m.style.seq_dim() + x.dim() : m.style.seq_dim();
  if (m.style.input_layout().is_replicate()) {
    check_even(m, x, d, "the sequence");
    x = chunk_to_shard(x, m.group, d);
  } else {
    BRASA_CHECK(d >= 0 && d < x.dim(), m.style.to_string(), " on '", m.name,
                "': sequence dim is out of range for an input of shape ", x.sizes());
  }
  Tensor y;
  if (m.type == ModuleType::Dropout) {
    // A sharded region: this rank's stream, when the tracker has one (Note [Tensor-parallel RNG]).
    RNGStatesTracker& rng = tensor_parallel_rng_tracker();
    std::optional<RNGStatesTracker::Fork> fork;
    if (rng.has(kModelParallelRNG)) fork.emplace(rng.fork());
    y = static_cast<nn::DropoutImpl&>(module).forward(x);
  } else {
    auto& ln = static_cast<nn::LayerNormImpl&>(module);
    std::optional<Tensor> weight, bias;
    if (ln.weight.defined()) weight = copy_to_parallel(ln.weight, m.group);
    if (ln.bias.defined()) bias = copy_to_parallel(ln.bias, m.group);
    y = layer_norm(x, ln.options.normalized_shape(), weight, bias, ln.options.eps());
  }
  // Replicate(): the sequence-parallel region ends here (replicated compute follows, whose
  // gradient is whole on every rank: backward keeps this rank's chunk).
  return m.style.output_layout().is_replicate() ? gather_to_replicated(y, m.group, d) : y;
}

}  // namespace

Tensor forward(const TPModule& m, const Tensor& input) {
  auto module = m.module.lock();
  BRASA_CHECK(module != nullptr, "tensor parallel: module '", m.name, "' no longer exists");
  switch (m.type) {
    case ModuleType::Linear: return linear_forward(m, static_cast<nn::LinearImpl&>(*module), input);
    case ModuleType::Embedding:
      return embedding_forward(m, static_cast<nn::EmbeddingImpl&>(*module), input);
    case ModuleType::LayerNorm:
    case ModuleType::Dropout: return sequence_forward(m, *module, input);
  }
  return input;
}

}  // namespace brasa::distributed::detail::tp
