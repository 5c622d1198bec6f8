// ProcessGroupGloo collectives against sequential references: ranks are threads of this process,
// each with its own group; Gloo connects them over loopback TCP. 1 to 4 ranks, several dtypes
// and sizes, non-contiguous inputs and outputs.

#include <cmath>

#include "brasa/brasa.h"
#include "support/gloo_test_store.h"

namespace brasa_gloo_test {
namespace {

/// A tensor of `shape` whose element i on rank r is (i % 3) + (r % 2) + 1 + offset.
Tensor rank_input(std::vector<int64_t> shape, ScalarType dt, int r, double offset = 0) {
  int64_t n = 1;
  for (auto s : shape) n *= s;
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = double(i % 3) + (r % 2) + 1 + offset;
  return brasa::from_blob(v.data(), shape, TensorOptions(kDouble)).clone().to(dt);
}

std::vector<double> values(const Tensor& t) {
  Tensor d = t.to(kDouble).contiguous();
  const double* p = d.data_ptr<double>();
  return std::vector<double>(p, p + d.numel());
}

double reference(ReduceOp::RedOpType op, int64_t i, int n, bool integral) {
  double acc = op == ReduceOp::PRODUCT ? 1
               : op == ReduceOp::MIN   ? 1e9
               : op == ReduceOp::MAX   ? -1e9
                                       : 0;
  for (int r = 0; r < n; ++r) {
    double v = double(i % 3) + (r % 2) + 1;
    if (op == ReduceOp::SUM || op == ReduceOp::AVG) acc += v;
    if (op == ReduceOp::PRODUCT) acc *= v;
    if (op == ReduceOp::MIN) acc = std::min(acc, v);
    if (op == ReduceOp::MAX) acc = std::max(acc, v);
  }
  if (op == ReduceOp::AVG) acc = integral ? std::trunc(acc / n) : acc / n;
  return acc;
}

void expect_values(const Tensor& t, const std::function<double(int64_t)>& expected, double rtol,
                   const std::string& what) {
  auto v = values(t);
  int bad = 0;
  for (size_t i = 0; i < v.size() && bad < 3; ++i) {
    double e = expected(static_cast<int64_t>(i));
    if (std::abs(v[i] - e) > rtol * std::abs(e) + 1e-12) {
      ADD_FAILURE() << what << ": element " << i << " is " << v[i] << ", expected " << e;
      ++bad;
    }
  }
}

double tol(ScalarType dt) { return dt == kBFloat16 || dt == kHalf ? 1e-2 : 1e-6; }

const ScalarType kDtypes[] = {kFloat, kDouble, kInt, kLong, kBFloat16};

TEST(GlooCollectives, AllreduceEveryOpDtypeAndSize) {
  for (int n = 1; n <= 4; ++n) {
    run_ranks(n, [n](ProcessGroupGloo& pg, int r) {
      for (ScalarType dt : kDtypes) {
        const bool integral = !is_floating_type(dt);
        for (auto op :
             {ReduceOp::SUM, ReduceOp::AVG, ReduceOp::PRODUCT, ReduceOp::MIN, ReduceOp::MAX}) {
          std::vector<std::vector<int64_t>> shapes = {{}, {1}, {1000}, {0}};
          if (op == ReduceOp::SUM) shapes.push_back({100000});
          for (const auto& shape : shapes) {
            std::vector<Tensor> ts{rank_input(shape, dt, r)};
            pg.allreduce(ts, {op})->wait();
            EXPECT_EQ(ts[0].scalar_type(), dt);
            EXPECT_EQ(ts[0].sizes(), IntArrayRef(shape));
            std::ostringstream what;
            what << "allreduce " << to_string(op) << " " << dt << " numel " << ts[0].numel()
                 << " n=" << n << " rank " << r;
            expect_values(
                ts[0], [&](int64_t i) { return reference(op, i, n, integral); }, tol(dt),
                what.str());
          }
        }
      }
      // int8/int16/uint8/half too, and a non-contiguous tensor reduced in place.
      for (ScalarType dt : {kChar, kShort, kByte, kHalf}) {
        std::vector<Tensor> ts{rank_input({7}, dt, r)};
        pg.allreduce(ts)->wait();
        expect_values(
            ts[0], [&](int64_t i) { return reference(ReduceOp::SUM, i, n, true); }, tol(dt),
            "allreduce small dtypes");
      }
      Tensor base = rank_input({6, 4}, kFloat, r);
      std::vector<Tensor> nc{base.t()};
      ASSERT_FALSE(nc[0].is_contiguous());
      pg.allreduce(nc, {ReduceOp::MAX})->wait();
      Tensor expected = rank_input({6, 4}, kFloat, n > 1 ? 1 : 0).t();
      EXPECT_TRUE(base.t().equal(expected)) << "non-contiguous allreduce";
    });
  }
}

TEST(GlooCollectives, BroadcastReduceAllgatherGatherScatter) {
  for (int n = 1; n <= 4; ++n) {
    run_ranks(n, [n](ProcessGroupGloo& pg, int r) {
      for (ScalarType dt : {kFloat, kLong, kBFloat16}) {
        const std::vector<int64_t> shape{2, 3};
        // broadcast from the last rank
        std::vector<Tensor> b{rank_input(shape, dt, r, 10.0 * r)};
        pg.broadcast(b, {n - 1})->wait();
        EXPECT_TRUE(b[0].equal(rank_input(shape, dt, n - 1, 10.0 * (n - 1))))
            << "broadcast n=" << n;
        // reduce to rank 0
        std::vector<Tensor> red{rank_input(shape, dt, r)};
        ReduceOptions ro;
        ro.rootRank = 0;
        pg.reduce(red, ro)->wait();
        if (r == 0) {
          expect_values(
              red[0], [&](int64_t i) { return reference(ReduceOp::SUM, i, n, false); }, tol(dt),
              "reduce");
        }
        // allgather into non-contiguous outputs
        std::vector<std::vector<Tensor>> ag(1);
        for (int j = 0; j < n; ++j) ag[0].push_back(brasa::zeros({3, 2}, TensorOptions(dt)).t());
        std::vector<Tensor> in{rank_input(shape, dt, r, r)};
        pg.allgather(ag, in)->wait();
        for (int j = 0; j < n; ++j)
          EXPECT_TRUE(ag[0][size_t(j)].equal(rank_input(shape, dt, j, j))) << "allgather";
        // gather to the last rank
        std::vector<std::vector<Tensor>> g;
        if (r == n - 1) {
          g.resize(1);
          for (int j = 0; j < n; ++j) g[0].push_back(brasa::zeros(shape, TensorOptions(dt)));
        }
        GatherOptions go;
        go.rootRank = n - 1;
        pg.gather(g, in, go)->wait();
        if (r == n - 1) {
          for (int j = 0; j < n; ++j)
            EXPECT_TRUE(g[0][size_t(j)].equal(rank_input(shape, dt, j, j))) << "gather";
        }
        // scatter from rank 0
        std::vector<std::vector<Tensor>> s;
        if (r == 0) {
          s.resize(1);
          for (int j = 0; j < n; ++j) s[0].push_back(rank_input(shape, dt, j, 5.0 * j));
        }
        std::vector<Tensor> out{brasa::zeros(shape, TensorOptions(dt))};
        pg.scatter(out, s)->wait();
        EXPECT_TRUE(out[0].equal(rank_input(shape, dt, r, 5.0 * r))) << "scatter";
      }
    });
  }
}

TEST(GlooCollectives, ReduceScatterAlltoallBarrier) {
  for (int n = 1; n <= 4; ++n) {
    run_ranks(n, [n](ProcessGroupGloo& pg, int r) {
      for (ScalarType dt : {kFloat, kDouble, kInt, kBFloat16}) {
        // reduce_scatter: inputs[j] on rank r is rank_input(.., r, j); rank r gets sum_q
        // inputs_q[r]
        std::vector<std::vector<Tensor>> in(1);
        for (int j = 0; j < n; ++j) in[0].push_back(rank_input({5}, dt, r, j));
        std::vector<Tensor> out{brasa::zeros({5}, TensorOptions(dt))};
        pg.reduce_scatter(out, in)->wait();
        expect_values(
            out[0], [&](int64_t i) { return reference(ReduceOp::SUM, i, n, false) + n * r; },
            tol(dt), "reduce_scatter");
      }
      // alltoall with uneven sizes: rank r sends (r + j + 1) values r*100+j to rank j
      std::vector<Tensor> ins, outs;
      for (int j = 0; j < n; ++j) {
        ins.push_back(brasa::full({r + j + 1}, 100.0 * r + j, TensorOptions(kFloat)));
        outs.push_back(brasa::zeros({r + j + 1}, TensorOptions(kFloat)));
      }
      pg.alltoall(outs, ins)->wait();
      for (int j = 0; j < n; ++j) {
        EXPECT_TRUE(
            outs[size_t(j)].equal(brasa::full({r + j + 1}, 100.0 * j + r, TensorOptions(kFloat))))
            << "alltoall from " << j;
      }
      // alltoall_base with split sizes (r + j) % 2 + 1 rows of 3
      std::vector<int64_t> in_splits, out_splits;
      std::vector<Tensor> in_rows, expect_rows;
      for (int j = 0; j < n; ++j) {
        in_splits.push_back((r + j) % 2 + 1);
        out_splits.push_back((j + r) % 2 + 1);
        in_rows.push_back(brasa::full({in_splits.back(), 3}, 10.0 * r + j, TensorOptions(kLong)));
        expect_rows.push_back(
            brasa::full({out_splits.back(), 3}, 10.0 * j + r, TensorOptions(kLong)));
      }
      Tensor input = brasa::cat(in_rows), output = brasa::zeros_like(brasa::cat(expect_rows));
      pg.alltoall_base(output, input, out_splits, in_splits)->wait();
      EXPECT_TRUE(output.equal(brasa::cat(expect_rows))) << "alltoall_base";
      // equal splits
      Tensor eq_in = brasa::full({2 * n}, double(r), TensorOptions(kInt)),
             eq_out = brasa::zeros({2 * n}, TensorOptions(kInt));
      std::vector<int64_t> none;
      pg.alltoall_base(eq_out, eq_in, none, none)->wait();
      EXPECT_TRUE(eq_out.equal(brasa::repeat_interleave(brasa::arange(n, TensorOptions(kInt)), 2)))
          << "alltoall_base equal";
      pg.barrier()->wait();
    });
  }
}

TEST(GlooAsync, AllreducesInFlightWaitedInReverseOrder) {
  for (int n : {2, 3}) {
    run_ranks(n, [n](ProcessGroupGloo& pg, int r) {
      std::vector<std::vector<Tensor>> ts;
      std::vector<IntrusivePtr<Work>> works;
      for (int k = 0; k < 8; ++k) {
        ts.push_back({brasa::full({1000 * (k + 1)}, double(r + k), TensorOptions(kFloat))});
        works.push_back(pg.allreduce(ts.back()));
      }
      for (int k = 7; k >= 0; --k) {
        EXPECT_TRUE(works[size_t(k)]->wait(std::chrono::seconds(10)));
        EXPECT_TRUE(works[size_t(k)]->isSuccess());
        double expected = n * k + n * (n - 1) / 2.0;
        EXPECT_TRUE(
            ts[size_t(k)][0].equal(brasa::full({1000 * (k + 1)}, expected, TensorOptions(kFloat))));
        EXPECT_TRUE(works[size_t(k)]->result()[0].is_same(ts[size_t(k)][0]));
      }
    });
  }
}

TEST(GlooP2P, SendRecvRing) {
  for (int n = 2; n <= 4; ++n) {
    run_ranks(n, [n](ProcessGroupGloo& pg, int r) {
      std::vector<Tensor> out{brasa::full({1000}, double(r), TensorOptions(kDouble))};
      Tensor base = brasa::zeros({4, 500}, TensorOptions(kDouble));
      std::vector<Tensor> in{base.t()};  // non-contiguous receive target, 2000 elements
      std::vector<Tensor> out2{brasa::full({500, 4}, double(r) + 0.5, TensorOptions(kDouble))};
      auto s = pg.send(out, (r + 1) % n, 7);
      auto s2 = pg.send(out2, (r + 1) % n, 8);
      std::vector<Tensor> got{brasa::zeros({1000}, TensorOptions(kDouble))};
      auto rv = pg.recv(got, (r + n - 1) % n, 7);
      auto rv2 = pg.recv(in, (r + n - 1) % n, 8);
      rv2->wait();
      rv->wait();
      s->wait();
      s2->wait();
      const int prev = (r + n - 1) % n;
      EXPECT_TRUE(got[0].equal(brasa::full({1000}, double(prev), TensorOptions(kDouble))));
      EXPECT_TRUE(base.equal(brasa::full({4, 500}, prev + 0.5, TensorOptions(kDouble))));
    });
  }
}

TEST(GlooPerf, Allreduce1MBTwoRanks) {
  run_ranks(2, [](ProcessGroupGloo& pg, int r) {
    std::vector<Tensor> t{brasa::ones({262144}, TensorOptions(kFloat))};
    pg.allreduce(t)->wait();  // warm up
    const int iters = 20;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i) pg.allreduce(t)->wait();
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() /
        iters;
    if (r == 0) std::printf("[gloo] allreduce 1 MiB float32, 2 ranks (threads): %.3f ms/op\n", ms);
    std::vector<Tensor> one{brasa::ones({1}, TensorOptions(kFloat))};
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i) pg.allreduce(one)->wait();
    ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() /
         iters;
    if (r == 0) std::printf("[gloo] allreduce 1 float, 2 ranks (threads): %.3f ms/op\n", ms);
  });
}

}  // namespace
}  // namespace brasa_gloo_test
