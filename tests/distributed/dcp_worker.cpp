// One rank of the distributed checkpoint tests (tests/distributed/test_dcp.cpp), started by
// brasarun, or alone (no WORLD_SIZE: one process, a plain model, no process group):
//   dcp_worker save DIR STEPS          train fsdp_test::Net STEPS AdamW steps (fully_shard on every
//                                      rank; plain alone), save model + optimizer to DIR
//   dcp_worker resume SRC DST STEPS    load SRC into this run's layout, train STEPS more steps,
//                                      save to DST (STEPS 0: a pure reshard)
//   (save and resume take a last argument --hsdp: fully_shard over a 2 x (world / 2) mesh, HSDP)
//   dcp_worker final DIR OUT           load DIR alone and write the parameters to OUT (brasa::save)
//   dcp_worker compare A B             alone: load both into plain models and optimizers; exit 1
//                                      unless every entry is bit-identical
//   dcp_worker corrupt-load DIR        2 ranks: rank 1's shard file corrupted, the load fails on
//                                      both ranks and changes nothing
//   dcp_worker elastic DIR STEPS EVERY FAIL_AT OUT
//                                      resume from DIR when it holds a checkpoint, train to STEPS
//                                      saving every EVERY steps; in the first attempt
//                                      (BRASA_RESTART_COUNT 0) rank 1 SIGKILLs itself after step
//                                      FAIL_AT (0: never); rank 0 writes the final parameters to
//                                      OUT
//   dcp_worker bench DIR MODE          a 1M-parameter float32 MLP sharded on every rank; MODE save
//                                      or load (prints bytes written / read per rank)
// Every rank prints "rank R: ..." lines with what it wrote and read.

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "brasa/brasa.h"
#include "brasa/distributed/checkpoint.h"
#include "brasa/distributed/fsdp.h"
#include "brasa/distributed/init.h"
#include "fsdp_net.h"

namespace {
using namespace brasa;
namespace dist = brasa::distributed;
namespace dcp = brasa::distributed::checkpoint;
using fsdp_test::Block;
using fsdp_test::kIn;
using fsdp_test::Net;

constexpr int64_t kGlobalBatch = 24;
bool g_hsdp = false;  // --hsdp: a 2 x (world / 2) mesh, replicas over dim 0, shards over dim 1

void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error(what);
}

void batch(int64_t step, int64_t first, int64_t count, Tensor& x, Tensor& y) {
  x = empty({count, kIn}, kDouble);
  y = empty({count, kIn}, kDouble);
  for (int64_t i = 0; i < count * kIn; ++i) {
    const double k = static_cast<double>((step * 1000 + first) * kIn + i);
    x.data_ptr<double>()[i] = std::sin(k * 0.37);
    y.data_ptr<double>()[i] = std::cos(k * 0.23) * 0.5;
  }
}

// The model of this run: fully_shard over all ranks, or plain alone.
struct Run {
  Net net;
  std::optional<dist::DeviceMesh> mesh;
  std::optional<dist::FSDPModule<Net>> root;
  std::vector<dist::FSDPModule<Block>> units;
  std::unique_ptr<optim::AdamW> opt;
  int rank = 0, size = 1;
  int64_t step = 0;

  Run() {
    if (std::getenv("WORLD_SIZE")) {
      auto pg = dist::init_process_group("gloo");
      rank = pg->getRank();
      size = pg->getSize();
    }
    manual_seed(7);
    net = Net();
    net->to(kDouble);
    if (size > 1 || std::getenv("WORLD_SIZE")) {
      mesh = g_hsdp ? dist::init_device_mesh("cpu", {2, size / 2}, {"replicate", "shard"})
                    : dist::init_device_mesh("cpu", {size});
      for (size_t i = 0; i < net->blocks.size(); ++i) {
        units.push_back(dist::fully_shard(net->blocks[i], *mesh));
        net->calls[i] = [u = units.back()](const Tensor& x) mutable { return u(x); };
      }
      root.emplace(dist::fully_shard(net, *mesh));
    }
    opt = std::make_unique<optim::AdamW>(net->parameters(),
                                         optim::AdamWOptions(0.01).weight_decay(0.05));
  }
  ~Run() {
    if (dist::is_initialized()) dist::destroy_process_group();
  }

