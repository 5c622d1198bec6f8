// fsdp_worker die allgather|reduce-scatter (two processes started by test_fsdp.cpp, not by
// brasarun, which would stop the survivor): rank 1 trains one step with rank 0, then SIGKILLs
// itself where rank 0 is about to enter a unit's all-gather (the root's, before forward) or a
// reduce-scatter (the last block's, first in backward when nothing reshards after forward).
// Rank 0 must fail with a DistributedError naming rank 1 and exit 0.

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "brasa/brasa.h"
#include "brasa/distributed/fsdp.h"
#include "brasa/distributed/init.h"
#include "brasa/distributed/process_group_gloo.h"
#include "fsdp_net.h"

int die_in_collective(const std::string& phase) {
  using namespace brasa;
  namespace dist = brasa::distributed;
  auto pg = dist::init_process_group("gloo");
  const int rank = pg->getRank();
  auto mesh = dist::init_device_mesh("cpu", {pg->getSize()});
  manual_seed(7);
  fsdp_test::Net net;
  dist::FullyShardOptions options;
  options.reshard_after_forward = phase == "allgather";
  std::vector<dist::FSDPModule<fsdp_test::Block>> units;
  for (size_t i = 0; i < net->blocks.size(); ++i) {
    units.push_back(dist::fully_shard(net->blocks[i], mesh, options));
    net->calls[i] = [u = units.back()](const Tensor& x) mutable { return u(x); };
  }
  auto root = dist::fully_shard(net, mesh, options);
  Tensor x = ones({2, fsdp_test::kIn});
  root(x).sum().backward();  // one step together
  auto& store = *static_cast<dist::ProcessGroupGloo&>(*pg)._getStore();
  if (rank == 0) store.set("die/ready", std::vector<char>{'1'});
  if (rank == 1) {
    store.wait({"die/ready"});
    if (phase != "allgather") root(x);  // the forward's all-gathers, then die before backward
    ::kill(::getpid(), SIGKILL);
  }
  try {
    Tensor loss = root(x).sum();
    loss.backward();
  } catch (const dist::DistributedError& e) {
    const std::string msg = e.what();
    const bool named = msg.find("rank 1") != std::string::npos;
    const bool right_op =
        msg.find(phase == "allgather" ? "allgather" : "reduce_scatter") != std::string::npos;
    std::printf("survivor: %s\n", e.what());
    return named && right_op ? 0 : 7;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "survivor: not a DistributedError: %s\n", e.what());
    return 8;
  }
  std::fprintf(stderr, "survivor: no error after rank 1 died\n");
  return 6;
}
