// One rank of the FSDP / DeviceMesh / DTensor tests (tests/distributed/test_fsdp.cpp), started by
// brasarun:
//   fsdp_worker train STEPS OUT [--accum K] [--bf16] [--hsdp] [--no-reshard]
//     trains Net with fully_shard (each block a unit, then the root) on a global batch of 24
//     split across the ranks, AdamW; rank 0 saves the full parameters (named_parameters order).
//   fsdp_worker reference STEPS OUT [--accum K] [--float]
//     the same training in one process on the whole global batch.
//   fsdp_worker dtensor
//     DeviceMesh and DTensor checks on a 1-D mesh (and a 2-D one on 4 ranks); exit 1 on failure.
//   fsdp_worker state-dict
//     full and sharded state dicts, loads, rejected loads, the tied-weight rule.
//   fsdp_worker die allgather|reduce-scatter
//     rank 1 killed where rank 0 enters a unit's collective (fsdp_worker_die.cpp).
// Net has H = 7 features (uneven shards on 2 and 4 ranks, an empty one for the 3-row tensor on
// 4), a weight tied between the input projection and the output (the root unit manages it), a
// buffer and a frozen parameter in every block. --accum K: K micro-batches per step, all but the
// last without gradient sync; the reference takes one step on the K-times batch. --bf16:
// MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=float32) on a float32 model. --hsdp: a
// 2 x (world / 2) mesh, shards over its second dim, replicas over its first. --no-reshard:
// reshard_after_forward = false (parameters stay gathered from forward to the end of backward).

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>

#include "brasa/brasa.h"
#include "brasa/distributed/fsdp.h"
#include "brasa/distributed/init.h"
#include "fsdp_net.h"

