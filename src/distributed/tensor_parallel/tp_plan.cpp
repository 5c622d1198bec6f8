// parallelize_module: the styles, matching a plan to submodules, checking it, sharding the
// parameters and installing the forwards.
//
// Note [Tensor parallel in brasa]
// Activations stay plain tensors; a style's layouts say what they hold on each rank. The
// parameters of a parallelized module switch their data (set_data) to this rank's piece, so the
// module's own tensors -- what optimizers and fully_shard see -- are the shards. Its forward is
// replaced (nn::utils::call) by one that converts the input, computes on the shard and converts
// the result, each conversion a differentiable collective (tp_comm.h) whose backward is the one
// the gradient's layout needs:
//   Colwise  input Replicate        identity            | backward all-reduce (partial grads)
//            input Shard(d)         all-gather d        | backward reduce-scatter d
//            output Replicate       all-gather -1       | backward local chunk
//   Rowwise  input Replicate        local chunk of -1   | backward all-gather -1
//            output Replicate       all-reduce          | backward identity
//            output Shard(d)        reduce-scatter d    | backward all-gather d
//   Sequence input Replicate        local chunk of d    | backward all-gather d
//            output Replicate       all-gather d        | backward local chunk
//            parameters             identity            | backward all-reduce (partial grads)
// Rowwise adds its (replicated) bias after the reduction. A block of Colwise then Rowwise with
// the defaults therefore runs one all-reduce forward (Rowwise's output) and one backward
// (Colwise's input), as Megatron-LM's f and g do. Sharded dims must be even (each rank's size
// times the TP ranks), which parallelize_module checks for parameters and the forwards check for
// activations.

#include <map>
#include <mutex>
#include <sstream>

#include "brasa/brasa.h"
#include "brasa/nn/utils/forward_override.h"
#include "distributed/tensor/collectives.h"
#include "distributed/tensor_parallel/tp_module.h"

