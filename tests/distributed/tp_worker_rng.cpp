// tp_worker's dropout model for the tensor-parallel RNG tracker (Note [Tensor-parallel RNG]):
//   rng STEPS OUT SEED            trained with TP over all ranks (2), tensor_parallel_manual_seed
//   rng-reference STEPS OUT SEED  the same in one process, each sharded region's mask drawn the
//                                 way TP rank r draws it: from a generator seeded
//                                 SEED + 2718 + r, on that rank's shard, the shards concatenated
// Model (float64), x [B, T, D]:
//   h = drop_sharded(gelu(fc(x)))    fc: ColwiseParallel -> h is Shard(-1); the dropout runs
//                                    inside tensor_parallel_rng_tracker().fork()
//   y = drop_replicated(proj(h))     proj: RowwiseParallel -> replicated; the default generator
//   z = sp_drop(x + y)               nn::Dropout, SequenceParallel from and to Replicate(): each
//                                    rank drops its chunk of T (the tracker's stream, forked by
//                                    the style itself), all-gathered
//   out = head(z)                    replicated Linear; loss mse(out, target)
// The TP run also checks, on every step, that the replicated region's mask is the same on both
// ranks, that the sharded regions' masks differ, and that after the step the default
// generators agree while the tracker's streams differ.

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "brasa/brasa.h"
#include "brasa/distributed/init.h"
#include "brasa/distributed/tensor_parallel.h"
#include "brasa/distributed/tensor_parallel_random.h"
#include "brasa/nn/utils/forward_override.h"

namespace {
using namespace brasa;
namespace dist = brasa::distributed;
namespace F = brasa::nn::functional;
using nn::utils::call;

constexpr int64_t kB = 4, kT = 6, kD = 8, kHidden = 16, kRanks = 2;
constexpr double kP = 0.3;

struct DropNetImpl : nn::Module {
  DropNetImpl() : fc(kD, kHidden), proj(kHidden, kD), sp_drop(kP), head(kD, kD) {
    register_module("fc", fc);
    register_module("proj", proj);
    register_module("sp_drop", sp_drop);
    register_module("head", head);
  }
  nn::Linear fc, proj;
  nn::Dropout sp_drop;
  nn::Linear head;
};
BRASA_MODULE(DropNet);

F::DropoutFuncOptions drop() { return F::DropoutFuncOptions().p(kP); }

// The reference's mask of a region sharded on `dim` over kRanks ranks: rank r's piece drawn from
// gens[r], as that rank draws it.
Tensor sharded_mask(std::vector<int64_t> shape, int64_t dim, std::vector<Generator>& gens) {
  shape[static_cast<size_t>(dim)] /= kRanks;
  std::vector<Tensor> pieces;
  for (auto& g : gens) pieces.push_back(F::dropout(ones(shape, kDouble), drop(), g));
  return cat(pieces, dim);
}

// All-gathers `t` over the group and says whether every rank's piece is bit-identical to rank 0's.
bool same_on_all_ranks(dist::ProcessGroup& pg, const Tensor& t) {
  std::vector<Tensor> mine{t.to(kDouble).contiguous()};
  std::vector<std::vector<Tensor>> all(1);
  for (int r = 0; r < pg.getSize(); ++r) all[0].push_back(empty_like(mine[0]));
  pg.allgather(all, mine)->wait();
  for (const auto& other : all[0]) {
    if (!equal(other, all[0][0])) return false;
  }
  return true;
}

void batch(int64_t step, Tensor& x, Tensor& y) {
  x = empty({kB, kT, kD}, kDouble);
  y = empty({kB, kT, kD}, kDouble);
  for (int64_t i = 0; i < kB * kT * kD; ++i) {
    const double k = static_cast<double>(step * 1000 + i);
    x.data_ptr<double>()[i] = std::sin(k * 0.41);
    y.data_ptr<double>()[i] = std::cos(k * 0.17) * 0.5;
  }
}

void check(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("tp_worker rng: " + what);
}

int rng_run(int64_t steps, const std::string& out, uint64_t seed, bool parallel) {
  IntrusivePtr<dist::ProcessGroup> pg;
  if (parallel) pg = dist::init_process_group("gloo");
  manual_seed(5);
  DropNet net;
  net->to(kDouble);
  std::vector<Generator> gens;  // the reference's emulation of the TP ranks' streams
  if (parallel) {
    check(pg->getSize() == kRanks, "needs 2 ranks");
    auto mesh = dist::init_device_mesh("cpu", {kRanks});
    dist::parallelize_module(net, mesh,
                             {{"fc", dist::ColwiseParallel()},
                              {"proj", dist::RowwiseParallel()},
                              {"sp_drop", dist::SequenceParallel()
                                              .input_layouts(dist::Replicate())
                                              .output_layouts(dist::Replicate())}});
    dist::tensor_parallel_manual_seed(seed, mesh);
  } else {
    manual_seed(seed);
    for (int64_t r = 0; r < kRanks; ++r)
      gens.push_back(make_generator(seed + dist::kModelParallelSeedOffset + r));
  }
  auto& tracker = dist::tensor_parallel_rng_tracker();
  optim::AdamW opt(net->parameters(), optim::AdamWOptions(1e-2).weight_decay(0.1));
  std::vector<double> losses;
  for (int64_t step = 0; step < steps; ++step) {
    Tensor x, target;
    batch(step, x, target);
    opt.zero_grad();
    Tensor h = gelu(call(net->fc, x)), hd, y, yd, z, zd;
    if (parallel) {
      auto fork = tracker.fork();
      hd = F::dropout(h, drop());
    } else {
      hd = h * sharded_mask({kB, kT, kHidden}, 2, gens);
    }
    y = call(net->proj, hd);
    yd = F::dropout(y, drop());
    z = x + yd;
    zd = parallel ? call(net->sp_drop, z) : z * sharded_mask({kB, kT, kD}, 1, gens);
    Tensor loss = F::mse_loss(call(net->head, zd), target);
    loss.backward();
    opt.step();
    losses.push_back(loss.item<double>());
    if (parallel) {
      check(tracker.active().empty(), "a fork outlived its scope");
      NoGradGuard no_grad;
      check(same_on_all_ranks(*pg, y), "the row-parallel output differs across ranks");
      check(same_on_all_ranks(*pg, ne(yd, 0)), "the replicated region's masks differ");
      check(!same_on_all_ranks(*pg, ne(hd, 0)), "the sharded region's masks coincide");
      // The sequence-parallel dropout: rank r's chunk of the gathered output is its own draw.
      auto chunks = ne(zd, 0).chunk(kRanks, 1);
      check(!equal(chunks[0], chunks[1]), "the sequence-parallel chunks share one mask");
      check(same_on_all_ranks(*pg, get_rng_state()), "the default generators differ");
      check(!same_on_all_ranks(*pg, tracker.get_states().at(dist::kModelParallelRNG)),
            "the TP streams coincide");
    }
  }
  std::vector<Tensor> saved{tensor(losses, kDouble)};
  for (const auto& p : net->parameters())
    saved.push_back(dist::tensor_parallel_full_tensor(p).to(kDouble));
  if (!parallel || pg->getRank() == 0) brasa::save(saved, out);
  if (parallel) dist::destroy_process_group();
  return 0;
}

}  // namespace

int rng_reference(int64_t steps, const std::string& out, uint64_t seed) {
  return rng_run(steps, out, seed, false);
}
int rng_train(int64_t steps, const std::string& out, uint64_t seed) {
  return rng_run(steps, out, seed, true);
}
