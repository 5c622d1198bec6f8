#pragma once
// FSDP2 (torch.distributed.fsdp.fully_shard): sharded data parallelism with per-parameter dim-0
// sharding (Note [FSDP2 in brasa], docs/distributed.md).
//
//   auto mesh = brasa::distributed::init_device_mesh("cpu", {world});
//   std::vector<FSDPModule<Block>> blocks;
//   for (auto& b : model->blocks) blocks.push_back(fully_shard(b, mesh));  // bottom-up
//   auto root = fully_shard(model, mesh);
//   AdamW opt(model->parameters(), ...);          // after sharding: optimizer state is per shard
//   loss_fn(root(x), y).backward();  opt.step();
//
// fully_shard(module) takes the module's parameters not already taken by a unit below it, and
// makes each a dim-0 shard (torch.chunk sizes: the last ranks may hold fewer rows, or none): the
// module's parameter tensors hold the local shard between steps, so an optimizer built over
// model->parameters() updates shards and keeps sharded state. Calling a unit through its
// FSDPModule all-gathers its parameters before forward and frees them after
// (reshard_after_forward), all-gathers again when backward reaches the unit's output, and
// reduce-scatters the gradients (averaged over ranks) into sharded .grad once backward has
// passed through the unit, then frees the unsharded parameters.
//
// C++ modules have no forward hooks, so a unit runs FSDP's steps only when it is called through
// its FSDPModule (operator()): a parent's forward must call its sharded children through their
// FSDPModule handles, not through the plain module.

#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "brasa/autograd/grad_mode.h"
#include "brasa/distributed/dtensor.h"
#include "brasa/nn/module.h"

namespace brasa::distributed {

/// torch.distributed.fsdp.MixedPrecisionPolicy. param_dtype: the dtype of the all-gathered
/// parameters that forward and backward compute in (the shards stay in their own dtype and are
/// the optimizer's master copy); reduce_dtype: the dtype gradients are reduce-scattered in
/// (unset: param_dtype's); output_dtype: forward outputs are cast to it; cast_forward_inputs:
/// floating-point tensor arguments are cast to param_dtype.
struct MixedPrecisionPolicy {
  std::optional<ScalarType> param_dtype;
  std::optional<ScalarType> reduce_dtype;
  std::optional<ScalarType> output_dtype;
  bool cast_forward_inputs = true;
};

struct FullyShardOptions {
  /// Free the unsharded parameters after forward (and all-gather them again for backward).
  /// Unset: true, except for the root unit (the outermost), which keeps them since backward
  /// starts with it.
  std::optional<bool> reshard_after_forward;
  MixedPrecisionPolicy mp_policy;
  /// Start the next unit's all-gather early: in forward the one after this unit, in backward the
  /// one before it, in the order the first forward ran them (Note [FSDP prefetch]).
  bool prefetch = true;
};

/// One fully_shard unit: its parameters, their shards and the FSDP steps around its forward and
/// backward. Made by fully_shard; FSDPModule drives it.
class BRASA_API FSDPState : public std::enable_shared_from_this<FSDPState> {
 public:
  /// Shards `module`'s parameters that no unit of a submodule manages (see fully_shard).
  static std::shared_ptr<FSDPState> create(std::shared_ptr<nn::Module> module,
                                           const DeviceMesh& mesh, FullyShardOptions options);
  ~FSDPState();
  FSDPState(const FSDPState&) = delete;
  FSDPState& operator=(const FSDPState&) = delete;

  /// Before forward: all-gathers the parameters (if sharded) and puts sharded grads aside.
  void pre_forward();
  /// Each tensor argument: cast by the policy; when it requires grad, backward's arrival at it
  /// is one of the signals that the unit's backward is complete.
  Tensor prepare_input(const Tensor& input);
  /// After forward: reshards if asked, arranges the all-gather before backward, casts outputs.
  Tensor post_forward(const Tensor& output);
  std::vector<Tensor> post_forward(std::vector<Tensor> outputs);
  /// After a forward whose output type FSDP cannot hook (the parameters stay unsharded until
  /// backward has passed through the unit).
  void post_forward_opaque();
  /// Called when forward throws: restores the sharded state.
  void abort_forward() noexcept;

  /// All-gathers the parameters into the module's tensors (no-op when unsharded).
  void unshard();
  /// Points the module's tensors back at the shards and frees the unsharded storage.
  void reshard();

  /// While false, backward accumulates unsharded gradients locally (in the reduce dtype) and
  /// does not communicate; the next backward with sync reduce-scatters the sum. Applies to this
  /// unit and every unit inside its module.
  void set_requires_gradient_sync(bool sync);
  void set_reshard_after_forward(bool reshard);

  nn::Module& module() const { return *module_; }
  const DeviceMesh& mesh() const { return mesh_; }
  bool is_root() const { return is_root_; }
  bool is_unsharded() const { return unsharded_; }
  /// Names (relative to module()) and sharded forms of the parameters this unit manages.
  std::vector<std::pair<std::string, DTensor>> sharded_parameters() const;
  /// Whether `param` (a module's tensor) is one of this unit's parameters.
  bool manages(const Tensor& param) const;
  /// The sharded form of one managed parameter: its local piece shares the shard's storage, so
  /// writing into to_local() changes the parameter. ValueError when not managed here.
  DTensor sharded_parameter(const Tensor& param) const;
  /// Time this unit's all-gathers kept forward or backward waiting, and how many ran.
  double all_gather_wait_seconds() const { return all_gather_wait_seconds_; }
  int64_t all_gathers() const { return all_gathers_; }
  /// Of them, how many had been started early by a prefetch.
  int64_t prefetched() const { return prefetched_; }
  /// The bytes of this rank's shards (the padded storage), of all managed parameters.
  int64_t sharded_bytes() const;

