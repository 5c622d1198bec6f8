// One rank of the DDP tests (tests/distributed/test_ddp.cpp), started by brasarun:
//   ddp_worker train STEPS OUT [--no-sync K] [--find-unused] [--adam]
//     trains a small MLP with DDP on a global batch of 24 split across the ranks; checks after
//     every step that all ranks hold bit-identical parameters; rank 0 saves them to OUT.
//     --fp16 / --bf16: gradients travel compressed (communication hooks).
//   ddp_worker reference STEPS OUT [--no-sync K] [--adam]
//     the same training in one process on the whole global batch (no DDP).
//   ddp_worker uneven OUT [--initial] / ddp_worker uneven-reference WORLD OUT [--initial]
//     rank r has 5 + 2r batches and trains inside DistributedDataParallel::join; the reference
//     averages, at each step, over the ranks that still have data (--initial: over WORLD, as
//     join(fn, divide_by_initial_world_size = true)). The last rank saves.
//   ddp_worker train ... --hook-averages: a comm hook registered with hook_averages = true
//     (buckets arrive summed-not-averaged; the hook divides and all-reduces) equals plain DDP.
//   ddp_worker die | die-mid VICTIM / ddp_worker leave EARLY ITERS [--destroy] /
//   ddp_worker subgroup-outlives
//     a rank killed (kill_mid_allreduce.py) or exiting normally (normal_exit.py), a subgroup
//     outliving a rank outside it (subgroup_outlives.py); see die, leave, subgroup_outlives.
//   ddp_worker error-at-exit
//     a DistributedError raised while the process exits, after the static destructors ran (Note
//     [Immortal error category]); one process, no group.
//   ddp_worker unused
//     a model with a parameter the loss never uses: without find_unused_parameters the next
//     forward must fail naming it.
// With --no-sync K, each step is K micro-batches (all but the last under no_sync); the reference
// then takes one step on the K-times batch.

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "brasa/brasa.h"
#include "brasa/distributed/ddp.h"
#include "brasa/distributed/init.h"
#include "brasa/distributed/process_group_gloo.h"
#include "brasa/distributed/process_group_mpi.h"

