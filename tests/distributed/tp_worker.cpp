// One rank of the tensor-parallel tests (tests/distributed/test_tp.cpp), started by brasarun:
//   tp_worker gpt STEPS OUT [--float] [--sgd]
//     examples/char_gpt's model (tiny) with its blocks tensor parallel over all ranks: qkv
//     ColwiseParallel (fused q/k/v: heads split across ranks), attention's proj RowwiseParallel,
//     the MLP Colwise then Rowwise; AdamW; every rank checks the collectives of each step (one
//     all-reduce forward and one backward per attention and per MLP, nothing else); rank 0 saves
//     the losses and the whole parameters.
//   tp_worker gpt STEPS OUT --sp | gpt2d STEPS OUT --sp
//     with sequence parallel: the residual stream sharded on the sequence dim between the TP
//     regions (LayerNorms SequenceParallel, column-parallel inputs all-gathered, row-parallel
//     outputs reduce-scattered; the embeddings' sum chunked by the root's Dropout, ln_f's output
//     all-gathered).
//   tp_worker gpt2d STEPS OUT
//     the same on a 2 x 2 mesh ("dp", "tp"): TP over "tp", then fully_shard over "dp" (each block
//     a unit, then the root); the global batch split over "dp".
//   tp_worker gpt-reference STEPS OUT [--float] [--sgd]
//     the same training in one process. --float: float32 (else float64); --sgd: SGD with
//     momentum instead of AdamW (see make_optimizer).
//   tp_worker gpt3d STEPS R S OUT
//     HSDP x TP: a 3-D mesh (R, S, 2) {"dp_replicate", "dp_shard", "tp"}, TP over "tp", each block
//     and the root fully_shard over the 2-D ("dp_replicate", "dp_shard") mesh; the batch split
//     over its R x S ranks (R x S = 2).
//   tp_worker gpt2d-dcp STEPS DIR | gpt2d-dcp-resave SRC DST | gpt-dcp-resave SRC DST |
//             gpt3d-dcp STEPS R S SRC DST | dcp-compare A B
//     distributed checkpoints of the 2 x 2 model (see dcp_2d below).
//   tp_worker toy STEPS OUT | toy-reference STEPS OUT | errors     (tp_worker_toy.cpp)
//   tp_worker rng STEPS OUT SEED | rng-reference STEPS OUT SEED    (tp_worker_rng.cpp)
// Output: a tensor list, [losses, parameters in named_parameters order].

#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "brasa/distributed/checkpoint.h"
#include "brasa/distributed/fsdp.h"
#include "brasa/distributed/init.h"
#include "brasa/distributed/tensor_parallel.h"
#include "char_gpt/model.h"
#include "char_gpt/parallel.h"

namespace {
using namespace brasa;
namespace dist = brasa::distributed;
namespace dcp = brasa::distributed::checkpoint;

constexpr int64_t kVocab = 13, kT = 8, kGlobalBatch = 4, kLayers = 2;

GptConfig config() {
  GptConfig c;
  c.vocab_size = kVocab;
  c.block_size = kT;
  c.layers = kLayers;
  c.heads = 4;
  c.dim = 16;
  c.dropout = 0.0;
  return c;
}

Gpt make_model(ScalarType dtype) {
  manual_seed(11);  // the same initial parameters on every rank (nothing is broadcast)
  Gpt model(config());
  model->to(dtype);
  return model;
}

// Rows [first, first + count) of step `step`'s global batch: token ids and next-token targets.
void batch(int64_t step, int64_t first, int64_t count, Tensor& idx, Tensor& target) {
  Tensor all = empty({count, kT + 1}, kLong);
  int64_t* data = all.data_ptr<int64_t>();
  for (int64_t b = 0; b < count; ++b) {
    for (int64_t t = 0; t <= kT; ++t) {
      const double k = static_cast<double>((step * 31 + first + b) * (kT + 1) + t);
      data[b * (kT + 1) + t] = static_cast<int64_t>(std::abs(std::sin(k * 0.731)) * 1000) % kVocab;
    }
  }
  idx = all.narrow(1, 0, kT).contiguous();
  target = all.narrow(1, 1, kT).contiguous();
}

Tensor loss_of(const Tensor& logits, const Tensor& target) {
  return torch::nn::functional::cross_entropy(logits.reshape({-1, kVocab}), target.reshape({-1}));
}

// AdamW, or with --sgd SGD with momentum: the float32 comparison uses SGD, since AdamW scales
// each gradient to a step of about lr, rounding noise included -- and the key projection's bias
// has an exactly zero gradient (softmax ignores a constant added to every score of a row), so
// in float32 its AdamW steps are noise of size lr, in one process as much as over two.
bool use_sgd = false;

std::unique_ptr<optim::Optimizer> make_optimizer(Gpt& model) {
  if (use_sgd) {
    return std::make_unique<optim::SGD>(model->parameters(), optim::SGDOptions(0.1).momentum(0.9));
  }
  return std::make_unique<optim::AdamW>(model->parameters(),
                                        optim::AdamWOptions(1e-2).weight_decay(0.1));
}

void save_run(const std::vector<double>& losses, const std::vector<Tensor>& params,
              const std::string& path) {
  std::vector<Tensor> out{tensor(losses, kDouble)};
  for (const auto& p : params) out.push_back(p.to(kDouble));
  brasa::save(out, path);
}

void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error(what);
}