  void train(int64_t steps) {
    const int64_t local = kGlobalBatch / size;
    for (int64_t s = 0; s < steps; ++s, ++step) {
      opt->zero_grad();
      Tensor x, y;
      batch(step, rank * local, local, x, y);
      Tensor out = root ? (*root)(x) : net->forward(x);
      nn::functional::mse_loss(out, y).backward();
      opt->step();
    }
  }
  dcp::SaveInfo save(const std::string& dir) {
    auto sd = dcp::get_state_dict(*net, opt.get(), mesh);
    sd.add("step", scalar_tensor(step, TensorOptions().dtype(kLong)));
    auto info = dcp::save(sd, dir);
    std::printf("rank %d: saved %s: wrote %lld bytes (all ranks %lld, metadata %lld)\n", rank,
                dir.c_str(), static_cast<long long>(info.bytes_written),
                static_cast<long long>(info.total_bytes),
                static_cast<long long>(info.metadata_bytes));
    return info;
  }
  dcp::LoadInfo load(const std::string& dir) {
    auto info = dcp::load_state_dict(*net, opt.get(), dir, mesh);
    dcp::StateDict extra;
    Tensor s = scalar_tensor(0, TensorOptions().dtype(kLong));
    extra.add("step", s);
    dcp::load(extra, dir);
    step = s.item<int64_t>();
    std::printf("rank %d: loaded %s: needed %lld bytes, read %lld from %lld files\n", rank,
                dir.c_str(), static_cast<long long>(info.bytes_needed),
                static_cast<long long>(info.bytes_read), static_cast<long long>(info.files_opened));
    return info;
  }
};

int compare(const std::string& a, const std::string& b) {
  auto entries = [](const std::string& dir) {
    manual_seed(1);  // other initial values than the checkpoint's
    Net net;
    net->to(kDouble);
    optim::AdamW opt(net->parameters(), optim::AdamWOptions(0.5));
    dcp::load_state_dict(*net, &opt, dir);
    return dcp::get_state_dict(*net, &opt);
  };
  const auto x = entries(a), y = entries(b);
  require(x.size() == y.size(), "the checkpoints have different entries");
  int64_t optim_entries = 0;
  for (const auto& e : x.entries()) {
    const auto* f = y.find(e.name);
    require(f != nullptr, "entry " + e.name + " missing in " + b);
    require(e.local.sizes() == f->local.sizes() && equal(e.local, f->local),
            "entry " + e.name + " differs");
    optim_entries += e.name.rfind("optim.", 0) == 0;
  }
  std::printf("compare: %zu entries bit-identical (%lld of the optimizer)\n", x.size(),
              static_cast<long long>(optim_entries));
  require(optim_entries > 0, "no optimizer state compared");
  return 0;
}

int final_params(const std::string& dir, const std::string& out) {
  Run run;
  run.load(dir);
  std::vector<Tensor> params;
  for (const auto& item : run.net->named_parameters()) params.push_back(item.value());
  brasa::save(params, out);
  return 0;
}

int corrupt_load(const std::string& dir) {
  Run run;
  run.train(2);
  run.save(dir);
  const auto meta = dcp::read_metadata(dir);
  const auto before = dist::get_full_state_dict(*run.net, *run.mesh);
  run.opt->zero_grad();
  if (run.rank == 0) {  // flip a byte of the file only rank 1 reads
    const std::string victim = dir + "/" + meta.files.back().name;
    std::fstream f(victim, std::ios::in | std::ios::out | std::ios::binary);
    char c = 0;
    f.seekg(3);
    f.read(&c, 1);
    c = static_cast<char>(c ^ 0x5a);
    f.seekp(3);
    f.write(&c, 1);
  }
  dist::default_process_group()->barrier()->wait();
  bool threw = false;
  try {
    run.load(dir);
  } catch (const SerializationError& e) {
    threw = true;
    const std::string msg = e.what();
    std::printf("rank %d: load failed as expected: %s\n", run.rank, msg.c_str());
    if (run.rank == 1) {
      require(msg.find(meta.files.back().name) != std::string::npos &&
                  msg.find("'model.") != std::string::npos,
              "rank 1's error names neither the file nor the tensor: " + msg);
    } else {
      require(msg.find("rank(s) 1") != std::string::npos, "rank 0's error: " + msg);
    }
  }
  require(threw, "the corrupt load succeeded");
  const auto after = dist::get_full_state_dict(*run.net, *run.mesh);
  for (size_t i = 0; i < before.size(); ++i) {
    require(equal(before[i].second, after[i].second), "the failed load changed " + before[i].first);
  }
  return 0;
}