namespace {
using namespace brasa;
namespace dist = brasa::distributed;

constexpr int64_t kGlobalBatch = 24;

struct NetImpl : nn::Module {
  NetImpl() : fc1(8, 16), fc2(16, 2), spare(16, 2) {
    register_module("fc1", fc1);
    register_module("fc2", fc2);
    register_module("spare", spare);
  }
  Tensor forward(const Tensor& x) { return fc2->forward(relu(fc1->forward(x))); }
  nn::Linear fc1, fc2, spare;  // spare is only used by the "unused" mode
};
BRASA_MODULE(Net);

// Example i of step s: deterministic inputs and a label from their sign.
void batch(int64_t step, int64_t first, int64_t count, Tensor& x, Tensor& y) {
  x = empty({count, 8}, kDouble);
  y = empty({count}, kInt64);
  for (int64_t i = 0; i < count; ++i) {
    double sum = 0;
    for (int64_t j = 0; j < 8; ++j) {
      const double v = std::sin(static_cast<double>((step * 1000 + first + i) * 8 + j) * 0.37);
      x.data_ptr<double>()[i * 8 + j] = v;
      sum += v * (j % 3 == 0 ? 1.0 : -0.5);
    }
    y.data_ptr<int64_t>()[i] = sum > 0 ? 1 : 0;
  }
}

std::unique_ptr<optim::Optimizer> make_optimizer(Net& net, bool adam) {
  std::vector<Tensor> params{net->fc1->weight, net->fc1->bias, net->fc2->weight, net->fc2->bias};
  if (adam) return std::make_unique<optim::Adam>(params, optim::AdamOptions(0.01));
  return std::make_unique<optim::SGD>(params, optim::SGDOptions(0.1).momentum(0.9));
}

void save_params(Net& net, const std::string& path) {
  std::vector<Tensor> p{net->fc1->weight, net->fc1->bias, net->fc2->weight, net->fc2->bias};
  brasa::save(p, path);
}

int reference(int64_t steps, const std::string& out, int64_t micro, bool adam) {
  manual_seed(1);
  Net net;
  auto opt = make_optimizer(net, adam);
  for (int64_t s = 0; s < steps; ++s) {
    opt->zero_grad();
    for (int64_t m = 0; m < micro; ++m) {
      Tensor x, y;
      batch(s * micro + m, 0, kGlobalBatch, x, y);
      (nn::functional::cross_entropy(net->forward(x), y) / static_cast<double>(micro)).backward();
    }
    opt->step();
  }
  save_params(net, out);
  return 0;
}

int train(int64_t steps, const std::string& out, int64_t micro, bool find_unused, bool adam,
          dist::CommHookType hook, bool hook_averages) {
  auto pg = dist::init_process_group("gloo");
  const int rank = pg->getRank(), size = pg->getSize();
  if (kGlobalBatch % size != 0) {
    std::fprintf(stderr, "world size %d does not divide %lld\n", size,
                 static_cast<long long>(kGlobalBatch));
    return 2;
  }
  manual_seed(100 + static_cast<uint64_t>(rank));  // different init per rank: DDP must sync it
  Net net;
  if (rank == 0) {
    manual_seed(1);
    net = Net();
  }
  dist::DistributedDataParallelOptions options;
  options.find_unused_parameters = find_unused;
  options.comm_hook_type = hook;
  if (!find_unused) {  // else DDP must find that spare gets no gradient and zero-fill it
    net->spare->weight.requires_grad_(false);
    net->spare->bias.requires_grad_(false);
  }
  dist::DistributedDataParallel<Net> ddp(net, pg, options);
  if (hook_averages) {  // PyTorch's contract: the bucket holds the local sum; the hook averages
    ddp.reducer().register_comm_hook(
        [](dist::ProcessGroup& group, Tensor& bucket) {
          bucket.div_(group.getSize());
          std::vector<Tensor> tensors{bucket};
          return group.allreduce(tensors, dist::AllreduceOptions{});
        },
        true);
  }
  auto opt = make_optimizer(net, adam);
  const int64_t local = kGlobalBatch / size;
  for (int64_t s = 0; s < steps; ++s) {
    opt->zero_grad();
    for (int64_t m = 0; m < micro; ++m) {
      Tensor x, y;
      batch(s * micro + m, rank * local, local, x, y);
      auto step_loss = [&] {
        (nn::functional::cross_entropy(ddp.forward(x), y) / static_cast<double>(micro)).backward();
      };
      if (m + 1 < micro) {
        ddp.no_sync(step_loss);
      } else {
        step_loss();
      }
    }
    opt->step();
    // Every rank must hold the same parameters after every step.
    std::vector<Tensor> mine{cat({net->fc1->weight.reshape({-1}), net->fc1->bias,
                                  net->fc2->weight.reshape({-1}), net->fc2->bias})};
    std::vector<std::vector<Tensor>> all(1);
    for (int r = 0; r < size; ++r) all[0].push_back(empty_like(mine[0]));
    pg->allgather(all, mine)->wait();
    for (int r = 0; r < size; ++r) {
      if (!equal(all[0][static_cast<size_t>(r)], mine[0])) {
        std::fprintf(stderr, "step %lld: rank %d's parameters differ from rank %d's\n",
                     static_cast<long long>(s), rank, r);
        return 3;
      }
    }
  }
  if (rank == 0) save_params(net, out);
  std::printf("rank %d: %lld steps, buckets rebuilt: %s\n", rank, static_cast<long long>(steps),
              ddp.reducer().buckets_rebuilt() ? "yes" : "no");
  dist::destroy_process_group();
  return 0;
}

constexpr int64_t kLocalBatch = 6;
int64_t uneven_steps(int rank) { return 5 + 2 * static_cast<int64_t>(rank); }

int uneven_reference(int world, const std::string& out, bool by_world) {
  manual_seed(1);
  Net net;
  auto opt = make_optimizer(net, false);
  for (int64_t s = 0; s < uneven_steps(world - 1); ++s) {
    opt->zero_grad();
    std::vector<int> active;
    for (int r = 0; r < world; ++r)
      if (s < uneven_steps(r)) active.push_back(r);
    for (int r : active) {
      Tensor x, y;
      batch(s, r * kLocalBatch, kLocalBatch, x, y);
      const double divisor = by_world ? world : static_cast<double>(active.size());
      (nn::functional::cross_entropy(net->forward(x), y) / divisor).backward();
    }
    opt->step();
  }
  save_params(net, out);
  return 0;
}

int uneven(const std::string& out, bool by_world) {
  auto pg = dist::init_process_group("gloo");
  const int rank = pg->getRank();
  manual_seed(1);
  Net net;
  net->spare->weight.requires_grad_(false);
  net->spare->bias.requires_grad_(false);
  dist::DistributedDataParallel<Net> ddp(net, pg);
  auto opt = make_optimizer(net, false);
  ddp.join(
      [&] {
        for (int64_t s = 0; s < uneven_steps(rank); ++s) {
          opt->zero_grad();
          Tensor x, y;
          batch(s, rank * kLocalBatch, kLocalBatch, x, y);
          nn::functional::cross_entropy(ddp.forward(x), y).backward();
          opt->step();
        }
      },
      by_world);
  if (rank == pg->getSize() - 1) save_params(net, out);
  std::printf("rank %d: %lld steps, joined\n", rank, static_cast<long long>(uneven_steps(rank)));
  dist::destroy_process_group();
  return 0;
}

// Under mpirun: init_process_group("mpi") takes its placement from OpenMPI; DDP trains a few steps
// on it with bit-identical parameters across ranks (checked by allgather).
int mpi_init() {
  auto pg = dist::init_process_group("mpi");
  if (dist::get_world_size() != pg->getSize() || pg->getBackendName() != "mpi") return 8;
  const dist::MpiLaunchInfo info = dist::mpi_launch_info();
  if (info.rank != pg->getRank() || info.size != pg->getSize()) {
    std::fprintf(stderr, "rank %d of %d, but mpirun says %d of %d\n", pg->getRank(), pg->getSize(),
                 info.rank, info.size);
    return 9;
  }
  manual_seed(100 + static_cast<uint64_t>(pg->getRank()));
  Net net;
  net->spare->weight.requires_grad_(false);
  net->spare->bias.requires_grad_(false);
  dist::DistributedDataParallel<Net> ddp(net, pg);
  auto opt = make_optimizer(net, false);
  for (int64_t s = 0; s < 5; ++s) {
    opt->zero_grad();
    Tensor x, y;
    batch(s, pg->getRank() * 4, 4, x, y);
    nn::functional::cross_entropy(ddp.forward(x), y).backward();
    opt->step();
  }
  std::vector<Tensor> mine{net->fc1->weight.reshape({-1})};
  std::vector<std::vector<Tensor>> all(1);
  for (int r = 0; r < pg->getSize(); ++r) all[0].push_back(empty_like(mine[0]));
  pg->allgather(all, mine)->wait();
  for (const auto& other : all[0])
    if (!equal(other, mine[0])) return 10;
  std::printf("rank %d of %d (mpi): 5 DDP steps, parameters identical\n", pg->getRank(),
              pg->getSize());
  dist::destroy_process_group();
  return 0;
}

// One rank (`victim`) is killed after a barrier; the other's next allreduce must fail fast,
// naming it. die: killed before an allreduce; die-mid: while a large one is in flight (Note
// [SIGPIPE]: the survivor's writes then meet a closed socket). Both print steady_clock times
// (CLOCK_MONOTONIC, shared by the processes) so kill_mid_allreduce.py can measure the survivor's
// error after the kill: the victim "killing at NS", the survivor "error at NS".
int die(bool mid, int victim) {
  auto pg = dist::init_process_group("gloo");
  pg->barrier()->wait();
  // The victim goes on only once the survivor's barrier has returned too: on a loaded machine it
  // could still be finishing when the victim dies, and fail (Note [Lost peers]).
  auto& store = *static_cast<dist::ProcessGroupGloo&>(*pg)._getStore();
  if (pg->getRank() != victim) store.set("die/ready", std::vector<char>{'1'});
  std::printf("group ready\n");  // kill_mid_allreduce.py tells start-up trouble from the test's
  std::fflush(stdout);
  if (pg->getRank() == victim) store.wait({"die/ready"});
  auto now_ns = [] {
    return static_cast<long long>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                      std::chrono::steady_clock::now().time_since_epoch())
                                      .count());
  };
  std::vector<Tensor> t{ones({mid ? int64_t(1) << 22 : 1000})};
  if (pg->getRank() == victim) {
    if (mid) {
      auto work = pg->allreduce(t);
      ::usleep(static_cast<useconds_t>(::getpid() % 5000));  // somewhere inside the transfer
    }
    std::printf("killing at %lld\n", now_ns());
    std::fflush(stdout);
    ::kill(::getpid(), SIGKILL);
  }
  const auto start = std::chrono::steady_clock::now();
  try {
    // The victim's allreduce may complete before its SIGKILL (a loaded machine, a short sleep):
    // then the survivor's second one meets the dead rank.
    pg->allreduce(t)->wait();
    if (mid) pg->allreduce(t)->wait();
  } catch (const dist::DistributedError& e) {
    const long long at = now_ns();
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string msg = e.what();
    if (msg.find("rank " + std::to_string(victim) + " stopped responding") == std::string::npos) {
      std::fprintf(stderr, "the error does not name rank %d: %s\n", victim, e.what());
      return 7;
    }
    std::printf("error at %lld, after %.4f s: %s\n", at, s, e.what());
    return 0;
  }
  std::fprintf(stderr, "no error after rank %d died\n", victim);
  return 6;
}