namespace brasa::distributed {

ParallelStyle::ParallelStyle(Kind kind) : kind_(kind) {
  switch (kind) {
    case Kind::Colwise: input_ = Replicate(), output_ = Shard(-1); break;
    case Kind::Rowwise: input_ = Shard(-1), output_ = Replicate(); break;
    case Kind::Sequence: input_ = Shard(1), output_ = Shard(1); break;
  }
}

ParallelStyle ParallelStyle::input_layouts(Placement layout) const {
  ParallelStyle s = *this;
  s.input_ = layout;
  return s;
}

ParallelStyle ParallelStyle::output_layouts(Placement layout) const {
  ParallelStyle s = *this;
  s.output_ = layout;
  return s;
}

ParallelStyle ParallelStyle::fused(int64_t parts) const {
  BRASA_CHECK(parts >= 1, "ColwiseParallel.fused: expected a positive number of parts, got ",
              parts);
  ParallelStyle s = *this;
  s.fused_ = parts;
  return s;
}

ParallelStyle ParallelStyle::sequence_dim(int64_t dim) const {
  ParallelStyle s = *this;
  s.sequence_dim_ = dim;
  s.input_ = input_.is_shard() ? Shard(dim) : input_;
  s.output_ = output_.is_shard() ? Shard(dim) : output_;
  return s;
}

std::string ParallelStyle::to_string() const {
  std::ostringstream s;
  s << (kind_ == Kind::Colwise   ? "ColwiseParallel"
        : kind_ == Kind::Rowwise ? "RowwiseParallel"
                                 : "SequenceParallel")
    << "(input_layouts=" << input_.to_string() << ", output_layouts=" << output_.to_string();
  if (fused_ != 1) s << ", fused=" << fused_;
  if (kind_ == Kind::Sequence) s << ", sequence_dim=" << sequence_dim_;
  return s.str() + ")";
}

ParallelStyle ColwiseParallel() { return ParallelStyle(ParallelStyle::Kind::Colwise); }
ParallelStyle RowwiseParallel() { return ParallelStyle(ParallelStyle::Kind::Rowwise); }
ParallelStyle SequenceParallel(int64_t sequence_dim) {
  return ParallelStyle(ParallelStyle::Kind::Sequence).sequence_dim(sequence_dim);
}

namespace {
using detail::tp::ModuleType;
using detail::tp::TPModule;

// ---- the registry of parallelized modules and their parameters' layouts ----

// Note [Layouts live with their module]: the registry lives for the whole process and a layout
// holds its DeviceMesh (its process groups, and through them the TCPStore and its server's
// threads), so the registry keeps layouts weakly. Their owner is the module's TPModule state,
// which its forward override holds, and which goes when the module is destroyed.
// A live layout means a live module (its state goes with the module's override), so the layout
// alone tells a parameter of a destroyed module from one that reuses its address.
struct ParamEntry {
  const TensorImpl* impl;
  std::weak_ptr<const TensorParallelLayout> layout;
};

struct Registry {
  std::mutex mutex;
  std::vector<std::weak_ptr<nn::Module>> modules;
  std::vector<ParamEntry> params;
};

Registry& registry() {
  static Registry* r = new Registry();
  return *r;
}

bool is_parallelized(const nn::Module& m) {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto& w : r.modules) {
    if (w.lock().get() == &m) return true;
  }
  return false;
}

// ---- one planned module: checks, then the sharding ----

struct Planned {
  std::string name;
  std::shared_ptr<nn::Module> module;
  ParallelStyle style;
  ModuleType type;
};

const char* kind_name(ParallelStyle::Kind k) {
  return k == ParallelStyle::Kind::Colwise   ? "ColwiseParallel"
         : k == ParallelStyle::Kind::Rowwise ? "RowwiseParallel"
                                             : "SequenceParallel";
}

ModuleType type_of(const Planned& p) {
  const nn::Module& m = *p.module;
  const bool sequence = p.style.kind() == ParallelStyle::Kind::Sequence;
  if (!sequence && dynamic_cast<const nn::LinearImpl*>(&m)) return ModuleType::Linear;
  if (!sequence && dynamic_cast<const nn::EmbeddingImpl*>(&m)) return ModuleType::Embedding;
  if (sequence && dynamic_cast<const nn::LayerNormImpl*>(&m)) return ModuleType::LayerNorm;
  if (sequence && dynamic_cast<const nn::DropoutImpl*>(&m)) return ModuleType::Dropout;
  BRASA_THROW(TypeError, "parallelize_module: ", kind_name(p.style.kind()), " applies to ",
              sequence ? "LayerNorm and Dropout" : "Linear and Embedding", ", but '", p.name,
              "' is a ", m.name());
}

void check_layouts(const Planned& p) {
  const ParallelStyle& s = p.style;
  const std::string where = "parallelize_module: " + s.to_string() + " on '" + p.name + "': ";
  const Placement& in = s.input_layout();
  const Placement& out = s.output_layout();
  BRASA_CHECK(!in.is_partial() && !out.is_partial(), where,
              "layouts must be Replicate() or Shard(d); a Partial tensor is reduced inside the "
              "style, not passed between modules");
  switch (s.kind()) {
    case ParallelStyle::Kind::Colwise:
      BRASA_CHECK(out.is_replicate() || out.is_shard(-1), where,
                  "ColwiseParallel's output is Shard(-1) or Replicate()");
      BRASA_CHECK(s.fused_parts() == 1 || p.type == ModuleType::Linear, where,
                  "fused parts apply to a Linear only");
      BRASA_CHECK(s.fused_parts() == 1 || !out.is_replicate(), where,
                  "a fused Linear's output stays Shard(-1) (its blocks are sharded one by one)");
      break;
    case ParallelStyle::Kind::Rowwise:
      BRASA_CHECK(s.fused_parts() == 1, where, "fused parts apply to ColwiseParallel only");
      BRASA_CHECK(p.type == ModuleType::Embedding || in.is_replicate() || in.is_shard(-1), where,
                  "a Linear's input is Shard(-1) (the features the rank holds) or Replicate()");
      break;
    case ParallelStyle::Kind::Sequence:
      BRASA_CHECK(in.is_replicate() || in.is_shard(s.seq_dim()), where,
                  "the input is Shard(sequence_dim) or Replicate()");
      BRASA_CHECK(out.is_replicate() || out.is_shard(s.seq_dim()), where,
                  "the output is Shard(sequence_dim) or Replicate()");
      break;
  }
}

// The dim of the weight that the style shards (-1: none), with the message's dim name.
int64_t weight_shard_dim(const Planned& p) {
  const bool col = p.style.kind() == ParallelStyle::Kind::Colwise;
  switch (p.type) {
    case ModuleType::Linear: return col ? 0 : 1;
    case ModuleType::Embedding: return col ? 1 : 0;
    default: return -1;
  }
}

void check_divisible(const Planned& p, int64_t ranks) {
  const int64_t d = weight_shard_dim(p);
  if (d < 0) return;
  // A copy: named_parameters() returns its dict by value, and a reference into that temporary
  // dangles once this statement ends (a heap use-after-free Valgrind found, session 12).
  const Tensor w = p.module->named_parameters(false)["weight"];
  const int64_t parts = d == 0 && p.type == ModuleType::Linear ? p.style.fused_parts() : 1;
  const char* what = p.type == ModuleType::Linear ? (d == 0 ? "out_features" : "in_features")
                                                  : (d == 0 ? "num_embeddings" : "embedding_dim");
  BRASA_CHECK(w.size(d) % (ranks * parts) == 0, "parallelize_module: ", p.style.to_string(),
              " on '", p.name, "' shards its ", what, " (", w.size(d), ")", " over ", ranks,
              " TP ranks", parts > 1 ? " in " + std::to_string(parts) + " fused blocks" : "",
              ", which does not divide evenly: ", what, " must be a multiple of ", ranks * parts);
}

void check_embedding_options(const Planned& p) {
  if (p.type != ModuleType::Embedding) return;
  const auto& o = static_cast<const nn::EmbeddingImpl&>(*p.module).options;
  BRASA_CHECK_NOT_IMPLEMENTED(!o.max_norm() && !o.sparse(), "parallelize_module: '", p.name,
                              "': Embedding with max_norm or sparse gradients is not supported "
                              "under tensor parallel");
  BRASA_CHECK_NOT_IMPLEMENTED(
      !(o.scale_grad_by_freq() && p.style.kind() == ParallelStyle::Kind::Rowwise),
      "parallelize_module: '", p.name,
      "': RowwiseParallel Embedding with scale_grad_by_freq is not supported (each rank counts "
      "only its own rows)");
}

// This rank's piece of `full` under the layout (fused blocks sharded one by one).
Tensor piece(const Tensor& full, const TensorParallelLayout& l, int64_t ranks, int64_t rank) {
  if (!l.placement.is_shard()) return full.clone();
  const int64_t d = l.placement.dim;
  if (l.fused == 1) return detail::local_chunk(full, d, ranks, rank);
  std::vector<int64_t> blocks = full.sizes().vec();
  blocks[0] /= l.fused;
  blocks.insert(blocks.begin(), l.fused);
  Tensor local = detail::local_chunk(full.reshape(blocks), 1, ranks, rank);
  std::vector<int64_t> shape = full.sizes().vec();
  shape[0] /= ranks;
  return local.reshape(shape);
}

TensorParallelLayout layout_of(const Planned& p, const std::string& param, const Tensor& value,
                               const DeviceMesh& mesh) {
  TensorParallelLayout l{mesh, Replicate(), 1, value.sizes().vec()};
  const int64_t d = weight_shard_dim(p);
  if (d < 0) return l;
  if (param == "weight") {
    l.placement = Shard(d);
    if (p.type == ModuleType::Linear && d == 0) l.fused = p.style.fused_parts();
  } else if (param == "bias" && p.style.kind() == ParallelStyle::Kind::Colwise) {
    l.placement = Shard(0);
    l.fused = p.style.fused_parts();
  }
  return l;
}

void apply(const Planned& p, const DeviceMesh& mesh) {
  auto group = mesh.get_group(0);
  const int64_t ranks = group->getSize(), rank = group->getRank();
  std::vector<ParamEntry> entries;
  std::vector<std::shared_ptr<const TensorParallelLayout>> layouts;
  {
    NoGradGuard no_grad;
    for (const auto& item : p.module->named_parameters(false)) {
      Tensor param = item.value();
      auto l = std::make_shared<const TensorParallelLayout>(layout_of(p, item.key(), param, mesh));
      if (l->placement.is_shard()) param.set_data(piece(param, *l, ranks, rank));
      entries.push_back({param.unsafeGetTensorImpl(), l});
      layouts.push_back(std::move(l));
    }
  }
  auto state = std::make_shared<TPModule>(
      TPModule{p.module, p.name, p.type, p.style, group, ranks, rank, 0, 0, std::move(layouts)});
  if (p.type == ModuleType::Embedding && p.style.kind() == ParallelStyle::Kind::Rowwise) {
    const auto& o = static_cast<const nn::EmbeddingImpl&>(*p.module).options;
    state->rows = o.num_embeddings() / ranks;
    state->row_offset = state->rows * rank;
  }
  nn::utils::set_forward_override(
      *p.module, [state](const Tensor& x) { return detail::tp::forward(*state, x); });
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.modules.push_back(p.module);
  for (auto& e : entries) r.params.push_back(std::move(e));
  std::erase_if(r.params, [](const ParamEntry& e) { return e.layout.expired(); });
  std::erase_if(r.modules, [](const std::weak_ptr<nn::Module>& w) { return w.expired(); });
}

bool matches(const std::string& pattern, const std::string& name) {
  auto split = [](const std::string& s) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t i = 0; i <= s.size(); ++i) {
      if (i == s.size() || s[i] == '.') {
        parts.push_back(s.substr(start, i - start));
        start = i + 1;
      }
    }
    return parts;
  };
  const auto a = split(pattern), b = split(name);
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != "*" && a[i] != b[i]) return false;
  }
  return true;
}