int64_t parameter_bytes(Gpt& model) {
  int64_t n = 0;
  for (const auto& p : model->parameters()) n += p.numel() * static_cast<int64_t>(p.element_size());
  return n;
}

// --sp: sequence parallel between the TP regions (Megatron-LM's sequence parallelism).
bool use_sp = false;

dist::ParallelizePlan block_plan() { return char_gpt_block_plan(use_sp); }

void parallelize_blocks(Gpt& model, const dist::DeviceMesh& tp) {
  for (const auto& m : *model->blocks) dist::parallelize_module(m, tp, block_plan());
  if (use_sp) {  // the embeddings' sum is chunked into the first block; ln_f gathers it back
    dist::parallelize_module(
        model, tp,
        {{"drop", dist::SequenceParallel().input_layouts(dist::Replicate())},
         {"ln_f", dist::SequenceParallel().output_layouts(dist::Replicate())}});
  }
}

// Exactly the collectives of Megatron-style TP in the last step: one all-reduce forward and one
// backward per attention and per MLP. With --sp each of those all-reduces is a reduce-scatter
// forward (the row-parallel output) and an all-gather (the column-parallel input), backward the
// reverse, plus ln_f's all-gather forward and the first chunk's backward; the gradients of the
// replicated parameters used on sequence shards (the LayerNorms', the row-parallel biases) are
// all-reduced in backward.
void check_step_collectives(int64_t step, int rank) {
  const auto s = dist::tensor_parallel_stats();
  const int64_t L = 2 * kLayers;
  const std::vector<int64_t> expected =
      use_sp ? std::vector<int64_t>{0, L + 1, L, 2 * (L + 1) + L, L + 1, L}
             : std::vector<int64_t>{L, 0, 0, L, 0, 0};
  const std::vector<int64_t> got{s.forward.all_reduce,     s.forward.all_gather,
                                 s.forward.reduce_scatter, s.backward.all_reduce,
                                 s.backward.all_gather,    s.backward.reduce_scatter};
  const auto text = [](const std::vector<int64_t>& v) {
    return "forward " + std::to_string(v[0]) + "/" + std::to_string(v[1]) + "/" +
           std::to_string(v[2]) + ", backward " + std::to_string(v[3]) + "/" +
           std::to_string(v[4]) + "/" + std::to_string(v[5]) +
           " all-reduce/all-gather/reduce-scatter";
  };
  if (rank == 0 && step == 0) std::printf("tp collectives per step: %s\n", text(got).c_str());
  require(got == expected, "step " + std::to_string(step) + ": TP ran " + text(got) +
                               ", expected " + text(expected));
}

