// tp_worker's toy model (every style and layout the GPT plan does not use) and its bad plans:
//   toy STEPS OUT / toy-reference STEPS OUT: Toy trained with TP over all ranks / in one process.
//   errors: the typed errors of parallelize_module and of the forwards (2 ranks).
// Toy: token ids [B, T] ->
//   x   = tok(ids) + mix(pos(ids))   tok: Embedding Rowwise (vocabulary rows, padding_idx 7 on the
//                                    second half) -> Shard(1); pos: Embedding Colwise ->
//                                    Shard(-1) into mix: Linear Rowwise -> Shard(1)
//   h   = x + down(gelu(up(ln(x))))  ln: SequenceParallel; up: Colwise from Shard(1) (all-gather);
//                                    down: Rowwise to Shard(1) (reduce-scatter), with bias
//   out = head(ln2(h))               ln2: SequenceParallel; head: Colwise from Shard(1) to
//                                    Replicate() (all-gathers of the input and the output)

#include <cmath>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>

#include "brasa/brasa.h"
#include "brasa/distributed/init.h"
#include "brasa/distributed/tensor_parallel.h"
#include "brasa/nn/utils/forward_override.h"

namespace {
using namespace brasa;
namespace dist = brasa::distributed;
using nn::utils::call;

constexpr int64_t kV = 12, kD = 8, kB = 3, kT = 6;

struct ToyImpl : nn::Module {
  ToyImpl()
      : tok(nn::EmbeddingOptions(kV, kD).padding_idx(7)),
        pos(kV, kD),
        mix(kD, kD),
        ln(nn::LayerNormOptions({kD})),
        up(kD, 2 * kD),
        down(2 * kD, kD),
        ln2(nn::LayerNormOptions({kD})),
        head(kD, kV) {
    register_module("tok", tok);
    register_module("pos", pos);
    register_module("mix", mix);
    register_module("ln", ln);
    register_module("up", up);
    register_module("down", down);
    register_module("ln2", ln2);
    register_module("head", head);
    NoGradGuard no_grad;  // LayerNorms away from 1 and 0, so their gradients are tested
    ln->weight.normal_(1.0, 0.2);
    ln->bias.normal_(0.0, 0.2);
    ln2->weight.normal_(1.0, 0.2);
  }
  Tensor forward(const Tensor& ids) {
    Tensor x = call(tok, ids) + call(mix, call(pos, ids));
    Tensor h = x + call(down, gelu(call(up, call(ln, x))));
    return call(head, call(ln2, h));
  }
  nn::Embedding tok, pos;
  nn::Linear mix;
  nn::LayerNorm ln;
  nn::Linear up, down;
  nn::LayerNorm ln2;
  nn::Linear head;
};
BRASA_MODULE(Toy);

dist::ParallelizePlan toy_plan() {
  return {
      {"tok",
       dist::RowwiseParallel().input_layouts(dist::Replicate()).output_layouts(dist::Shard(1))},
      {"pos", dist::ColwiseParallel()},
      {"mix", dist::RowwiseParallel().output_layouts(dist::Shard(1))},
      {"ln", dist::SequenceParallel()},
      {"up", dist::ColwiseParallel().input_layouts(dist::Shard(1))},
      {"down", dist::RowwiseParallel().output_layouts(dist::Shard(1))},
      {"ln2", dist::SequenceParallel()},
      {"head",
       dist::ColwiseParallel().input_layouts(dist::Shard(1)).output_layouts(dist::Replicate())},
  };
}

Toy make_toy() {
  manual_seed(5);
  Toy toy;
  toy->to(kDouble);
  return toy;
}

void toy_batch(int64_t step, Tensor& ids, Tensor& target) {
  ids = empty({kB, kT}, kLong);
  target = empty({kB, kT}, kLong);
  for (int64_t i = 0; i < kB * kT; ++i) {
    const double k = static_cast<double>(step * 100 + i);
    ids.data_ptr<int64_t>()[i] = static_cast<int64_t>(std::abs(std::sin(k * 0.53)) * 1000) % kV;
    target.data_ptr<int64_t>()[i] = static_cast<int64_t>(std::abs(std::cos(k * 0.29)) * 1000) % kV;
  }
}

void save_run(const std::vector<double>& losses, const std::vector<Tensor>& params,
              const std::string& path) {
  std::vector<Tensor> out{tensor(losses, kDouble)};
  for (const auto& p : params) out.push_back(p.to(kDouble));
  brasa::save(out, path);
}

int toy_run(int64_t steps, const std::string& out, bool parallel) {
  IntrusivePtr<dist::ProcessGroup> pg;
  if (parallel) pg = dist::init_process_group("gloo");
  Toy toy = make_toy();
  if (parallel) {
    auto mesh = dist::init_device_mesh("cpu", {pg->getSize()});
    dist::parallelize_module(toy, mesh, toy_plan());
  }
  optim::AdamW opt(toy->parameters(), optim::AdamWOptions(1e-2).weight_decay(0.1));
  std::vector<double> losses;
  for (int64_t step = 0; step < steps; ++step) {
    Tensor ids, target;
    toy_batch(step, ids, target);
    opt.zero_grad();
    Tensor loss =
        nn::functional::cross_entropy(toy->forward(ids).reshape({-1, kV}), target.reshape({-1}));
    loss.backward();
    opt.step();
    losses.push_back(loss.item<double>());
  }
  std::vector<Tensor> full;
  for (const auto& p : toy->parameters()) full.push_back(dist::tensor_parallel_full_tensor(p));
  if (!parallel || pg->getRank() == 0) save_run(losses, full, out);
  if (parallel) dist::destroy_process_group();
  return 0;
}

int failures = 0;

template <typename Error>
void expect_error(const char* what, const std::function<void()>& fn, const std::string& text) {
  try {
    fn();
  } catch (const Error& e) {
    if (std::string(e.what()).find(text) != std::string::npos) return;
    std::fprintf(stderr, "%s: message without '%s': %s\n", what, text.c_str(), e.what());
    ++failures;
    return;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: wrong error type: %s\n", what, e.what());
    ++failures;
    return;
  }
  std::fprintf(stderr, "%s: no error\n", what);
  ++failures;
}

}  // namespace

