// fully_shard's unit: sharding, the all-gather before use, the reduce-scatter after backward.
//
// Note [FSDP2 in brasa]
// Each parameter stays the module's own leaf tensor (what optimizers hold) and switches its data
// with set_data: between steps it is this rank's dim-0 shard (a view of a shard buffer padded to
// the first chunk's rows, so every rank all-gathers equal-sized pieces); while unsharded it is
// the whole parameter, in a storage that lives as long as the unit. Resharding frees that
// storage's bytes but keeps the storage object, and unsharding gives it fresh bytes written
// through a separate tensor: the views autograd saved during forward (weight.t() of a Linear)
// keep pointing at the storage, and its version counter does not move, so backward after a
// reshard and re-gather reads the right values without tripping the in-place check (PyTorch
// frees and re-allocates by storage resize for the same reason).
//
// Backward is tracked per unit with hooks: a hook on the forward output re-gathers the
// parameters before the first gradient enters the unit; post-accumulate hooks count the
// parameters whose unsharded gradient is complete, and hooks on the tensor arguments that
// require grad tell that backward has left the unit. When both are complete the unit
// reduce-scatters (one collective for all its parameters) and reshards. While the unsharded
// gradients accumulate, the sharded .grad of earlier steps is put aside and added back.

#include <sstream>

#include "brasa/brasa.h"
#include "distributed/fsdp/fsdp_param.h"
#include "distributed/fsdp/fsdp_registry.h"
#include "distributed/tensor/collectives.h"