// leave EARLY ITERS [--destroy]: both ranks run ITERS allreduces of 4M elements and check every
// sum; rank EARLY then returns from main at once (with --destroy: after destroy_process_group), a
// normal exit, while its peer's last op is still converting its result (so the peer hears of the
// exit with that op in flight). The other rank must finish its own last allreduce without error
// (Note [Lost peers]) and exit normally too; it prints "done in S s".
int leave(int early, int iters, bool destroy) {
  const auto start = std::chrono::steady_clock::now();
  auto pg = dist::init_process_group("gloo");
  const int world = pg->getSize();
  for (int i = 0; i < iters; ++i) {
    // The leaving rank's tensor is contiguous float32, its peer's strided float16 (Gloo sees
    // float32 on both): the peer's op still converts and copies after the leaving rank's is done.
    const Scalar v(pg->getRank() + i % 4);
    std::vector<Tensor> t{pg->getRank() == early
                              ? full({int64_t(1) << 22}, v, TensorOptions(kFloat))
                              : full({int64_t(1) << 22, 2}, v, TensorOptions(kHalf)).select(1, 0)};
    pg->allreduce(t)->wait();
    double want = 0;
    for (int r = 0; r < world; ++r) want += r + i % 4;
    const double got_min = t[0].min().item<double>(), got_max = t[0].max().item<double>();
    if (got_min != want || got_max != want) {
      std::fprintf(stderr, "allreduce %d: got [%g, %g], expected %g\n", i, got_min, got_max, want);
      return 8;
    }
  }
  if (pg->getRank() != early) {
    std::printf("done in %.3f s\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  if (destroy) dist::destroy_process_group();
  return 0;
}

// subgroup-outlives (3 ranks): rank 2 is killed after a barrier; ranks 0 and 1 keep running
// allreduces in new_group({0, 1}) across the kill (10, 2 ms apart), which must all succeed (Note
// [Lost peers]: only a member's loss fails a group's ops), then one in the default group, which
// must fail naming rank 2.
int subgroup_outlives() {
  auto pg = dist::init_process_group("gloo");
  auto sub = dist::new_group({0, 1});
  pg->barrier()->wait();
  std::printf("group ready\n");
  std::fflush(stdout);
  // Rank 2 dies only once the others' barrier returned (see die).
  auto& store = *static_cast<dist::ProcessGroupGloo&>(*pg)._getStore();
  if (pg->getRank() != 2) store.set("ready/" + std::to_string(pg->getRank()), {'1'});
  if (pg->getRank() == 2) {
    store.wait({"ready/0", "ready/1"});
    ::kill(::getpid(), SIGKILL);
  }
  for (int i = 0; i < 10; ++i) {
    std::vector<Tensor> t{full({int64_t(1) << 16}, Scalar(pg->getRank() + 1))};
    sub->allreduce(t)->wait();
    if (t[0].min().item<double>() != 3 || t[0].max().item<double>() != 3) {
      std::fprintf(stderr, "subgroup allreduce %d: wrong sum\n", i);
      return 8;
    }
    ::usleep(2000);
  }
  std::vector<Tensor> t{ones({1000})};
  try {
    pg->allreduce(t)->wait();
  } catch (const dist::DistributedError& e) {
    if (std::string(e.what()).find("rank 2 stopped responding") == std::string::npos) {
      std::fprintf(stderr, "the error does not name rank 2: %s\n", e.what());
      return 7;
    }
    std::printf("subgroup ok; default group: %s\n", e.what());
    return 0;
  }
  std::fprintf(stderr, "no error in the default group after rank 2 died\n");
  return 6;
}

int unused() {
  auto pg = dist::init_process_group("gloo");
  manual_seed(1);
  Net net;
  dist::DistributedDataParallel<Net> ddp(net, pg);  // spare requires grad but is never used
  Tensor x, y;
  batch(0, 0, 4, x, y);
  nn::functional::cross_entropy(ddp.forward(x), y).backward();
  try {
    ddp.forward(x);
  } catch (const ValueError& e) {
    const std::string msg = e.what();
    if (msg.find("spare.weight") != std::string::npos &&
        msg.find("find_unused_parameters") != std::string::npos) {
      std::printf("expected error: %s\n", e.what());
      return 0;
    }
    std::fprintf(stderr, "wrong error: %s\n", e.what());
    return 4;
  }
  std::fprintf(stderr, "no error for the unused parameter\n");
  return 5;
}

}  // namespace

// error-at-exit: what a detached Gloo worker does when its op fails during the process's exit
// (Note [Lost peers]): it raises a DistributedError after static destructors have run. The object
// below is constructed before distributed_category()'s static, so it is destroyed after it.
int error_at_exit() {
  struct RaisesAtExit {
    ~RaisesAtExit() {
      try {
        throw dist::DistributedError("allreduce: raised at exit");
      } catch (const dist::DistributedError& e) {
        const std::string message = e.code().message();
        std::printf("at exit: %s: %s\n", e.code().category().name(), message.c_str());
        std::fflush(stdout);
        if (message != "a distributed operation failed") std::_Exit(3);
      }
    }
  };
  static RaisesAtExit raises_at_exit;
  std::printf("%s\n", dist::distributed_category().message(1).c_str());  // its first use
  return 0;
}

int main(int argc, char** argv) {
  set_default_dtype(kDouble);  // the equivalence tests compare to 1e-6 after 100 steps
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    int64_t micro = 1;
    bool find_unused = false, adam = false;
    dist::CommHookType hook = dist::CommHookType::Allreduce;
    bool hook_averages = false;
    for (int i = 4; i < argc; ++i) {
      if (std::strcmp(argv[i], "--no-sync") == 0 && i + 1 < argc) micro = std::stoll(argv[++i]);
      if (std::strcmp(argv[i], "--find-unused") == 0) find_unused = true;
      if (std::strcmp(argv[i], "--adam") == 0) adam = true;
      if (std::strcmp(argv[i], "--fp16") == 0) hook = dist::CommHookType::Fp16Compress;
      if (std::strcmp(argv[i], "--bf16") == 0) hook = dist::CommHookType::Bf16Compress;
      if (std::strcmp(argv[i], "--hook-averages") == 0) hook_averages = true;
    }
    if (mode == "train" && argc >= 4)
      return train(std::stoll(argv[2]), argv[3], micro, find_unused, adam, hook, hook_averages);
    if (mode == "reference" && argc >= 4)
      return reference(std::stoll(argv[2]), argv[3], micro, adam);
    if (mode == "unused") return unused();
    if (mode == "error-at-exit") return error_at_exit();
    if (mode == "die") return die(false, 1);
    if (mode == "die-mid") return die(true, argc > 2 ? std::atoi(argv[2]) : 1);
    if (mode == "subgroup-outlives") return subgroup_outlives();
    if (mode == "leave" && argc >= 4)
      return leave(std::atoi(argv[2]), std::atoi(argv[3]),
                   argc > 4 && std::strcmp(argv[4], "--destroy") == 0);
    if (mode == "mpi-init") return mpi_init();
    bool by_world = false;
    for (int i = 2; i < argc; ++i) by_world = by_world || std::strcmp(argv[i], "--initial") == 0;
    if (mode == "uneven" && argc >= 3) return uneven(argv[2], by_world);
    if (mode == "uneven-reference" && argc >= 4)
      return uneven_reference(std::stoi(argv[2]), argv[3], by_world);
    std::fprintf(stderr, "usage: ddp_worker train|reference STEPS OUT [...] | unused\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ddp_worker: %s\n", e.what());
    return 1;
  }
}