// The shards TP made: q, k and v each split by heads, proj by its input features.
void check_layouts(Gpt& model, int64_t tp) {
  auto attn = model->blocks->ptr<BlockImpl>(0)->attn;
  const auto l = dist::tensor_parallel_layout(attn->qkv->weight);
  require(l && l->placement.is_shard(0) && l->fused == 3 &&
              attn->qkv->weight.sizes() == IntArrayRef({48 / tp, 16}),
          "qkv.weight is not a fused Shard(0) of 48/tp rows");
  const auto p = dist::tensor_parallel_layout(attn->proj->weight);
  require(p && p->placement.is_shard(1) && attn->proj->weight.size(1) == 16 / tp,
          "attn.proj.weight is not Shard(1)");
  const auto b = dist::tensor_parallel_layout(attn->proj->bias);
  require(b && b->placement.is_replicate() && attn->proj->bias.size(0) == 16,
          "attn.proj.bias is not Replicate()");
  require(!dist::tensor_parallel_layout(model->wte->weight), "wte was parallelized");
  // The DTensor view of a (non-fused) TP parameter: its whole value is the all-gathered one.
  const auto d = dist::tensor_parallel_dtensor(attn->proj->weight);
  require(d.placements()[0].is_shard(1) && d.shape() == std::vector<int64_t>{16, 16} &&
              d.full_tensor().equal(dist::tensor_parallel_full_tensor(attn->proj->weight)),
          "tensor_parallel_dtensor(attn.proj.weight) is not its Shard(1) DTensor");
  bool refused = false;
  try {
    dist::tensor_parallel_dtensor(attn->qkv->weight);
  } catch (const ValueError& e) {
    refused = std::string(e.what()).find("3 fused blocks") != std::string::npos;
  }
  require(refused, "tensor_parallel_dtensor(qkv.weight) did not refuse the fused layout");
}

int reference(int64_t steps, const std::string& out, ScalarType dtype) {
  Gpt model = make_model(dtype);
  auto opt = make_optimizer(model);
  std::vector<double> losses;
  for (int64_t step = 0; step < steps; ++step) {
    Tensor idx, target;
    batch(step, 0, kGlobalBatch, idx, target);
    opt->zero_grad();
    Tensor loss = loss_of(model(idx), target);
    loss.backward();
    opt->step();
    losses.push_back(loss.item<double>());
  }
  save_run(losses, model->parameters(), out);
  return 0;
}

int train_tp(int64_t steps, const std::string& out, ScalarType dtype) {
  auto pg = dist::init_process_group("gloo");
  const int rank = pg->getRank(), size = pg->getSize();
  auto mesh = dist::init_device_mesh("cpu", {size}, {"tp"});
  Gpt model = make_model(dtype);
  const int64_t whole = parameter_bytes(model);
  parallelize_blocks(model, mesh);
  check_layouts(model, size);
  if (rank == 0) {
    std::printf("parameter bytes per rank: %ld of %ld (AdamW state: twice that)\n",
                static_cast<long>(parameter_bytes(model)), static_cast<long>(whole));
  }
  auto opt = make_optimizer(model);
  std::vector<double> losses;
  for (int64_t step = 0; step < steps; ++step) {
    Tensor idx, target;
    batch(step, 0, kGlobalBatch, idx, target);
    opt->zero_grad();
    dist::reset_tensor_parallel_stats();
    Tensor loss = loss_of(model(idx), target);
    loss.backward();
    check_step_collectives(step, rank);
    opt->step();
    losses.push_back(loss.item<double>());
  }
  std::vector<Tensor> full;
  for (const auto& p : model->parameters()) full.push_back(dist::tensor_parallel_full_tensor(p));
  if (rank == 0) save_run(losses, full, out);
  dist::destroy_process_group();
  return 0;
}

