// char_gpt: a small GPT trained at character level on the text of Debian's `fortunes` packages
// (/usr/share/games/fortunes), the transformer workload of brasa's examples (docs/char_gpt.md).
// Written against libtorch's C++ API plus brasa's activation checkpointing, autocast guard,
// compile, TensorBoard writer and allocator statistics, which libtorch 1.13 lacks.
//
// `char_gpt --help` lists the options. Each step draws --batch-size random windows of
// --block-size characters from the training text; AdamW (decay on matrices only), a linear
// warm-up then a cosine decay of the learning rate to a tenth, gradients clipped to --grad-clip.
// Every --eval-every steps and at the end the validation loss is measured on fixed windows.
// --autocast bf16 runs forward in bfloat16 autocast; --checkpoint-activations recomputes each
// block in backward; --compile compiles the model's forward with brasa::compile. Checkpoints and
// --resume as in fashion_mnist; --sample N prints --num-samples texts of N characters at the end.
// train_torch.py is the same recipe in PyTorch.
//
// Under brasarun, --tp N --fsdp M trains on N x M processes: tensor parallel blocks over N ranks
// and fully_shard over M (parallel.h, docs/distributed.md); --dcp writes and resumes distributed
// checkpoints, which load at any --tp/--fsdp (the default under --tp/--fsdp). --dtype float64
// and --loss-log (every step's loss to 17 digits) serve the comparison with one process.

#include <torch/torch.h>

#include <cstdio>
#include <functional>
#include <optional>
#include <string>

#include "../fashion_mnist/checkpoint.h"
#include "../fashion_mnist/cli.h"
#include "../fashion_mnist/progress.h"
#include "../fashion_mnist/tensorboard_log.h"
#include "brasa/compile/module.h"
#include "brasa/core/allocator.h"
#include "brasa/dispatch/autocast_mode.h"
#include "brasa/profiler/profiler.h"
#include "model.h"
#include "parallel.h"
#include "sample.h"
#include "schedule.h"
#include "text_data.h"