namespace brasa::distributed {

std::shared_ptr<FSDPState> FSDPState::create(std::shared_ptr<nn::Module> module,
                                             const DeviceMesh& mesh, FullyShardOptions options) {
  BRASA_CHECK(module != nullptr, "fully_shard: the module is null");
  BRASA_CHECK(mesh.ndim() == 1 || mesh.ndim() == 2, "fully_shard: expected a 1-D (FSDP) or 2-D ",
              "(HSDP) mesh, got ", mesh.to_string());
  std::shared_ptr<FSDPState> state(new FSDPState(std::move(module), mesh, std::move(options)));
  state->init_params();
  for (auto& unit : detail::live_units()) {
    if (unit.get() == state.get()) continue;
    if (detail::contains(*state->module_, *unit->module_)) unit->is_root_ = false;
    if (detail::contains(*unit->module_, *state->module_)) state->is_root_ = false;
  }
  detail::register_unit(state);
  return state;
}

FSDPState::FSDPState(std::shared_ptr<nn::Module> module, const DeviceMesh& mesh,
                     FullyShardOptions options)
    : module_(std::move(module)), mesh_(mesh), options_(std::move(options)) {}

FSDPState::~FSDPState() = default;

ProcessGroup& FSDPState::shard_group() const { return *mesh_.get_group(mesh_.ndim() - 1); }

void FSDPState::init_params() {
  for (auto& unit : detail::live_units()) {
    BRASA_CHECK(unit->module_.get() != module_.get(), "fully_shard: module '", module_->name(),
                "' is already sharded");
  }
  const int64_t n = shard_group().getSize();
  const int64_t rank = shard_group().getRank();
  const ScalarType compute_override =
      options_.mp_policy.param_dtype.value_or(ScalarType::Undefined);
  NoGradGuard no_grad;
  for (const auto& item : module_->named_parameters()) {
    const Tensor& t = item.value();
    bool seen = false;
    for (const auto& p : params_) seen = seen || p->param.is_same(t);
    if (seen) continue;  // the same tensor under a second name (tied within this module)
    if (auto owner = detail::unit_of(t)) {
      BRASA_CHECK(detail::contains(*module_, *owner->module_), "fully_shard(", module_->name(),
                  "): parameter '", item.key(), "' is already managed by the unit of module '",
                  owner->module_->name(),
                  "', which is not a submodule of this one: a parameter shared by two modules "
                  "(tied weights) must be managed by a unit of a common ancestor");
      continue;  // a submodule's unit manages it
    }
    BRASA_CHECK(t.dim() >= 1, "fully_shard(", module_->name(), "): parameter '", item.key(),
                "' is 0-d; dim-0 sharding needs at least one dim");
    BRASA_CHECK(t.is_contiguous(), "fully_shard(", module_->name(), "): parameter '", item.key(),
                "' of shape ", t.sizes(), " is not contiguous");
    auto p = std::make_unique<Param>();
    p->name = item.key();
    p->param = t;
    p->shape = t.sizes().vec();
    p->dtype = t.scalar_type();
    p->rows = t.size(0);
    p->chunk = (p->rows + n - 1) / n;
    p->row_numel = detail::elements(t.sizes().slice(1));
    const auto range = chunk_range(p->rows, n, rank);
    p->local_rows = range.second;
    std::vector<int64_t> padded_shape = p->shape;
    padded_shape[0] = p->chunk;
    p->padded = zeros(padded_shape, t.options());
    p->shard = p->padded.narrow(0, 0, p->local_rows);
    if (p->local_rows > 0) p->shard.copy_(t.narrow(0, range.first, p->local_rows));
    const ScalarType compute =
        compute_override == ScalarType::Undefined ? p->dtype : compute_override;
    p->full = empty(p->shape, t.options().dtype(compute));
    p->full.storage()->set_data(DataPtr(), 0);
    p->requires_grad = t.requires_grad();
    t.set_data(p->shard);
    if (p->requires_grad) {
      ++trainable_;
      std::weak_ptr<FSDPState> self = weak_from_this();
      t.register_post_accumulate_grad_hook([self](const Tensor&) {
        if (auto s = self.lock()) s->on_grad_accumulated();
      });
    }
    params_.push_back(std::move(p));
  }
}

bool FSDPState::manages(const Tensor& param) const {
  for (const auto& p : params_) {
    if (p->param.is_same(param)) return true;
  }
  return false;
}

DTensor FSDPState::sharded_parameter(const Tensor& param) const {
  for (const auto& p : params_) {
    if (!p->param.is_same(param)) continue;
    std::vector<Placement> placements{Shard(0)};
    if (mesh_.ndim() == 2) placements = {Replicate(), Shard(0)};
    return DTensor::from_local(p->shard, mesh_, placements, p->shape);
  }
  BRASA_THROW(ValueError, "fully_shard(", module_->name(), "): the tensor of shape ", param.sizes(),
              " is not one of this unit's parameters");
}

std::vector<std::pair<std::string, DTensor>> FSDPState::sharded_parameters() const {
  std::vector<std::pair<std::string, DTensor>> out;
  for (const auto& p : params_) out.emplace_back(p->name, sharded_parameter(p->param));
  return out;
}

int64_t FSDPState::sharded_bytes() const {
  int64_t n = 0;
  for (const auto& p : params_) n += static_cast<int64_t>(p->padded.nbytes());
  return n;
}

void FSDPState::restore_stashed_grads() {
  for (const auto& p : params_) {
    if (!p->stashed_grad.defined()) continue;
    p->param.mutable_grad() = std::move(p->stashed_grad);
    p->stashed_grad = Tensor();
  }
}

void FSDPState::pre_forward() {
  if (expecting_backward_) {
    if (grads_ready_ > 0 || inputs_reached_ > 0) {
      std::ostringstream missing;
      for (const auto& p : params_) {
        if (p->requires_grad && !p->param.grad().defined()) missing << " '" << p->name << "'";
      }
      BRASA_THROW(ValueError, "fully_shard(", module_->name(),
                  "): the previous backward did not finish in this unit: parameters", missing.str(),
                  " got no gradient. Every parameter that requires grad must take part in the "
                  "loss (or set requires_grad=false before fully_shard)");
    }
    expecting_backward_ = false;  // that forward's graph was dropped without a backward
    restore_stashed_grads();
  }
  note_forward_order();
  unshard();
  prefetch(+1);
  if (!GradMode::is_enabled()) return;
  for (const auto& p : params_) {
    if (!p->requires_grad || !p->param.grad().defined()) continue;
    p->stashed_grad = p->param.grad();
    p->param.mutable_grad() = Tensor();
  }
  expecting_backward_ = true;
  grads_ready_ = inputs_expected_ = inputs_reached_ = 0;
}

Tensor FSDPState::prepare_input(const Tensor& input) {
  Tensor x = input;
  const auto& mp = options_.mp_policy;
  if (mp.cast_forward_inputs && mp.param_dtype && x.defined() && x.is_floating_point() &&
      x.scalar_type() != *mp.param_dtype) {
    x = x.to(*mp.param_dtype);
  }
  if (expecting_backward_ && GradMode::is_enabled() && x.defined() && x.requires_grad()) {
    if (x.is_same(input)) x = x.alias();  // a node of this forward's own to hang the hook on
    ++inputs_expected_;
    std::weak_ptr<FSDPState> self = weak_from_this();
    x.register_hook([self](const Tensor&) {
      if (auto s = self.lock()) s->on_input_grad();
    });
  }
  return x;
}

namespace {
Tensor cast_output(const Tensor& out, const MixedPrecisionPolicy& mp) {
  if (!mp.output_dtype || !out.defined() || !out.is_floating_point()) return out;
  return out.to(*mp.output_dtype);
}
}  // namespace

std::vector<Tensor> FSDPState::post_forward(std::vector<Tensor> outputs) {
  const bool reshard_after = options_.reshard_after_forward.value_or(!is_root_);
  bool hooked = false;
  if (expecting_backward_) {
    std::weak_ptr<FSDPState> self = weak_from_this();
    for (const Tensor& out : outputs) {
      if (!out.defined() || !out.requires_grad()) continue;
      out.register_hook([self](const Tensor&) {
        if (auto s = self.lock()) s->pre_backward();
      });
      hooked = true;
    }
    if (!hooked) {
      expecting_backward_ = false;
      restore_stashed_grads();
    }
  }
  if (reshard_after || !expecting_backward_) reshard();
  if (is_root_ && recording_order_) {
    recording_order_ = false;
    order_known_ = true;
  }
  for (Tensor& out : outputs) out = cast_output(out, options_.mp_policy);
  return outputs;
}

Tensor FSDPState::post_forward(const Tensor& output) {
  return post_forward(std::vector<Tensor>{output}).front();
}

void FSDPState::post_forward_opaque() {
  if (!expecting_backward_) reshard();
  if (is_root_ && recording_order_) {
    recording_order_ = false;
    order_known_ = true;
  }
}

void FSDPState::abort_forward() noexcept {
  try {
    expecting_backward_ = false;
    restore_stashed_grads();
    reshard();
  } catch (...) {  // NOLINT(bugprone-empty-catch): the forward's own error is the one to report
  }
}

void FSDPState::pre_backward() {
  unshard();
  prefetch(-1);
}

void FSDPState::on_grad_accumulated() {
  if (!expecting_backward_) return;
  ++grads_ready_;
  maybe_post_backward();
}

void FSDPState::on_input_grad() {
  if (!expecting_backward_) return;
  ++inputs_reached_;
  maybe_post_backward();
}

void FSDPState::maybe_post_backward() {
  if (grads_ready_ >= trainable_ && inputs_reached_ >= inputs_expected_ &&
      (trainable_ > 0 || inputs_expected_ > 0)) {
    post_backward();
  }
}

void FSDPState::set_requires_gradient_sync(bool sync) {
  for (auto& unit : detail::live_units()) {
    if (detail::contains(*module_, *unit->module_)) unit->sync_ = sync;
  }
}

void FSDPState::set_reshard_after_forward(bool reshard) {
  options_.reshard_after_forward = reshard;
}

}  // namespace brasa::distributed