  struct Param;
  struct Gather;

 private:
  FSDPState(std::shared_ptr<nn::Module> module, const DeviceMesh& mesh, FullyShardOptions options);
  void init_params();
  void start_unshard();
  void note_forward_order();
  void prefetch(int step);
  void on_grad_accumulated();
  void on_input_grad();
  void pre_backward();
  void maybe_post_backward();
  void post_backward();
  void restore_stashed_grads();
  ProcessGroup& shard_group() const;

  std::shared_ptr<nn::Module> module_;
  DeviceMesh mesh_;
  FullyShardOptions options_;
  std::vector<std::unique_ptr<Param>> params_;
  bool is_root_ = true;
  bool unsharded_ = false;
  bool sync_ = true;
  bool expecting_backward_ = false;
  int64_t trainable_ = 0;            // parameters that require grad
  int64_t grads_ready_ = 0;          // of them, accumulated in the current backward
  int64_t inputs_expected_ = 0;      // tensor arguments that require grad in the current forward
  int64_t inputs_reached_ = 0;       // of them, reached by the current backward
  std::unique_ptr<Gather> pending_;  // an all-gather started and not yet used
  double all_gather_wait_seconds_ = 0;
  int64_t all_gathers_ = 0;
  int64_t prefetched_ = 0;
  // Note [FSDP prefetch]: the root records its units' forward order; each unit its position.
  std::vector<std::weak_ptr<FSDPState>> order_;
  bool recording_order_ = false;
  bool order_known_ = false;
  std::weak_ptr<FSDPState> root_;
  int64_t position_ = -1;
};

/// A module made a fully_shard unit; calling it runs FSDP's steps around the module's forward.
template <typename ModuleType>
class FSDPModule {
 public:
  FSDPModule(ModuleType module, std::shared_ptr<FSDPState> state)
      : module_(std::move(module)), state_(std::move(state)) {}

  template <typename... Args>
  auto operator()(Args&&... args) {
    state_->pre_forward();
    try {
      auto out = module_->forward(prepare(std::forward<Args>(args))...);
      using Out = decltype(out);
      if constexpr (std::is_same_v<Out, Tensor> || std::is_same_v<Out, std::vector<Tensor>>) {
        return state_->post_forward(std::move(out));
      } else {
        state_->post_forward_opaque();
        return out;
      }
    } catch (...) {
      state_->abort_forward();
      throw;
    }
  }
  template <typename... Args>
  auto forward(Args&&... args) {
    return (*this)(std::forward<Args>(args)...);
  }

  auto operator->() const { return module_.operator->(); }
  ModuleType& module() { return module_; }
  FSDPState& state() const { return *state_; }
  void unshard() { state_->unshard(); }
  void reshard() { state_->reshard(); }
  void set_requires_gradient_sync(bool sync) { state_->set_requires_gradient_sync(sync); }
  void set_reshard_after_forward(bool reshard) { state_->set_reshard_after_forward(reshard); }

 private:
  template <typename A>
  decltype(auto) prepare(A&& a) {
    if constexpr (std::is_same_v<std::decay_t<A>, Tensor>) {
      return state_->prepare_input(a);
    } else {
      return std::forward<A>(a);
    }
  }

  ModuleType module_;
  std::shared_ptr<FSDPState> state_;
};

namespace detail {
template <typename M>
std::shared_ptr<nn::Module> module_pointer(const M& m) {
  if constexpr (nn::detail::is_module_holder_v<M>) {
    return m.ptr();
  } else {
    return m;
  }
}
}  // namespace detail

/// Makes `module` (a ModuleHolder or std::shared_ptr to a Module) a unit of FSDP over `mesh` (1-D:
/// Shard(0) over its ranks; 2-D: HSDP, replicated over dim 0 and sharded over dim 1). Apply it
/// bottom-up: a module's unit skips parameters that units of its submodules manage. Every rank
/// must call it in the same order, with the same parameters (as from the same seed): the
/// parameters are not broadcast. ValueError for a 0-d or non-contiguous parameter, a parameter
/// managed by a unit that is not a submodule's (tie shared parameters at a common ancestor), or
/// a module already sharded.
template <typename ModuleType>
FSDPModule<ModuleType> fully_shard(ModuleType module, const DeviceMesh& mesh,
                                   FullyShardOptions options = {}) {
  auto state = FSDPState::create(detail::module_pointer(module), mesh, std::move(options));
  return FSDPModule<ModuleType>(std::move(module), std::move(state));
}

/// Every parameter and buffer of `model` (names as named_parameters / named_buffers): managed
/// parameters as their Shard(0) DTensors, the others Replicate.
BRASA_API std::vector<std::pair<std::string, DTensor>> get_sharded_state_dict(
    nn::Module& model, const DeviceMesh& mesh);
/// The same entries as whole tensors on every rank (the shards all-gathered; a collective).
BRASA_API std::vector<std::pair<std::string, Tensor>> get_full_state_dict(nn::Module& model,
                                                                          const DeviceMesh& mesh);
/// Loads whole tensors (as from get_full_state_dict or a single-process model): each rank keeps
/// its chunk of the managed parameters. ValueError naming a missing or unexpected entry or a
/// shape mismatch; nothing is changed then.
BRASA_API void set_full_state_dict(nn::Module& model,
                                   const std::vector<std::pair<std::string, Tensor>>& state);
/// Loads a sharded state dict of the same layout (as from get_sharded_state_dict): local shards
/// are copied in. ValueError as above, or for a different placement or global shape.
BRASA_API void set_sharded_state_dict(nn::Module& model,
                                      const std::vector<std::pair<std::string, DTensor>>& state);

}  // namespace brasa::distributed