// examples/char_gpt's model on the 2 x 2 mesh: TP over "tp", then fully_shard over "dp" (each
// block a unit, called through nn::utils::call, then the root), and its optimizer.
struct Gpt2d {
  explicit Gpt2d(const dist::DeviceMesh& mesh) : Gpt2d(mesh["tp"], mesh["dp"]) {}
  // `dp`: 1-D (FSDP) or 2-D (HSDP: replicate x shard).
  Gpt2d(const dist::DeviceMesh& tp, const dist::DeviceMesh& dp_mesh)
      : dp(dp_mesh), model(make_model(kDouble)) {
    whole_bytes = parameter_bytes(model);
    parallelize_blocks(model, tp);
    check_layouts(model, 2);
    for (const auto& m : *model->blocks) {
      auto block = std::dynamic_pointer_cast<BlockImpl>(m);
      units.push_back(dist::fully_shard(block, dp));
      auto* unit = &units.back();
      nn::utils::set_forward_override(*block, [unit](const Tensor& x) { return (*unit)(x); });
    }
    root.emplace(dist::fully_shard(model, dp));
    opt = make_optimizer(model);
  }
  dist::DeviceMesh dp;
  Gpt model;
  int64_t whole_bytes = 0;
  std::deque<dist::FSDPModule<std::shared_ptr<BlockImpl>>> units;
  std::optional<dist::FSDPModule<Gpt>> root;
  std::unique_ptr<optim::Optimizer> opt;
};

// Trains `steps` steps of the global batch split over "dp"; the dp-averaged losses.
std::vector<double> train_steps(Gpt2d& g, int64_t steps, int rank) {
  int64_t dp_index = 0, dp_size = 1;  // among the data-parallel ranks (HSDP: replica-major)
  for (int64_t d = 0; d < g.dp.ndim(); ++d) {
    dp_index = dp_index * g.dp.size(d) + g.dp.get_local_rank(d);
    dp_size *= g.dp.size(d);
  }
  const int64_t local = kGlobalBatch / dp_size, first = dp_index * local;
  std::vector<double> losses;
  for (int64_t step = 0; step < steps; ++step) {
    Tensor idx, target;
    batch(step, first, local, idx, target);
    g.opt->zero_grad();
    dist::reset_tensor_parallel_stats();
    Tensor loss = loss_of((*g.root)(idx), target);
    loss.backward();
    check_step_collectives(step, rank);
    g.opt->step();
    std::vector<Tensor> l{loss.detach().clone()};
    dist::AllreduceOptions avg;
    avg.reduceOp = dist::ReduceOp::AVG;
    for (int64_t d = g.dp.ndim(); d-- > 0;) g.dp.get_group(d)->allreduce(l, avg)->wait();
    losses.push_back(l[0].item<double>());
  }
  return losses;
}

// HSDP x TP: a 3-D mesh {"dp_replicate": r, "dp_shard": s, "tp": 2}; fully_shard over the 2-D
// mesh of the first two dims.
dist::DeviceMesh hsdp_tp_mesh(int64_t r, int64_t s) {
  auto mesh = dist::init_device_mesh("cpu", {r, s, 2}, {"dp_replicate", "dp_shard", "tp"});
  // Rank = (i * s + j) * 2 + t; slices keep the order they are named in and share the groups.
  const int rank = mesh.get_rank();
  const std::vector<int64_t> c{rank / (2 * s), (rank / 2) % s, rank % 2};
  require(mesh.get_coordinate() == c, "3-D mesh: wrong coordinate");
  const auto dp = mesh[std::vector<std::string>{"dp_replicate", "dp_shard"}];
  require(dp.ndim() == 2 && dp.shape() == std::vector<int64_t>{r, s} &&
              dp.get_coordinate() == std::vector<int64_t>{c[0], c[1]} &&
              dp.get_group(1) == mesh.get_group("dp_shard") &&
              dp["dp_replicate"] == mesh["dp_replicate"],
          "3-D mesh: the (dp_replicate, dp_shard) slice");
  const auto flipped = mesh[std::vector<std::string>{"tp", "dp_replicate"}];
  require(flipped.shape() == std::vector<int64_t>{2, r} && flipped.get_local_rank(0) == c[2] &&
              flipped.dim_names()[1] == "dp_replicate",
          "3-D mesh: the (tp, dp_replicate) slice");
  require(mesh["tp"].slice_ranks(0) == std::vector<int>{rank - rank % 2, rank - rank % 2 + 1},
          "3-D mesh: the tp slice's ranks");
  bool refused = false;
  try {
    (void)mesh[std::vector<std::string>{"tp", "tp"}];
  } catch (const ValueError&) {
    refused = true;
  }
  require(refused, "3-D mesh: a slice naming a dim twice");
  return mesh;
}

