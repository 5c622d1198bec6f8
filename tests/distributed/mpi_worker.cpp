// Run under mpirun (-np 1..4): every ProcessGroupMPI collective against a reference computed
// locally (each rank can compute every rank's input), for several dtypes and sizes; subgroups,
// async ops, a send/recv ring, argument and MPI errors. Exits non-zero with a message on any
// mismatch.

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "brasa/brasa.h"
#include "brasa/distributed/process_group_mpi.h"

namespace {

using namespace brasa;               // NOLINT
using namespace brasa::distributed;  // NOLINT

int g_rank = 0;

[[noreturn]] void fail(const std::string& msg) {
  std::fprintf(stderr, "mpi_worker rank %d: FAIL %s\n", g_rank, msg.c_str());
  std::fflush(stderr);
  std::_Exit(1);
}

#define EXPECT(cond, ...) \
  if (!(cond)) fail(detail::str_cat(__FILE__, ":", __LINE__, ": ", #cond, ": ", __VA_ARGS__))

// Rank `r`'s element i of input `k` (small integers: exact in every dtype, bf16 included).
double value(int r, int64_t i, int k = 0) {
  return static_cast<double>((r * 13 + i * 7 + k * 5) % 17 - 8);
}
double small_value(int r, int64_t i) { return static_cast<double>((r + i) % 2 + 1); }

Tensor make(int64_t n, ScalarType dtype, const std::function<double(int64_t)>& f) {
  Tensor t = empty({n}, TensorOptions(ScalarType::Double));
  auto* p = t.data_ptr<double>();
  for (int64_t i = 0; i < n; ++i) p[i] = f(i);
  return t.to(dtype);
}

void expect_equal(const Tensor& got, const Tensor& want, const std::string& what) {
  EXPECT(got.sizes() == want.sizes(), what, ": shape ", got.sizes(), " vs ", want.sizes());
  EXPECT(got.scalar_type() == want.scalar_type(), what, ": dtype ", got.scalar_type());
  Tensor a = got.to(ScalarType::Double).contiguous();
  Tensor b = want.to(ScalarType::Double).contiguous();
  for (int64_t i = 0; i < a.numel(); ++i) {
    double x = a.data_ptr<double>()[i];
    double y = b.data_ptr<double>()[i];
    EXPECT(x == y, what, ": element ", i, " is ", x, ", expected ", y);
  }
}

// uint8 inputs are shifted to be non-negative.
double shift(ScalarType dtype) { return dtype == ScalarType::Byte ? 8.0 : 0.0; }

double reduce_ref(ReduceOp::RedOpType op, int size, ScalarType dtype, int64_t i) {
  if (op == ReduceOp::PRODUCT) {
    double acc = 1;
    for (int r = 0; r < size; ++r) acc *= small_value(r, i);
    return acc;
  }
  double acc = value(0, i) + shift(dtype);
  for (int r = 1; r < size; ++r) {
    double v = value(r, i) + shift(dtype);
    acc = op == ReduceOp::MIN ? std::min(acc, v) : op == ReduceOp::MAX ? std::max(acc, v) : acc + v;
  }
  if (op != ReduceOp::AVG) return acc;
  bool integral = dtype != ScalarType::Float && dtype != ScalarType::Double &&
                  dtype != ScalarType::BFloat16 && dtype != ScalarType::Half;
  return integral ? std::trunc(acc / size) : acc / size;
}

Tensor reduce_input(ReduceOp::RedOpType op, int r, int64_t n, ScalarType dtype) {
  return make(n, dtype, [&](int64_t i) {
    return op == ReduceOp::PRODUCT ? small_value(r, i) : value(r, i) + shift(dtype);
  });
}

void test_reductions(ProcessGroupMPI& pg, int64_t n, ScalarType dtype) {
  const int rank = pg.getRank();
  const int size = pg.getSize();
  const std::string tag = detail::str_cat(dtype, " n=", n);
  for (auto op : {ReduceOp::SUM, ReduceOp::AVG, ReduceOp::PRODUCT, ReduceOp::MIN, ReduceOp::MAX}) {
    auto ref = [&](ScalarType dt) {
      Tensor want =
          make(n, ScalarType::Double, [&](int64_t i) { return reduce_ref(op, size, dt, i); });
      return want.to(dt);
    };
    std::vector<Tensor> ts{reduce_input(op, rank, n, dtype)};
    pg.allreduce(ts, {op})->wait();
    expect_equal(ts[0], ref(dtype), detail::str_cat("allreduce ", to_string(op), " ", tag));

    if (op == ReduceOp::PRODUCT || op == ReduceOp::MIN) continue;  // allreduce covers them
    const int root = size - 1;
    std::vector<Tensor> rs{reduce_input(op, rank, n, dtype)};
    ReduceOptions ro;
    ro.reduceOp = op;
    ro.rootRank = root;
    pg.reduce(rs, ro)->wait();
    if (rank == root) expect_equal(rs[0], ref(dtype), detail::str_cat("reduce ", tag));

    // reduce_scatter: input k of rank r = value shifted by k, output on rank k.
    std::vector<Tensor> outs{empty({n}, TensorOptions(dtype))};
    std::vector<std::vector<Tensor>> ins(1);
    for (int k = 0; k < size; ++k) {
      ins[0].push_back(make(n, dtype, [&](int64_t i) {
        return op == ReduceOp::PRODUCT ? small_value(rank, i + k)
                                       : value(rank, i + k) + shift(dtype);
      }));
    }
    ReduceScatterOptions so;
    so.reduceOp = op;
    pg.reduce_scatter(outs, ins, so)->wait();
    Tensor want = make(n, ScalarType::Double,
                       [&](int64_t i) { return reduce_ref(op, size, dtype, i + rank); });
    expect_equal(outs[0], want.to(dtype),
                 detail::str_cat("reduce_scatter ", to_string(op), " ", tag));
  }
}

void test_exchange(ProcessGroupMPI& pg, int64_t n, ScalarType dtype) {
  const int rank = pg.getRank();
  const int size = pg.getSize();
  const std::string tag = detail::str_cat(dtype, " n=", n);
  auto input = [&](int r, int k = 0) {
    return make(n, dtype, [&](int64_t i) { return value(r, i, k); });
  };

  const int root = size > 1 ? 1 : 0;
  std::vector<Tensor> b{rank == root ? input(root) : zeros({n}, TensorOptions(dtype))};
  BroadcastOptions bo;
  bo.rootRank = root;
  pg.broadcast(b, bo)->wait();
  expect_equal(b[0], input(root), "broadcast " + tag);

  std::vector<Tensor> in{input(rank)};
  std::vector<std::vector<Tensor>> outs(1);
  for (int r = 0; r < size; ++r) outs[0].push_back(empty({n}, TensorOptions(dtype)));
  pg.allgather(outs, in)->wait();
  for (int r = 0; r < size; ++r) expect_equal(outs[0][r], input(r), "allgather " + tag);

  std::vector<std::vector<Tensor>> gouts;
  if (rank == root) gouts = outs;
  for (auto& t : outs[0]) t.zero_();
  GatherOptions go;
  go.rootRank = root;
  pg.gather(gouts, in, go)->wait();
  if (rank == root) {
    for (int r = 0; r < size; ++r) expect_equal(gouts[0][r], input(r), "gather " + tag);
  }

  std::vector<std::vector<Tensor>> sins;
  if (rank == root) {
    sins.resize(1);
    for (int r = 0; r < size; ++r) sins[0].push_back(input(root, r));
  }
  std::vector<Tensor> sout{empty({n}, TensorOptions(dtype))};
  ScatterOptions sco;
  sco.rootRank = root;
  pg.scatter(sout, sins, sco)->wait();
  expect_equal(sout[0], input(root, rank), "scatter " + tag);

  // alltoall: piece for rank d = input(rank, d); received piece from s = input(s, rank).
  std::vector<Tensor> ain, aout;
  for (int r = 0; r < size; ++r) {
    ain.push_back(input(rank, r));
    aout.push_back(empty({n}, TensorOptions(dtype)));
  }
  pg.alltoall(aout, ain)->wait();
  for (int s = 0; s < size; ++s) expect_equal(aout[s], input(s, rank), "alltoall " + tag);

  // alltoall_base with uneven splits: rank r sends (d + r) % 3 rows of width 2 to rank d.
  auto rows = [](int from, int to) -> int64_t { return (to + from) % 3; };
  std::vector<int64_t> in_split, out_split;
  int64_t in_rows = 0, out_rows = 0;
  for (int d = 0; d < size; ++d) {
    in_split.push_back(rows(rank, d));
    out_split.push_back(rows(d, rank));
    in_rows += in_split.back();
    out_rows += out_split.back();
  }
  auto piece = [&](int from, int to, int64_t row, int64_t col) {
    return static_cast<double>((from * 5 + to * 3 + row * 2 + col) % 13);
  };
  Tensor bin = empty({in_rows, 2}, TensorOptions(ScalarType::Double));
  Tensor want = empty({out_rows, 2}, TensorOptions(ScalarType::Double));
  for (int d = 0, off = 0; d < size; off += static_cast<int>(rows(rank, d)), ++d) {
    for (int64_t i = 0; i < rows(rank, d); ++i) {
      for (int c = 0; c < 2; ++c) bin.data_ptr<double>()[(off + i) * 2 + c] = piece(rank, d, i, c);
    }
  }
  for (int s = 0, off = 0; s < size; off += static_cast<int>(rows(s, rank)), ++s) {
    for (int64_t i = 0; i < rows(s, rank); ++i) {
      for (int c = 0; c < 2; ++c) want.data_ptr<double>()[(off + i) * 2 + c] = piece(s, rank, i, c);
    }
  }
  Tensor bin_t = bin.to(dtype);
  Tensor bout = empty({out_rows, 2}, TensorOptions(dtype));
  pg.alltoall_base(bout, bin_t, out_split, in_split)->wait();
  expect_equal(bout, want.to(dtype), "alltoall_base " + tag);
}

void test_noncontiguous(ProcessGroupMPI& pg) {
  const int size = pg.getSize();
  Tensor base = make(20, ScalarType::Float, [&](int64_t i) { return value(pg.getRank(), i); });
  Tensor view = base.slice(0, 0, 20, 2);
  std::vector<Tensor> ts{view};
  pg.allreduce(ts)->wait();
  for (int64_t i = 0; i < 20; ++i) {
    double want =
        i % 2 == 0 ? reduce_ref(ReduceOp::SUM, size, ScalarType::Float, i) : value(pg.getRank(), i);
    EXPECT(base.data_ptr<float>()[i] == want, "non-contiguous allreduce element ", i);
  }
  // Empty and 0-d tensors; allgather into non-contiguous outputs.
  std::vector<Tensor> e{zeros({0, 3})};
  pg.allreduce(e)->wait();
  EXPECT(e[0].numel() == 0, "empty allreduce");
  std::vector<Tensor> z{full({}, static_cast<double>(pg.getRank()))};
  pg.broadcast(z)->wait();
  EXPECT(z[0].item<float>() == 0.0f, "0-d broadcast");
  Tensor grid = zeros({3, size});
  std::vector<std::vector<Tensor>> cols(1);
  for (int r = 0; r < size; ++r) cols[0].push_back(grid.select(1, r));
  std::vector<Tensor> mine{full({3}, pg.getRank() + 1.0)};
  pg.allgather(cols, mine)->wait();
  for (int r = 0; r < size; ++r) {
    for (int i = 0; i < 3; ++i) {
      EXPECT(grid.data_ptr<float>()[i * size + r] == r + 1.0f, "non-contiguous allgather output");
    }
  }
  // Half allreduce goes through float32.
  std::vector<Tensor> h{
      make(8, ScalarType::Half, [&](int64_t i) { return value(pg.getRank(), i); })};
  pg.allreduce(h)->wait();
  expect_equal(
      h[0],
      make(8, ScalarType::Half,
           [&](int64_t i) { return reduce_ref(ReduceOp::SUM, size, ScalarType::Half, i); }),
      "half allreduce");
}

void test_async_and_ring(ProcessGroupMPI& pg) {
  const int rank = pg.getRank();
  const int size = pg.getSize();
  std::vector<Tensor> a{make(1000, ScalarType::Float, [&](int64_t i) { return value(rank, i); })};
  std::vector<Tensor> b{
      make(1000, ScalarType::Double, [&](int64_t i) { return value(rank, i, 1); })};
  auto wa = pg.allreduce(a);
  auto wb = pg.allreduce(b);
  wb->wait(std::chrono::milliseconds(10000));
  EXPECT(wa->isCompleted(), "FIFO: the first allreduce finished before the second");
  wa->wait();
  EXPECT(wa->isSuccess() && wb->isSuccess(), "async allreduces succeeded");
  EXPECT(wa->result().size() == 1 && wa->result()[0].numel() == 1000, "Work::result");
  Tensor wanta = make(1000, ScalarType::Float, [&](int64_t i) {
    double s = 0;
    for (int r = 0; r < size; ++r) s += value(r, i);
    return s;
  });
  expect_equal(a[0], wanta, "async allreduce a");

  const int next = (rank + 1) % size;
  const int prev = (rank + size - 1) % size;
  std::vector<Tensor> rbuf{empty({100}, TensorOptions(ScalarType::Long))};
  std::vector<Tensor> sbuf{make(100, ScalarType::Long, [&](int64_t i) { return value(rank, i); })};
  auto wr = pg.recv(rbuf, prev, 7);
  auto ws = pg.send(sbuf, next, 7);
  ws->wait(std::chrono::milliseconds(10000));
  wr->wait(std::chrono::milliseconds(10000));
  expect_equal(rbuf[0], make(100, ScalarType::Long, [&](int64_t i) { return value(prev, i); }),
               "send/recv ring");
  pg.barrier()->wait();
}

template <typename E>
void expect_throws(const std::function<void()>& f, const std::string& needle, const char* what) {
  try {
    f();
  } catch (const E& e) {
    EXPECT(std::string(e.what()).find(needle) != std::string::npos, what, ": message '", e.what(),
           "' lacks '", needle, "'");
    return;
  } catch (const std::exception& e) {
    fail(detail::str_cat(what, ": wrong exception type: ", e.what()));
  }
  fail(detail::str_cat(what, ": no exception"));
}

void test_errors(ProcessGroupMPI& pg) {
  const int size = pg.getSize();
  Tensor x = zeros({4});
  std::vector<Tensor> two{x, x};
  expect_throws<ValueError>([&] { pg.allreduce(two); }, "allreduce", "two tensors");
  std::vector<Tensor> one{x};
  BroadcastOptions bo;
  bo.rootRank = size;
  expect_throws<IndexError>([&] { pg.broadcast(one, bo); }, "root rank", "broadcast root");
  std::vector<Tensor> bools{zeros({4}, TensorOptions(ScalarType::Bool))};
  expect_throws<TypeError>([&] { pg.allreduce(bools); }, "bool", "bool allreduce");
  std::vector<std::vector<Tensor>> outs{{zeros({4})}};
  if (size > 1) expect_throws<ValueError>([&] { pg.allgather(outs, one); }, "allgather", "count");
  std::vector<std::vector<Tensor>> bad(1);
  for (int r = 0; r < size; ++r) bad[0].push_back(zeros({5}));
  expect_throws<ValueError>([&] { pg.allgather(bad, one); }, "shape", "allgather shape");
  Tensor in = zeros({4, 2});
  Tensor out = zeros({4, 2});
  std::vector<int64_t> splits(static_cast<size_t>(size), 0);
  splits[0] = 3;
  std::vector<int64_t> none;
  expect_throws<ValueError>([&] { pg.alltoall_base(out, in, none, splits); }, "sum to 3",
                            "alltoall_base splits");
  expect_throws<IndexError>([&] { pg.recv(one, size, 0); }, "recv", "recv rank");

  // A message shorter than the recv buffer is a DistributedError. (OpenMPI 4.1 reports no error
  // for a self-send longer than the buffer: it truncates silently.)
  const int me = pg.getRank();
  std::vector<Tensor> small{zeros({4})};
  std::vector<Tensor> big2{zeros({8})};
  auto wr2 = pg.recv(big2, me, 101);
  pg.send(small, me, 101)->wait(std::chrono::milliseconds(10000));
  expect_throws<DistributedError>([&] { wr2->wait(std::chrono::milliseconds(10000)); },
                                  "expected 32 bytes, received 16", "short recv");
  // A recv nobody matches times out on the waiting side and is cancelled at destruction.
  std::vector<Tensor> lonely{zeros({1})};
  auto wl = pg.recv(lonely, me, 999);
  expect_throws<DistributedTimeoutError>([&] { wl->wait(std::chrono::milliseconds(50)); },
                                         "did not finish", "recv timeout");
}

void test_subgroups(int world_rank, int world_size) {
  std::vector<int> evens, reversed;
  for (int r = 0; r < world_size; r += 2) evens.push_back(r);
  for (int r = world_size - 1; r >= 0; --r) reversed.push_back(r);
  auto even_pg = ProcessGroupMPI::createProcessGroupMPI(evens);
  EXPECT(static_cast<bool>(even_pg) == (world_rank % 2 == 0), "subgroup membership");
  if (even_pg) {
    EXPECT(even_pg->getRank() == world_rank / 2, "subgroup rank ", even_pg->getRank());
    EXPECT(even_pg->getSize() == static_cast<int>(evens.size()), "subgroup size");
    std::vector<Tensor> t{full({3}, world_rank + 1.0)};
    even_pg->allreduce(t)->wait();
    double want = 0;
    for (int r : evens) want += r + 1.0;
    expect_equal(t[0], full({3}, want), "subgroup allreduce");
  }
  auto rev_pg = ProcessGroupMPI::createProcessGroupMPI(reversed);
  EXPECT(rev_pg && rev_pg->getRank() == world_size - 1 - world_rank, "reversed subgroup rank");
  std::vector<Tensor> t{full({2}, static_cast<double>(world_rank))};
  BroadcastOptions bo;  // root = group rank 0 = world rank size-1
  rev_pg->broadcast(t, bo)->wait();
  expect_equal(t[0], full({2}, static_cast<double>(world_size - 1)), "reversed broadcast");
  expect_throws<ValueError>(
      [&] {
        ProcessGroupMPI::createProcessGroupMPI({0, 0});
      },
      "twice", "duplicate ranks");
}

void bench_allreduce(ProcessGroupMPI& pg) {
  std::vector<Tensor> t{ones({262144})};  // 1 MiB of float32
  pg.allreduce(t)->wait();
  const int iters = 20;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) pg.allreduce(t)->wait();
  double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
      iters;
  std::vector<Tensor> one{ones({1})};
  start = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) pg.allreduce(one)->wait();
  double small_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
      iters;
  if (pg.getRank() == 0) {
    std::printf(
        "allreduce 1 MiB float32 on %d ranks: %.0f us (%.2f GB/s algbw); 1 float: %.0f us\n",
        pg.getSize(), us, 1048576.0 / us / 1e3, small_us);
  }
}

}  // namespace