namespace {

struct Config {
  std::string data = "/usr/share/games/fortunes";
  int64_t steps = 2000;
  int64_t max_steps = 0;  // 0: no limit
  int64_t batch_size = 32;
  int64_t block_size = 128;
  int64_t layers = 6, heads = 8, dim = 256;
  double dropout = 0.1;
  double lr = 1e-3, weight_decay = 0.1, grad_clip = 1.0;
  int64_t warmup = 100;
  int threads = 0;
  uint64_t seed = 1337;
  std::string autocast = "none";
  bool checkpoint_activations = false;
  bool compile = false;
  int64_t eval_every = 500, eval_batches = 20;
  int log_every = 50;
  std::string checkpoint_dir = "char_gpt_checkpoints";
  int64_t checkpoint_every = 500;
  bool resume = false;
  int64_t sample = 0, num_samples = 1, top_k = 0;
  double temperature = 0.8;
  std::string prompt = "%\n";
  std::string tensorboard;
  int64_t profile_rows = 0;  // 0: no profiling
  int64_t tp = 1, fsdp = 1;
  bool sequence_parallel = false;
  bool dcp = false;
  std::string dtype = "float32";
  std::string loss_log;
};

void add_options(CLI::App& app, Config& c) {
  app.option_defaults()->always_capture_default()->multi_option_policy(
      CLI::MultiOptionPolicy::TakeLast);
  const auto positive = cli::integer<int64_t>(1);
  app.add_option("--data", c.data, "a UTF-8 text file, or a directory of fortune files");
  app.add_option("--steps", c.steps, "training steps")->transform(cli::integer<int64_t>(0));
  app.add_option("--max-steps", c.max_steps,
                 "stop after this step as if interrupted (0: run all --steps; smoke tests)")
      ->transform(cli::integer<int64_t>(0));
  app.add_option("--batch-size", c.batch_size, "sequences per step")->transform(positive);
  app.add_option("--block-size", c.block_size, "context length T")->transform(positive);
  app.add_option("--layers", c.layers, "transformer blocks")->transform(positive);
  app.add_option("--heads", c.heads, "attention heads")->transform(positive);
  app.add_option("--dim", c.dim, "model width (a multiple of --heads)")->transform(positive);
  app.add_option("--dropout", c.dropout, "dropout probability")->check(CLI::Range(0.0, 0.99));
  app.add_option("--lr", c.lr, "peak learning rate")->check(cli::positive_number());
  app.add_option("--weight-decay", c.weight_decay, "AdamW decay of the matrices")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--grad-clip", c.grad_clip, "clip the gradient norm to this")
      ->check(cli::positive_number());
  app.add_option("--warmup", c.warmup, "steps of linear warm-up")
      ->transform(cli::integer<int64_t>(0));
  app.add_option("--threads", c.threads, "CPU threads (0: the library's default)")
      ->transform(cli::integer<int>());
  app.add_option("--seed", c.seed, "random seed")->transform(cli::integer<uint64_t>());
  app.add_option("--autocast", c.autocast, "mixed precision")
      ->check(CLI::IsMember({"none", "bf16"}));
  app.add_flag("--checkpoint-activations", c.checkpoint_activations,
               "recompute each block's activations in backward instead of keeping them");
  app.add_flag("--compile", c.compile, "compile the model's forward (brasa::compile)");
  app.add_option("--eval-every", c.eval_every, "steps between validation losses")
      ->transform(positive);
  app.add_option("--eval-batches", c.eval_batches, "batches of fixed validation windows")
      ->transform(positive);
  app.add_option("--log-every", c.log_every, "steps between progress lines (not a terminal)")
      ->transform(cli::integer<int>(1));
  app.add_option("--checkpoint-dir", c.checkpoint_dir, "training checkpoints (last 3 kept)");
  app.add_option("--checkpoint-every", c.checkpoint_every, "steps between training checkpoints")
      ->transform(positive);
  app.add_flag("--resume", c.resume, "continue from the newest training checkpoint");
  app.add_option("--sample", c.sample, "after training, generate this many characters")
      ->transform(cli::integer<int64_t>(0));
  app.add_option("--num-samples", c.num_samples, "how many texts --sample generates")
      ->transform(positive);
  app.add_option("--temperature", c.temperature, "sampling temperature")
      ->check(cli::positive_number());
  app.add_option("--top-k", c.top_k, "sample among the k likeliest characters (0: all)")
      ->transform(cli::integer<int64_t>(0));
  app.add_option("--prompt", c.prompt, "text the samples continue");
  app.add_option("--tensorboard", c.tensorboard,
                 "write TensorBoard logs (loss, lr, grad norm, tokens/s) to this directory");
  app.add_option("--profile", c.profile_rows,
                 "profile the steps after the warm-up ones; print this many rows of the key "
                 "averages (by op, then by op and input shapes), sorted by self time")
      ->transform(cli::integer<int64_t>(0));
  app.add_option("--tp", c.tp, "tensor-parallel ranks (processes from brasarun: --tp x --fsdp)")
      ->transform(positive);
  app.add_option("--fsdp", c.fsdp, "fully-sharded data-parallel ranks (splitting the batch)")
      ->transform(positive);
  app.add_flag("--sequence-parallel", c.sequence_parallel,
               "with --tp: shard LayerNorm and Dropout regions on the sequence dim between the "
               "tensor-parallel ones");
  app.add_flag("--dcp", c.dcp,
               "distributed checkpoints: resumable at any --tp/--fsdp (always on when either > 1)");
  app.add_option("--dtype", c.dtype, "parameter dtype")
      ->check(CLI::IsMember({"float32", "float64"}));
  app.add_option("--loss-log", c.loss_log,
                 "write each step's training loss and the final validation loss to this file");
}

// bf16 autocast for its lifetime when --autocast bf16, nothing otherwise.
class AutocastRegion {
 public:
  explicit AutocastRegion(const Config& c) {
    if (c.autocast == "bf16") guard_.emplace(torch::kBFloat16);
  }