int train_2d(int64_t steps, const std::string& out, int64_t hsdp_r = 0, int64_t hsdp_s = 0) {
  auto pg = dist::init_process_group("gloo");
  const int rank = pg->getRank();
  require(pg->getSize() == 4, "gpt2d and gpt3d run on 4 ranks");
  std::optional<Gpt2d> storage;
  if (hsdp_r > 0) {
    const auto mesh = hsdp_tp_mesh(hsdp_r, hsdp_s);
    storage.emplace(mesh["tp"], mesh[std::vector<std::string>{"dp_replicate", "dp_shard"}]);
  } else {
    storage.emplace(dist::init_device_mesh("cpu", {2, 2}, {"dp", "tp"}));
  }
  Gpt2d& g = *storage;
  if (rank == 0) {
    std::printf("parameter bytes per rank on %s: %ld of %ld (AdamW state: twice that)\n",
                hsdp_r > 0 ? "HSDP x TP" : "2 x 2", static_cast<long>(parameter_bytes(g.model)),
                static_cast<long>(g.whole_bytes));
  }
  const auto losses = train_steps(g, steps, rank);
  auto state = dist::get_full_state_dict(*g.model, g.dp);
  std::vector<Tensor> full;
  for (const auto& item : g.model->named_parameters()) {
    for (const auto& e : state) {
      if (e.first == item.key())
        full.push_back(dist::tensor_parallel_full_tensor(item.value(), e.second));
    }
  }
  if (rank == 0) save_run(losses, full, out);
  dist::destroy_process_group();
  return 0;
}

// Distributed checkpoints of the 2-D model (test_tp.cpp, DCP tests):
//   gpt2d-dcp STEPS DIR: trains STEPS steps on 2 x 2 and saves model + AdamW to DIR.
//   gpt2d-dcp-resave SRC DST: a fresh 2 x 2 model loads SRC (saved in any layout) and saves DST.
//   gpt-dcp-resave SRC DST: the same in one process without a group (a plain model).
//   dcp-compare A B: in one process, every tensor of A equals B's bit for bit (same names).
int dcp_2d(int64_t steps, const std::string& src, const std::string& dst) {
  auto pg = dist::init_process_group("gloo");
  require(pg->getSize() == 4, "gpt2d-dcp runs on 4 ranks");
  Gpt2d g(dist::init_device_mesh("cpu", {2, 2}, {"dp", "tp"}));
  if (!src.empty()) dcp::load_state_dict(*g.model, g.opt.get(), src, g.dp);
  (void)train_steps(g, steps, pg->getRank());
  dcp::save(dcp::get_state_dict(*g.model, g.opt.get(), g.dp), dst);
  dist::destroy_process_group();
  return 0;
}

// gpt3d-dcp STEPS R S SRC DST: the same on the HSDP x TP mesh (R, S, 2); SRC "-": none.
int dcp_3d(int64_t steps, int64_t r, int64_t s, const std::string& src, const std::string& dst) {
  auto pg = dist::init_process_group("gloo");
  require(pg->getSize() == r * s * 2, "gpt3d-dcp runs on R x S x 2 ranks");
  const auto mesh = hsdp_tp_mesh(r, s);
  Gpt2d g(mesh["tp"], mesh[std::vector<std::string>{"dp_replicate", "dp_shard"}]);
  if (src != "-") dcp::load_state_dict(*g.model, g.opt.get(), src, g.dp);
  (void)train_steps(g, steps, pg->getRank());
  dcp::save(dcp::get_state_dict(*g.model, g.opt.get(), g.dp), dst);
  dist::destroy_process_group();
  return 0;
}

int dcp_single(const std::string& src, const std::string& dst) {
  Gpt model = make_model(kDouble);
  auto opt = make_optimizer(model);
  dcp::load_state_dict(*model, opt.get(), src);
  dcp::save(dcp::get_state_dict(*model, opt.get()), dst);
  return 0;
}