int elastic(const std::string& dir, int64_t steps, int64_t every, int64_t fail_at,
            const std::string& out) {
  Run run;
  const char* restart = std::getenv("BRASA_RESTART_COUNT");
  const bool first_attempt = restart == nullptr || std::string(restart) == "0";
  if (std::filesystem::exists(dir + "/.metadata")) {
    run.load(dir);
    std::printf("rank %d: resumed from the committed step %lld\n", run.rank,
                static_cast<long long>(run.step));
  }
  while (run.step < steps) {
    run.train(1);
    if (first_attempt && run.rank == 1 && run.step == fail_at) ::kill(::getpid(), SIGKILL);
    if (run.step % every == 0) run.save(dir);
  }
  const auto full = dist::get_full_state_dict(*run.net, *run.mesh);
  if (run.rank == 0) {
    std::vector<Tensor> params;
    for (const auto& e : full) params.push_back(e.second);
    brasa::save(params, out);
  }
  return 0;
}

struct MlpImpl : nn::Module {
  MlpImpl() {
    for (int i = 0; i < 4; ++i)
      layers.push_back(register_module("l" + std::to_string(i), nn::Linear(500, 500)));
  }
  Tensor forward(Tensor x) {
    for (auto& l : layers) x = l->forward(x);
    return x;
  }
  std::vector<nn::Linear> layers;
};
BRASA_MODULE(Mlp);

int bench(const std::string& dir, const std::string& mode) {
  auto pg = dist::init_process_group("gloo");
  auto mesh = dist::init_device_mesh("cpu", {pg->getSize()});
  manual_seed(3);
  Mlp mlp;
  std::vector<dist::FSDPModule<nn::Linear>> units;
  for (auto& l : mlp->layers) units.push_back(dist::fully_shard(l, mesh));
  auto root = dist::fully_shard(mlp, mesh);
  auto sd = dcp::get_state_dict(*mlp, nullptr, mesh);
  const auto t0 = std::chrono::steady_clock::now();
  if (mode == "save") {
    auto info = dcp::save(sd, dir);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("rank %d: bench save: %lld bytes written (all ranks %lld), %.3f s\n", pg->getRank(),
                static_cast<long long>(info.bytes_written),
                static_cast<long long>(info.total_bytes), s);
  } else {
    auto info = dcp::load(sd, dir);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("rank %d: bench load: needed %lld bytes, read %lld from %lld files, %.3f s\n",
                pg->getRank(), static_cast<long long>(info.bytes_needed),
                static_cast<long long>(info.bytes_read), static_cast<long long>(info.files_opened),
                s);
    // Whole 64 KiB blocks: at most two extra blocks per stored chunk overlapped.
    require(info.bytes_read <= info.bytes_needed + 2 * 65536 * 8 * 4, "read far more than needed");
  }
  dist::destroy_process_group();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[argc - 1]) == "--hsdp") {
    g_hsdp = true;
    --argc;
  }
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "save" && argc == 4) {
      Run run;
      run.train(std::stoll(argv[3]));
      run.save(argv[2]);
      return 0;
    }
    if (mode == "resume" && argc == 5) {
      Run run;
      run.load(argv[2]);
      run.train(std::stoll(argv[4]));
      run.save(argv[3]);
      return 0;
    }
    if (mode == "final" && argc == 4) return final_params(argv[2], argv[3]);
    if (mode == "compare" && argc == 4) return compare(argv[2], argv[3]);
    if (mode == "corrupt-load" && argc == 3) return corrupt_load(argv[2]);
    if (mode == "elastic" && argc == 7) {
      return elastic(argv[2], std::stoll(argv[3]), std::stoll(argv[4]), std::stoll(argv[5]),
                     argv[6]);
    }
    if (mode == "bench" && argc == 4) return bench(argv[2], argv[3]);
    std::fprintf(stderr, "usage: dcp_worker save|resume|final|compare|corrupt-load|bench ...\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dcp_worker: %s\n", e.what());
    return 1;
  }
}