int main() {
  alarm(50);  // watchdog: a hung rank dies and mpirun tears the job down
  EXPECT(launched_by_mpirun(), "not launched by mpirun");
  MpiLaunchInfo info = mpi_launch_info();
  g_rank = info.rank;
  auto pg = ProcessGroupMPI::createProcessGroupMPI();
  EXPECT(pg, "world group");
  EXPECT(pg->getRank() == info.rank && pg->getSize() == info.size, "rank/size vs environment");
  EXPECT(pg->getBackendName() == "mpi", "backend name");
  // Every dtype at n=1000; sizes 1 and 100k for float32 and bfloat16 (the full cross product with
  // BRASA_MPI_WORKER_FULL=1: it is slow with 4 ranks on 2 busy cores).
  const bool full = std::getenv("BRASA_MPI_WORKER_FULL") != nullptr;
  for (ScalarType dtype : {ScalarType::Float, ScalarType::Double, ScalarType::Int, ScalarType::Long,
                           ScalarType::BFloat16}) {
    for (int64_t n : {1, 1000, 100000}) {
      bool wide = dtype == ScalarType::Float || dtype == ScalarType::BFloat16;
      if (n != 1000 && !wide && !full) continue;
      test_reductions(*pg, n, dtype);
      test_exchange(*pg, n, dtype);
    }
  }
  for (ScalarType dtype : {ScalarType::Char, ScalarType::Byte, ScalarType::Half}) {
    test_reductions(*pg, 100, dtype);
  }
  test_noncontiguous(*pg);
  test_async_and_ring(*pg);
  test_subgroups(info.rank, info.size);
  test_errors(*pg);
  pg->barrier()->wait();
  bench_allreduce(*pg);
  if (info.rank == 0) std::printf("mpi_worker: all checks passed on %d ranks\n", info.size);
  return 0;
}