namespace {
using namespace brasa;
namespace dist = brasa::distributed;
using fsdp_test::Block;
using fsdp_test::kIn;
using fsdp_test::Net;

constexpr int64_t kGlobalBatch = 24;

void batch(int64_t step, int64_t first, int64_t count, ScalarType dtype, Tensor& x, Tensor& y) {
  x = empty({count, kIn}, kDouble);
  y = empty({count, kIn}, kDouble);
  for (int64_t i = 0; i < count * kIn; ++i) {
    const double k = static_cast<double>((step * 1000 + first) * kIn + i);
    x.data_ptr<double>()[i] = std::sin(k * 0.37);
    y.data_ptr<double>()[i] = std::cos(k * 0.23) * 0.5;
  }
  x = x.to(dtype);
  y = y.to(dtype);
}

optim::AdamW make_optimizer(Net& net) {
  return optim::AdamW(net->parameters(), optim::AdamWOptions(0.01).weight_decay(0.05));
}

void save_full(const std::vector<std::pair<std::string, Tensor>>& state, Net& net,
               const std::string& path) {
  std::vector<Tensor> params;
  for (const auto& item : net->named_parameters()) {
    for (const auto& e : state) {
      if (e.first == item.key()) params.push_back(e.second.to(kDouble));
    }
  }
  brasa::save(params, path);
}

void require(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(what);
}

// Every parameter holds this rank's torch.chunk rows (and so do its grad and optimizer state
// once they exist): the parameters of all ranks add up to the model's.
void check_sharded(Net& net, int rank, int size) {
  Net whole;
  auto full = whole->named_parameters();
  for (const auto& item : net->named_parameters()) {
    const Tensor& p = item.value();
    const int64_t rows = full[item.key()].size(0);
    require(p.size(0) == dist::chunk_range(rows, size, rank).second, "a parameter is not sharded");
    require(!p.grad().defined() || p.grad().sizes() == p.sizes(), "a gradient is not sharded");
  }
}

int reference(int64_t steps, const std::string& out, int64_t accum, ScalarType dtype) {
  manual_seed(7);
  Net net;
  net->to(dtype);
  auto opt = make_optimizer(net);
  for (int64_t s = 0; s < steps; ++s) {
    opt.zero_grad();
    Tensor x, y;
    batch(s, 0, kGlobalBatch * accum, dtype, x, y);
    nn::functional::mse_loss(net->forward(x), y).backward();
    opt.step();
  }
  std::vector<std::pair<std::string, Tensor>> state;
  for (const auto& item : net->named_parameters()) state.emplace_back(item.key(), item.value());
  save_full(state, net, out);
  return 0;
}

int train(int64_t steps, const std::string& out, int64_t accum, bool bf16, bool hsdp,
          bool keep_unsharded) {
  auto pg = dist::init_process_group("gloo");
  const int rank = pg->getRank(), size = pg->getSize();
  const ScalarType dtype = bf16 ? kFloat : kDouble;
  manual_seed(7);  // the same initial parameters on every rank (fully_shard does not broadcast)
  Net net;
  net->to(dtype);
  // HSDP: replicated over mesh dim 0, sharded over dim 1.
  auto mesh = hsdp ? dist::init_device_mesh("cpu", {2, size / 2}, {"replicate", "shard"})
                   : dist::init_device_mesh("cpu", {size});
  const int shard_rank = mesh.get_local_rank(mesh.ndim() - 1);
  const int shard_size = static_cast<int>(mesh.size(mesh.ndim() - 1));
  dist::FullyShardOptions options;
  if (keep_unsharded) options.reshard_after_forward = false;  // SHARD_GRAD_OP / ZeRO-2
  if (bf16) {
    options.mp_policy.param_dtype = kBFloat16;
    options.mp_policy.reduce_dtype = kFloat;
  }
  std::vector<dist::FSDPModule<Block>> units;
  for (size_t i = 0; i < net->blocks.size(); ++i) {
    units.push_back(dist::fully_shard(net->blocks[i], mesh, options));
    net->calls[i] = [u = units.back()](const Tensor& x) mutable { return u(x); };
  }
  auto root_options = options;
  if (bf16) root_options.mp_policy.output_dtype = kFloat;
  auto root = dist::fully_shard(net, mesh, root_options);
  check_sharded(net, shard_rank, shard_size);
  auto opt = make_optimizer(net);  // over the shards
  const int64_t local = kGlobalBatch / size;
  for (int64_t s = 0; s < steps; ++s) {
    opt.zero_grad();
    for (int64_t m = 0; m < accum; ++m) {
      root.set_requires_gradient_sync(m + 1 == accum);
      Tensor x, y;
      // Micro-batch m of rank r: rows of the reference's K-times batch, so the sums match.
      batch(s, (m * size + rank) * local, local, dtype, x, y);
      Tensor loss = nn::functional::mse_loss(root(x), y) / static_cast<double>(accum);
      // Between forward and backward the blocks are resharded, the root is not.
      for (auto& u : units) {
        require(u.state().is_unsharded() == keep_unsharded, "a block's state after forward");
      }
      require(root.state().is_unsharded() && root.state().is_root(), "the root was resharded");
      loss.backward();
      for (auto& u : units) require(!u.state().is_unsharded(), "a block stayed unsharded");
      require(!root.state().is_unsharded(), "the root stayed unsharded after backward");
    }
    opt.step();
  }
  check_sharded(net, shard_rank, shard_size);  // the parameters and their grads
  for (const Tensor& p : net->parameters()) {  // AdamW's moments are per shard
    auto it = opt.state().find(optim::param_key(p));
    if (it == opt.state().end()) continue;  // the frozen parameter
    const auto& st = static_cast<const optim::AdamWParamState&>(*it->second);
    require(st.exp_avg().sizes() == p.sizes() && st.exp_avg_sq().sizes() == p.sizes(),
            "AdamW's state is not sharded");
  }
  auto state = dist::get_full_state_dict(*net, mesh);
  if (rank == 0) save_full(state, net, out);
  dist::destroy_process_group();
  return 0;
}

}  // namespace

int dtensor_checks();                             // fsdp_worker_dtensor.cpp
int state_dict_checks();                          // fsdp_worker_state.cpp
int die_in_collective(const std::string& phase);  // fsdp_worker_die.cpp

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    int64_t accum = 1;
    bool bf16 = false, single = false, hsdp = false, keep = false;
    for (int i = 4; i < argc; ++i) {
      if (std::strcmp(argv[i], "--accum") == 0 && i + 1 < argc) accum = std::stoll(argv[++i]);
      if (std::strcmp(argv[i], "--bf16") == 0) bf16 = true;
      if (std::strcmp(argv[i], "--float") == 0) single = true;
      if (std::strcmp(argv[i], "--hsdp") == 0) hsdp = true;
      if (std::strcmp(argv[i], "--no-reshard") == 0) keep = true;
    }
    if (mode == "train" && argc >= 4)
      return train(std::stoll(argv[2]), argv[3], accum, bf16, hsdp, keep);
    if (mode == "reference" && argc >= 4)
      return reference(std::stoll(argv[2]), argv[3], accum, single ? kFloat : kDouble);
    if (mode == "dtensor") return dtensor_checks();
    if (mode == "state-dict") return state_dict_checks();
    if (mode == "die" && argc >= 3) return die_in_collective(argv[2]);
    std::fprintf(stderr, "usage: fsdp_worker train|reference STEPS OUT [...] | dtensor\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fsdp_worker: %s\n", e.what());
    return 1;
  }
}