 private:
  std::optional<brasa::AutocastGuard> guard_;
};

using Forward = std::function<torch::Tensor(const torch::Tensor&)>;

double loss_of(const Forward& forward, const torch::Tensor& x, const torch::Tensor& y) {
  auto logits = forward(x);
  return torch::nn::functional::cross_entropy(logits.view({-1, logits.size(-1)}).to(torch::kFloat),
                                              y.reshape({-1}))
      .item<double>();
}

// The mean loss over the fixed validation windows.
double evaluate(Gpt& model, const Forward& forward, const torch::Tensor& windows, const Config& c) {
  torch::NoGradGuard no_grad;
  model->eval();
  AutocastRegion autocast(c);
  double total = 0;
  const int64_t n = windows.size(0);
  int64_t batches = 0;
  for (int64_t s = 0; s < n; s += c.batch_size, ++batches) {
    auto w = windows.slice(0, s, std::min(n, s + c.batch_size));
    total += loss_of(forward, w.slice(1, 0, c.block_size), w.slice(1, 1, c.block_size + 1));
  }
  model->train();
  return total / static_cast<double>(batches);
}

void check_parallel(const Config& c) {
  const auto fail = [](const std::string& what) { throw std::runtime_error(what); };
  if (c.sequence_parallel && (c.tp == 1 || c.block_size % c.tp != 0 || c.sample > 0))
    fail(
        "--sequence-parallel needs --tp > 1 dividing --block-size, and no --sample (its "
        "contexts grow one character at a time)");
  if (c.tp * c.fsdp == 1) return;
  if (c.compile || c.checkpoint_activations)
    fail("--compile and --checkpoint-activations are not supported with --tp/--fsdp");
  if (c.heads % c.tp != 0 || c.dim % c.tp != 0)
    fail("--tp " + std::to_string(c.tp) + " must divide --heads " + std::to_string(c.heads) +
         " and --dim " + std::to_string(c.dim));
  if (c.batch_size % c.fsdp != 0)
    fail("--fsdp " + std::to_string(c.fsdp) + " must divide --batch-size " +
         std::to_string(c.batch_size));
}

int run(const Config& c) {
  check_parallel(c);
  ParallelGpt par(c.tp, c.fsdp, c.sequence_parallel);
  const bool main_rank = par.is_main(), dcp = c.dcp || par.enabled();
  TensorBoardLog tensorboard(main_rank ? c.tensorboard : "", "train/tokens_per_s");
  const auto corpus = char_data::load_corpus(c.data, c.block_size);
  const auto prompt = corpus.encode(c.prompt);
  if (c.dim % c.heads != 0)
    throw std::runtime_error("--dim " + std::to_string(c.dim) + " is not a multiple of --heads " +
                             std::to_string(c.heads));
  GptConfig config{corpus.vocab_size(), c.block_size, c.layers, c.heads, c.dim, c.dropout};
  Gpt model(config);
  if (c.dtype == "float64") model->to(torch::kDouble);
  model->checkpoint_activations = c.checkpoint_activations;
  int64_t params = 0;
  for (const auto& p : model->parameters()) params += p.numel();
  par.shard(model);
  Forward forward = [model, &par](const torch::Tensor& x) mutable { return par.forward(model, x); };
  if (c.compile) {
    auto compiled = brasa::compile(model);
    forward = [compiled](const torch::Tensor& x) { return compiled(x); };
  }
  const auto adamw = torch::optim::AdamWOptions(c.lr).betas({0.9, 0.95});
  torch::optim::AdamW optimizer(model->param_groups(adamw, c.weight_decay), adamw);
  if (main_rank)
    std::printf(
        "char_gpt: %lld train / %lld val characters, vocabulary %lld; %lld layers, dim %lld, "
        "%lld heads, block %lld, %.2fM parameters; batch %lld, %lld steps, %d threads, autocast "
        "%s%s%s\n",
        static_cast<long long>(corpus.train.numel()), static_cast<long long>(corpus.val.numel()),
        static_cast<long long>(config.vocab_size), static_cast<long long>(c.layers),
        static_cast<long long>(c.dim), static_cast<long long>(c.heads),
        static_cast<long long>(c.block_size), params / 1e6, static_cast<long long>(c.batch_size),
        static_cast<long long>(c.steps), torch::get_num_threads(), c.autocast.c_str(),
        c.checkpoint_activations ? ", activation checkpointing" : "",
        c.compile ? ", compiled" : "");
  if (main_rank && par.enabled())
    std::printf("parallel: %lld tensor-parallel x %lld fully-sharded ranks (brasarun)\n",
                static_cast<long long>(c.tp), static_cast<long long>(c.fsdp));
  TrainingCheckpoints checkpoints(c.checkpoint_dir);
  checkpoints.track(model, optimizer);
  const auto save_checkpoint = [&](int64_t step) {
    if (dcp) {
      par.save(model, optimizer, step, c.checkpoint_dir);
    } else {
      checkpoints.save(step);
    }
  };
  const int64_t first = !c.resume ? 0
                        : dcp     ? par.resume(model, optimizer, c.checkpoint_dir)
                                  : checkpoints.resume();
  std::FILE* loss_log = nullptr;
  if (main_rank && !c.loss_log.empty() && !(loss_log = std::fopen(c.loss_log.c_str(), "w")))
    throw std::runtime_error("cannot write --loss-log " + c.loss_log);
  const auto val_windows =
      char_data::eval_windows(corpus.val, c.eval_batches * c.batch_size, c.block_size);
  const CosineSchedule schedule{c.lr, c.warmup, c.steps};
  Progress progress("train", c.steps, c.log_every, "tokens/s", first);
  StepTimer timer;
  int64_t peak_bytes = 0;
  brasa::profiler::Profiler profiler(brasa::profiler::ProfilerOptions().record_shapes(true));
  model->train();
  const int64_t last = c.max_steps > 0 ? std::min(c.steps, c.max_steps) : c.steps;
  for (int64_t step = first; step < last; ++step) {
    if (tensorboard) tensorboard.start_step();
    if (c.profile_rows > 0 && step - first == StepTimer::kWarmup) profiler.start();
    timer.start();
    brasa::reset_peak_memory_stats();
    const int64_t bytes_before = brasa::memory_stats().allocated_bytes;
    const double lr = schedule(step);
    for (auto& group : optimizer.param_groups()) group.options().set_lr(lr);
    auto [x, y] = char_data::random_batch(corpus.train, c.batch_size, c.block_size);
    torch::Tensor loss;
    {
      AutocastRegion autocast(c);
      auto logits = forward(par.local_rows(x));
      loss = torch::nn::functional::cross_entropy(logits.view({-1, logits.size(-1)}),
                                                  par.local_rows(y).reshape({-1}));
    }
    loss.backward();
    const double grad_norm = par.clip_grad_norm(model, c.grad_clip);
    optimizer.step();
    optimizer.zero_grad();
    const double loss_value = par.dp_mean(loss.item<double>());
    if (loss_log)
      std::fprintf(loss_log, "step %lld loss %.17g\n", static_cast<long long>(step + 1),
                   loss_value);
    peak_bytes = std::max(peak_bytes, brasa::memory_stats().peak_allocated_bytes - bytes_before);
    timer.stop(step - first);
    if (main_rank)
      progress.update(step + 1, loss_value, (step + 1 - first) * c.batch_size * c.block_size);
    if (tensorboard) {
      tensorboard.set_grad_norm(grad_norm);
      tensorboard.end_step(step + 1, loss_value, lr, c.batch_size * c.block_size);
    }
    if ((step + 1) % c.eval_every == 0 && step + 1 != last) {
      const double val = evaluate(model, forward, val_windows, c);
      if (main_rank)
        std::printf("\nstep %lld: val loss %.4f\n", static_cast<long long>(step + 1), val);
      if (tensorboard) tensorboard.add_scalar("val/loss", val, step + 1);
    }
    if ((step + 1) % c.checkpoint_every == 0) save_checkpoint(step + 1);
  }
  if (main_rank) progress.finish();
  if (profiler.recording() && !main_rank) profiler.stop();
  if (profiler.recording()) {
    profiler.stop();
    const auto rows = static_cast<int>(c.profile_rows);
    for (const bool by_shape : {false, true})
      std::printf(
          "profile of steps %lld to %lld%s:\n%s",
          static_cast<long long>(first + StepTimer::kWarmup + 1), static_cast<long long>(last),
          by_shape ? ", by input shapes" : "",
          profiler.table(brasa::profiler::SortBy::SelfCpuTimeTotal, rows, by_shape).c_str());
  }
  if (last > first) save_checkpoint(last);
  if (last > first && main_rank) {
    std::printf(
        "step time %.1f ms (mean of %lld steps after %d of warm-up; CPU %.1f ms), %.0f "
        "tokens/s; peak memory of a step %.1f MiB above its start\n",
        timer.mean_ms(), static_cast<long long>(timer.count()), StepTimer::kWarmup,
        timer.mean_cpu_ms(), c.batch_size * c.block_size / (timer.mean_ms() / 1e3),
        peak_bytes / 1048576.0);
  }
  const double val = evaluate(model, forward, val_windows, c);
  if (c.compile) {
    const auto stats = brasa::compile_stats();
    std::printf(
        "compile: %lld graphs, %lld compiled calls, %lld eager calls, %lld graph breaks, "
        "%lld recompiles\n",
        static_cast<long long>(stats.graphs), static_cast<long long>(stats.compiled_calls),
        static_cast<long long>(stats.eager_calls), static_cast<long long>(stats.graph_breaks),
        static_cast<long long>(stats.recompiles));
  }
  if (main_rank) std::printf("step %lld: val loss %.4f\n", static_cast<long long>(last), val);
  if (loss_log) {
    std::fprintf(loss_log, "val loss %.17g\n", val);
    std::fclose(loss_log);
  }
  if (tensorboard) tensorboard.add_scalar("val/loss", val, last);
  for (int64_t i = 0; c.sample > 0 && i < c.num_samples; ++i) {
    const auto text = generate(model, forward, corpus, prompt, c.sample, c.temperature, c.top_k);
    if (main_rank)
      std::printf("--- sample %lld ---\n%s%s\n", static_cast<long long>(i + 1), c.prompt.c_str(),
                  text.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Config c;
  CLI::App app("Trains a character-level GPT on the fortunes text, then samples from it.",
               "char_gpt");
  add_options(app, c);
  if (auto exit_code = cli::parse(app, argc, argv)) return *exit_code;
  torch::manual_seed(c.seed);
  if (c.threads > 0) torch::set_num_threads(c.threads);
  try {
    return run(c);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "char_gpt: %s\n", e.what());
    return 1;
  }
}