void run(const std::shared_ptr<nn::Module>& module, const DeviceMesh& mesh,
         std::vector<std::pair<std::string, ParallelStyle>> plan, bool self) {
  BRASA_CHECK(module != nullptr, "parallelize_module: the module is null");
  BRASA_CHECK(mesh.ndim() == 1, "parallelize_module: expected the 1-D mesh of the TP ranks, got ",
              mesh.to_string(), " (on a 2-D mesh pass its TP dim, mesh[\"tp\"])");
  const int64_t ranks = mesh.size();
  std::vector<Planned> planned;
  for (const auto& [pattern, style] : plan) {
    bool found = false;
    if (self) {
      planned.push_back({module->name(), module, style, ModuleType::Linear});
      found = true;
    } else {
      for (const auto& item : module->named_modules("", /*include_self=*/false)) {
        if (!matches(pattern, item.key())) continue;
        planned.push_back({item.key(), item.value(), style, ModuleType::Linear});
        found = true;
      }
    }
    if (!found) {
      std::ostringstream known;
      int shown = 0;
      for (const auto& item : module->named_modules("", false)) {
        if (shown++ < 12) known << (shown > 1 ? ", " : "") << "'" << item.key() << "'";
      }
      BRASA_THROW(ValueError, "parallelize_module: the plan names '", pattern,
                  "', which is not a submodule of ", module->name(),
                  " (its submodules: ", shown ? known.str() : std::string("none"),
                  shown > 12 ? ", ..." : "", ")");
    }
  }
  for (size_t i = 0; i < planned.size(); ++i) {
    Planned& p = planned[i];
    for (size_t j = 0; j < i; ++j) {
      BRASA_CHECK(planned[j].module != p.module, "parallelize_module: '", p.name,
                  "' is named twice by the plan");
    }
    BRASA_CHECK(!is_parallelized(*p.module), "parallelize_module: '", p.name,
                "' is already parallelized");
    p.type = type_of(p);
    check_layouts(p);
    check_divisible(p, ranks);
    check_embedding_options(p);
  }
  for (const auto& p : planned) apply(p, mesh);
}

}  // namespace

