// init_process_group and friends: the default group, its rendezvous and subgroups.

#include "brasa/distributed/init.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>

#include "brasa/distributed/prefix_store.h"
#include "brasa/distributed/process_group_gloo.h"
#include "brasa/distributed/process_group_mpi.h"
#include "brasa/distributed/tcp_store.h"
#include "distributed/heartbeat.h"

namespace brasa::distributed {
namespace {

struct State {
  std::mutex mutex;
  IntrusivePtr<ProcessGroup> group;
  IntrusivePtr<Store> store;  // the rendezvous namespace of this run and generation
  std::string backend;
  std::vector<IntrusivePtr<ProcessGroup>> subgroups;
  std::shared_ptr<detail::Heartbeat> heartbeat;
  int64_t next_group_id = 0;
};

State& state() {
  static State s;
  return s;
}

std::optional<std::string> env(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

int64_t env_int(const char* name, int64_t lo, int64_t hi) {
  auto v = env(name);
  BRASA_CHECK(v.has_value(), "init_process_group: the environment variable ", name,
              " is not set (start the program with brasarun, torchrun or mpirun, or pass it in "
              "InitOptions)");
  size_t used = 0;
  int64_t x = 0;
  try {
    x = std::stoll(*v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  BRASA_CHECK(used == v->size() && x >= lo && x <= hi, "init_process_group: ", name, "='", *v,
              "' is not an integer in [", lo, ", ", hi, "]");
  return x;
}

std::string first_env(std::initializer_list<const char*> names, const std::string& fallback) {
  for (const char* n : names)
    if (auto v = env(n)) return *v;
  return fallback;
}

}  // namespace

IntrusivePtr<ProcessGroup> init_process_group(const std::string& backend,
                                              const InitOptions& options) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  BRASA_CHECK(!s.group, "init_process_group: the default process group is already initialized ",
              "(call destroy_process_group first)");
  BRASA_CHECK(backend == "gloo" || backend == "mpi", "init_process_group: unknown backend '",
              backend, "' (expected \"gloo\" or \"mpi\")");
  if (backend == "mpi") {
    auto group = ProcessGroupMPI::createProcessGroupMPI();
    s.group = group;
    s.backend = backend;
    return s.group;
  }
  // RANK / WORLD_SIZE, else (under mpirun) OpenMPI's placement.
  const bool from_mpirun = !env("RANK") && !env("WORLD_SIZE") && launched_by_mpirun();
  const MpiLaunchInfo mpi = from_mpirun ? mpi_launch_info() : MpiLaunchInfo{};
  const int world = options.world_size ? *options.world_size
                    : from_mpirun      ? mpi.size
                                       : static_cast<int>(env_int("WORLD_SIZE", 1, 1 << 20));
  const int rank = options.rank  ? *options.rank
                   : from_mpirun ? mpi.rank
                                 : static_cast<int>(env_int("RANK", 0, world - 1));
  BRASA_CHECK(world >= 1 && rank >= 0 && rank < world, "init_process_group: rank ", rank,
              " is out of range for world size ", world);
  IntrusivePtr<Store> store = options.store;
  const std::optional<int> server_rank = store ? std::nullopt : std::optional<int>(0);
  if (!store) {
    const std::string addr = first_env({"MASTER_ADDR"}, "127.0.0.1");
    TCPStoreOptions topts;
    topts.port = static_cast<uint16_t>(env_int("MASTER_PORT", 1, 65535));
    topts.isServer = rank == 0;
    topts.numWorkers = static_cast<size_t>(world);
    topts.timeout = options.timeout;
    store = make_intrusive<TCPStore>(addr, topts);
  }
  const std::string prefix = first_env({"TORCHELASTIC_RUN_ID", "BRASA_RUN_ID"}, "run") + "/" +
                             first_env({"TORCHELASTIC_RESTART_COUNT", "BRASA_RESTART_COUNT"}, "0");
  s.store = make_intrusive<PrefixStore>(prefix, store);
  auto gloo_options = ProcessGroupGloo::Options::create(options.timeout);
  s.group = make_intrusive<ProcessGroupGloo>(make_intrusive<PrefixStore>("default_pg", s.store),
                                             rank, world, gloo_options);
  if (world > 1) {
    s.heartbeat = std::make_shared<detail::Heartbeat>(s.store, rank, world, server_rank);
    std::weak_ptr<detail::Heartbeat> weak = s.heartbeat;
    s.group->set_failure_diagnoser([weak] {
      auto hb = weak.lock();
      return hb ? hb->diagnose() : std::string();
    });
    // Note [Lost peers]: a lost rank fails the default group's ops in flight.
    s.heartbeat->add_loss_listener(
        [handler = static_cast<ProcessGroupGloo&>(*s.group).peer_loss_handler()](
            const detail::Heartbeat::LostRank& lost) {
          handler(lost.why, detail::Heartbeat::grace(lost));
        });
  }
  s.backend = backend;
  return s.group;
}

bool is_initialized() {
  std::lock_guard<std::mutex> lock(state().mutex);
  return static_cast<bool>(state().group);
}

IntrusivePtr<ProcessGroup> default_process_group() {
  std::lock_guard<std::mutex> lock(state().mutex);
  BRASA_CHECK(state().group,
              "the default process group is not initialized (call "
              "init_process_group first)");
  return state().group;
}

int get_rank() { return default_process_group()->getRank(); }
int get_world_size() { return default_process_group()->getSize(); }

IntrusivePtr<ProcessGroup> new_group(const std::vector<int>& ranks) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  BRASA_CHECK(s.group, "new_group: the default process group is not initialized");
  const int world = s.group->getSize(), me = s.group->getRank();
  std::vector<int> members = ranks;
  if (members.empty())
    for (int r = 0; r < world; ++r) members.push_back(r);
  int my_index = -1;
  for (size_t i = 0; i < members.size(); ++i) {
    BRASA_CHECK(members[i] >= 0 && members[i] < world, "new_group: rank ", members[i],
                " is out of range for world size ", world);
    for (size_t j = 0; j < i; ++j)
      BRASA_CHECK(members[j] != members[i], "new_group: rank ", members[i], " is listed twice");
    if (members[i] == me) my_index = static_cast<int>(i);
  }
  const int64_t id = s.next_group_id++;
  if (s.backend == "mpi") {
    auto g = ProcessGroupMPI::createProcessGroupMPI(members);
    if (g) s.subgroups.push_back(g);
    return g;
  }
  if (my_index < 0) return IntrusivePtr<ProcessGroup>();
  auto store = make_intrusive<PrefixStore>("group_" + std::to_string(id), s.store);
  auto g = make_intrusive<ProcessGroupGloo>(store, my_index, static_cast<int>(members.size()),
                                            static_cast<ProcessGroupGloo&>(*s.group).getOptions());
  if (s.heartbeat) {  // Note [Lost peers]: only the loss of one of its members fails its ops
    s.heartbeat->add_loss_listener(
        [handler = g->peer_loss_handler(), members](const detail::Heartbeat::LostRank& lost) {
          if (std::find(members.begin(), members.end(), lost.rank) != members.end())
            handler(lost.why, detail::Heartbeat::grace(lost));
        });
  }
  s.subgroups.push_back(g);
  return g;
}

void destroy_process_group() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.subgroups.clear();
  s.group = IntrusivePtr<ProcessGroup>();
  s.heartbeat.reset();
  s.store = IntrusivePtr<Store>();
  s.backend.clear();
  s.next_group_id = 0;
}

}  // namespace brasa::distributed