int toy_reference(int64_t steps, const std::string& out) { return toy_run(steps, out, false); }
int toy_train(int64_t steps, const std::string& out) { return toy_run(steps, out, true); }

int error_checks() {
  auto pg = dist::init_process_group("gloo");
  const int64_t size = pg->getSize();
  auto mesh = dist::init_device_mesh("cpu", {size});
  auto mesh2d = dist::init_device_mesh("cpu", {1, size}, {"dp", "tp"});
  const auto tp_group = mesh.get_group(0);
  const uint32_t tp_group_refs = tp_group.use_count();  // before any module is parallelized
  expect_error<ValueError>(
      "unknown name",
      [&] {
        dist::parallelize_module(make_toy(), mesh, {{"mlp.fc", dist::ColwiseParallel()}});
      },
      "'mlp.fc', which is not a submodule of");
  expect_error<ValueError>(
      "2-D mesh", [&] { dist::parallelize_module(make_toy(), mesh2d, toy_plan()); },
      "expected the 1-D mesh of the TP ranks");
  expect_error<ValueError>(
      "indivisible out_features",
      [&] { dist::parallelize_module(nn::Linear(4, 5), mesh, dist::ColwiseParallel()); },
      "out_features (5) over 2 TP ranks");
  expect_error<ValueError>(
      "indivisible fused blocks",
      [&] { dist::parallelize_module(nn::Linear(4, 9), mesh, dist::ColwiseParallel().fused(3)); },
      "in 3 fused blocks");
  expect_error<ValueError>(
      "indivisible in_features",
      [&] { dist::parallelize_module(nn::Linear(3, 4), mesh, dist::RowwiseParallel()); },
      "in_features (3)");
  expect_error<TypeError>(
      "wrong module type",
      [&] {
        dist::parallelize_module(make_toy(), mesh, {{"ln", dist::ColwiseParallel()}});
      },
      "applies to Linear and Embedding, but 'ln' is a");
  expect_error<ValueError>(
      "Partial layout",
      [&] {
        dist::parallelize_module(nn::Linear(4, 4), mesh,
                                 dist::ColwiseParallel().output_layouts(dist::Partial()));
      },
      "a Partial tensor is reduced inside the style");
  expect_error<ValueError>(
      "SequenceParallel output on another dim",
      [&] {
        dist::parallelize_module(make_toy(), mesh,
                                 {{"ln", dist::SequenceParallel().output_layouts(dist::Shard(0))}});
      },
      "the output is Shard(sequence_dim) or Replicate()");
  expect_error<NotImplementedError>(
      "max_norm",
      [&] {
        dist::parallelize_module(nn::Embedding(nn::EmbeddingOptions(4, 4).max_norm(1.0)), mesh,
                                 dist::RowwiseParallel());
      },
      "max_norm");
  {
    // A plan that fails part way changes nothing; a module cannot be parallelized twice.
    Toy toy = make_toy();
    expect_error<TypeError>(
        "plan failing late",
        [&] {
          dist::parallelize_module(
              toy, mesh, {{"up", dist::ColwiseParallel()}, {"ln", dist::RowwiseParallel()}});
        },
        "'ln'");
    if (toy->up->weight.size(0) != 2 * kD || dist::tensor_parallel_layout(toy->up->weight)) {
      std::fprintf(stderr, "a failed plan changed 'up'\n");
      ++failures;
    }
    dist::parallelize_module(toy, mesh, {{"up", dist::ColwiseParallel()}});
    expect_error<ValueError>(
        "twice",
        [&] {
          dist::parallelize_module(toy, mesh, {{"up", dist::ColwiseParallel()}});
        },
        "'up' is already parallelized");
    // An activation the ranks do not divide: Rowwise to Shard(1) of a length-5 sequence.
    nn::Linear row(4, 4);
    dist::parallelize_module(row, mesh, dist::RowwiseParallel().output_layouts(dist::Shard(1)));
    expect_error<ValueError>(
        "odd sequence",
        [&] {
          call(row, ones({2, 5, 4 / size}, kFloat));
        },
        "do not divide");
  }
  // Note [Layouts live with their module], Note [Overrides go with their module]: once every
  // parallelized module above is destroyed, tensor parallelism holds the TP group no more (their
  // layouts in the registry and their forward overrides kept the group, and through it the
  // TCPStore server, until the process ended).
  if (tp_group.use_count() != tp_group_refs) {
    std::fprintf(stderr, "destroyed parallelized modules still hold the TP group (%u, was %u)\n",
                 tp_group.use_count(), tp_group_refs);
    ++failures;
  }
  dist::destroy_process_group();
  return failures == 0 ? 0 : 1;
}