void parallelize_module(const std::shared_ptr<nn::Module>& module, const DeviceMesh& mesh,
                        const ParallelizePlan& plan) {
  run(module, mesh, plan, false);
}

void parallelize_module(const std::shared_ptr<nn::Module>& module, const DeviceMesh& mesh,
                        const ParallelStyle& style) {
  run(module, mesh, {{std::string(), style}}, true);
}

std::optional<TensorParallelLayout> tensor_parallel_layout(const Tensor& param) {
  if (!param.defined()) return std::nullopt;
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto& e : r.params) {
    if (e.impl != param.unsafeGetTensorImpl()) continue;
    if (auto layout = e.layout.lock()) return *layout;
  }
  return std::nullopt;
}

DTensor tensor_parallel_dtensor(const Tensor& param) {
  const auto l = tensor_parallel_layout(param);
  BRASA_CHECK(l.has_value(), "tensor_parallel_dtensor: the tensor of shape ",
              param.defined() ? param.sizes() : IntArrayRef(),
              " is not a parameter of a module parallelize_module took");
  BRASA_CHECK(l->fused == 1, "tensor_parallel_dtensor: the parameter of shape ",
              IntArrayRef(l->shape), " is sharded in ", l->fused,
              " fused blocks, which one placement cannot describe; use "
              "tensor_parallel_full_tensor for its whole value");
  return DTensor::from_local(param, l->mesh, {l->placement}, l->shape);
}

Tensor tensor_parallel_full_tensor(const Tensor& param, const Tensor& local) {
  const Tensor value = local.defined() ? local : param;
  const auto l = tensor_parallel_layout(param);
  if (!l || !l->placement.is_shard()) return value;
  auto group = l->mesh.get_group(0);
  const int64_t ranks = group->getSize(), d = l->placement.dim;
  BRASA_CHECK(value.dim() == static_cast<int64_t>(l->shape.size()) &&
                  value.size(d) * ranks == l->shape[static_cast<size_t>(d)],
              "tensor_parallel_full_tensor: a piece of shape ", value.sizes(),
              " is not this rank's shard of the parameter's ", IntArrayRef(l->shape), " (",
              l->placement.to_string(), " over ", ranks, " ranks)");
  NoGradGuard no_grad;
  if (l->fused == 1) return detail::gather_dim(*group, value, d, l->shape[static_cast<size_t>(d)]);
  std::vector<int64_t> blocks = value.sizes().vec();
  blocks[0] /= l->fused;
  blocks.insert(blocks.begin(), l->fused);
  Tensor whole = detail::gather_dim(*group, value.reshape(blocks), 1, blocks[1] * ranks);
  return whole.reshape(l->shape);
}

}  // namespace brasa::distributed