dcp::StateDict read_all(const std::string& dir) {
  dcp::StateDict sd;
  for (const auto& t : dcp::read_metadata(dir).tensors)
    sd.add(t.name, zeros(t.shape, TensorOptions().dtype(t.dtype)));
  dcp::load(sd, dir);
  return sd;
}

int dcp_compare(const std::string& a, const std::string& b) {
  const dcp::StateDict x = read_all(a), y = read_all(b);
  require(x.size() == y.size(), a + " has " + std::to_string(x.size()) + " tensors, " + b +
                                    " has " + std::to_string(y.size()));
  for (const auto& e : x.entries()) {
    const auto* f = y.find(e.name);
    require(f != nullptr, b + " has no tensor '" + e.name + "'");
    require(e.local.sizes() == f->local.sizes() &&
                e.local.scalar_type() == f->local.scalar_type() && e.local.equal(f->local),
            "tensor '" + e.name + "' differs between " + a + " and " + b);
  }
  std::printf("%zu tensors bit-identical\n", x.size());
  return 0;
}

}  // namespace

int toy_reference(int64_t steps, const std::string& out);  // tp_worker_toy.cpp
int toy_train(int64_t steps, const std::string& out);
int error_checks();
int rng_reference(int64_t steps, const std::string& out, uint64_t seed);  // tp_worker_rng.cpp
int rng_train(int64_t steps, const std::string& out, uint64_t seed);

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    bool single = false;
    for (int i = 4; i < argc; ++i) {
      single = single || std::strcmp(argv[i], "--float") == 0;
      use_sgd = use_sgd || std::strcmp(argv[i], "--sgd") == 0;
      use_sp = use_sp || std::strcmp(argv[i], "--sp") == 0;
    }
    const ScalarType dtype = single ? kFloat : kDouble;
    if (mode == "gpt" && argc >= 4) return train_tp(std::stoll(argv[2]), argv[3], dtype);
    if (mode == "gpt2d" && argc >= 4) return train_2d(std::stoll(argv[2]), argv[3]);
    if (mode == "gpt3d" && argc >= 6)
      return train_2d(std::stoll(argv[2]), argv[5], std::stoll(argv[3]), std::stoll(argv[4]));
    if (mode == "gpt3d-dcp" && argc >= 7)
      return dcp_3d(std::stoll(argv[2]), std::stoll(argv[3]), std::stoll(argv[4]), argv[5],
                    argv[6]);
    if (mode == "gpt-reference" && argc >= 4) return reference(std::stoll(argv[2]), argv[3], dtype);
    if (mode == "toy" && argc >= 4) return toy_train(std::stoll(argv[2]), argv[3]);
    if (mode == "toy-reference" && argc >= 4) return toy_reference(std::stoll(argv[2]), argv[3]);
    if (mode == "errors") return error_checks();
    if (mode == "rng" && argc >= 5)
      return rng_train(std::stoll(argv[2]), argv[3], std::stoull(argv[4]));
    if (mode == "rng-reference" && argc >= 5)
      return rng_reference(std::stoll(argv[2]), argv[3], std::stoull(argv[4]));
    if (mode == "gpt2d-dcp" && argc >= 4) return dcp_2d(std::stoll(argv[2]), "", argv[3]);
    if (mode == "gpt2d-dcp-resave" && argc >= 4) return dcp_2d(0, argv[2], argv[3]);
    if (mode == "gpt-dcp-resave" && argc >= 4) return dcp_single(argv[2], argv[3]);
    if (mode == "dcp-compare" && argc >= 4) return dcp_compare(argv[2], argv[3]);
    std::fprintf(stderr,
                 "usage: tp_worker gpt|gpt2d|gpt-reference|toy|toy-reference STEPS OUT "
                 "[--float] | errors | gpt2d-dcp STEPS DIR | gpt2d-dcp-resave SRC DST | "
                 "gpt-dcp-resave SRC DST | dcp-compare A B | rng|rng-reference STEPS OUT SEED\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tp_worker: %s\n", e.what());
    return 1;
  }
}
