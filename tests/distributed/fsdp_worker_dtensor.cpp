// fsdp_worker dtensor: DeviceMesh and DTensor checked on every rank (1-D mesh; 2-D on 4 ranks).
// Every redistribute is compared with distribute() of the known global tensor, which only
// chunks locally: the collectives must produce exactly the pieces the layout arithmetic gives.

#include <cstdio>
#include <string>

#include "brasa/brasa.h"
#include "brasa/distributed/dtensor.h"
#include "brasa/distributed/init.h"

namespace {
using namespace brasa;
namespace dist = brasa::distributed;

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "rank %d: FAILED %s\n", dist::get_rank(), what.c_str());
  ++failures;
}

std::string str(const std::vector<dist::Placement>& p) {
  std::string s;
  for (const auto& x : p) s += x.to_string() + " ";
  return s;
}

template <typename F>
void expect_value_error(F&& f, const std::string& fragment, const std::string& what) {
  try {
    f();
    expect(false, what + ": no error");
  } catch (const ValueError& e) {
    expect(std::string(e.what()).find(fragment) != std::string::npos,
           what + ": message '" + e.what() + "' lacks '" + fragment + "'");
  }
}

// Every transition between `layouts` on `mesh`, for a global tensor of `rows` x 5.
void check_transitions(const dist::DeviceMesh& mesh,
                       const std::vector<std::vector<dist::Placement>>& layouts, int64_t rows) {
  Tensor global = arange(rows * 5, kDouble).view({rows, 5}) * 0.5 - 3;
  for (const auto& from : layouts) {
    auto d = dist::DTensor::distribute(global, mesh, from);
    expect(equal(d.full_tensor(), global), "full_tensor of " + str(from));
    for (const auto& to : layouts) {
      auto r = d.redistribute(mesh, to);
      auto want = dist::DTensor::distribute(global, mesh, to);
      // Partial pieces are checked through their sum (full_tensor); shards and replicas exactly.
      bool partial = false;
      for (const auto& p : to) partial = partial || p.is_partial();
      expect(partial ? equal(r.full_tensor(), global) : equal(r.to_local(), want.to_local()),
             "redistribute " + str(from) + "-> " + str(to) + " rows " + std::to_string(rows));
    }
  }
}

}  // namespace

int dtensor_checks() {
  using dist::Partial;
  using dist::Replicate;
  using dist::Shard;
  auto pg = dist::init_process_group("gloo");
  const int rank = pg->getRank(), size = pg->getSize();
  auto mesh = dist::init_device_mesh("cpu", {size}, {"dp"});
  expect(mesh.size() == size && mesh.get_local_rank("dp") == rank, "1-D mesh rank and size");
  expect(mesh.get_group(0)->getSize() == size, "1-D mesh group");
  for (int64_t rows : {int64_t{10}, int64_t{3}, int64_t{size * 2}}) {
    check_transitions(mesh, {{Shard(0)}, {Shard(1)}, {Replicate()}, {Partial()}}, rows);
  }
  // A Partial made of different pieces on every rank: reduced by all-reduce or reduce-scatter.
  Tensor global = arange(30, kDouble).view({10, 3});
  Tensor piece = global / size + (rank - (size - 1) / 2.0);
  auto partial = dist::DTensor::from_local(piece, mesh, {Partial()});
  expect(allclose(partial.full_tensor(), global, 0, 1e-12), "Partial -> Replicate");
  expect(allclose(partial.redistribute(mesh, {Shard(0)}).to_local(),
                  dist::DTensor::distribute(global, mesh, {Shard(0)}).to_local(), 0, 1e-12),
         "Partial -> Shard(0) by reduce-scatter");
  // Uneven from_local needs the global shape; a wrong piece is named.
  auto uneven = dist::DTensor::distribute(global, mesh, {Shard(0)});
  expect(uneven.to_local().size(0) == dist::chunk_range(10, size, rank).second, "chunk sizes");
  auto again =
      dist::DTensor::from_local(uneven.to_local(), mesh, {Shard(0)}, std::vector<int64_t>{10, 3});
  expect(equal(again.full_tensor(), global), "from_local with shape");
  expect_value_error(
      [&] {
        dist::DTensor::from_local(global, mesh, {Shard(0), Replicate()});
      },
      "2 placements", "two placements on a 1-D mesh");
  expect_value_error([&] { dist::DTensor::from_local(global, mesh, {Shard(2)}); }, "out of range",
                     "Shard(2) of a 2-D tensor");
  if (size > 1) {
    expect_value_error(
        [&] {
          dist::DTensor::from_local(ones({11, 3}), mesh, {Shard(0)}, std::vector<int64_t>{10, 3});
        },
        "holds a local tensor", "a piece of the wrong size");
  }
  if (size == 4) {
    auto mesh2 = dist::init_device_mesh("cpu", {2, 2}, {"dp", "tp"});
    expect(mesh2.get_local_rank("dp") == rank / 2 && mesh2.get_local_rank("tp") == rank % 2,
           "2-D coordinates");
    expect(mesh2.slice_ranks(0) == std::vector<int>{rank % 2, rank % 2 + 2}, "dim 0 slice");
    expect(mesh2["tp"].size() == 2 && mesh2["tp"].get_group(0)->getSize() == 2, "sub-mesh");
    std::vector<Tensor> t{full({1}, static_cast<double>(rank), kDouble)};
    mesh2.get_group("tp")->allreduce(t)->wait();
    expect(t[0].item<double>() == (rank / 2) * 4 + 1, "allreduce over the tp group");
    check_transitions(mesh2,
                      {{Shard(0), Shard(1)},
                       {Shard(0), Shard(0)},
                       {Replicate(), Shard(0)},
                       {Shard(1), Replicate()},
                       {Replicate(), Replicate()},
                       {Partial(), Shard(0)},
                       {Replicate(), Partial()}},
                      7);
    expect_value_error(
        [&] {
          uneven.redistribute(mesh2, {Replicate(), Replicate()});
        },
        "mesh", "redistribute onto another mesh");
    expect_value_error(
        [&] {
          dist::init_device_mesh("cpu", {3, 2});
        },
        "world has 4", "mesh larger than the world");
  }
  dist::destroy_process_group();
  return failures == 0 ? 0 : 1;
}
