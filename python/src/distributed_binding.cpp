// brasa._distributed: the extension module behind brasa.distributed and
// brasa.nn.parallel.DistributedDataParallel (docs/python.md). It is separate from brasa._C so that
// `import brasa` does not load libbrasa_distributed (Gloo, OpenMPI). Tensors cross through the
// nanobind type that brasa._C registers (the two modules share nanobind's internals). Every
// collective, wait and rendezvous runs with the GIL released, so other Python threads run.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/distributed/ddp.h"
#include "brasa/distributed/init.h"
#include "brasa/distributed/process_group.h"
#include "py_callback.h"

namespace nb = nanobind;
namespace dist = brasa::distributed;

namespace brasa::python {
namespace {

using Ms = std::chrono::milliseconds;
using Tensors = std::vector<Tensor>;

/// A process group as a Python object (the group stays alive while Python holds it).
struct Group {
  IntrusivePtr<dist::ProcessGroup> pg;
};

/// A pending collective (torch.distributed's Work), returned when async_op=True.
struct PyWork {
  IntrusivePtr<dist::Work> work;
  bool wait(std::optional<double> timeout_s) {
    IntrusivePtr<dist::Work> w = work;
    nb::gil_scoped_release release;
    return w->wait(timeout_s ? Ms(static_cast<int64_t>(*timeout_s * 1000)) : dist::kNoTimeout);
  }
};

dist::ProcessGroup& group_of(const std::optional<Group>& g) {
  if (g) {
    if (!g->pg) throw brasa::ValueError("brasa.distributed: this rank is not in the group");
    return *g->pg;
  }
  return *dist::default_process_group();  // ValueError when not initialised
}

/// Runs `start` (which launches the collective) without the GIL; waits unless async.
template <typename Start>
nb::object run(bool async_op, Start start) {
  IntrusivePtr<dist::Work> work;
  {
    nb::gil_scoped_release release;
    work = start();
    if (!async_op) work->wait();
  }
  if (async_op) return nb::cast(PyWork{std::move(work)});
  return nb::none();
}

void bind_collectives(nb::module_& m) {
  using G = const std::optional<Group>&;
  m.def(
      "all_reduce",
      [](const Tensor& t, dist::ReduceOp::RedOpType op, G g, bool async_op) {
        dist::ProcessGroup& pg = group_of(g);
        return run(async_op, [&] {
          Tensors ts{t};
          dist::AllreduceOptions o;
          o.reduceOp = op;
          return pg.allreduce(ts, o);
        });
      },
      nb::arg("tensor"), nb::arg("op"), nb::arg("group").none(), nb::arg("async_op"));
  m.def(
      "broadcast",
      [](const Tensor& t, int64_t src, G g, bool async_op) {
        dist::ProcessGroup& pg = group_of(g);
        return run(async_op, [&] {
          Tensors ts{t};
          dist::BroadcastOptions o;
          o.rootRank = src;
          return pg.broadcast(ts, o);
        });
      },
      nb::arg("tensor"), nb::arg("src"), nb::arg("group").none(), nb::arg("async_op"));
  m.def(
      "reduce",
      [](const Tensor& t, int64_t dst, dist::ReduceOp::RedOpType op, G g, bool async_op) {
        dist::ProcessGroup& pg = group_of(g);
        return run(async_op, [&] {
          Tensors ts{t};
          dist::ReduceOptions o;
          o.reduceOp = op;
          o.rootRank = dst;
          return pg.reduce(ts, o);
        });
      },
      nb::arg("tensor"), nb::arg("dst"), nb::arg("op"), nb::arg("group").none(),
      nb::arg("async_op"));
  m.def(
      "all_gather",
      [](const Tensors& outs, const Tensor& t, G g, bool async_op) {
        dist::ProcessGroup& pg = group_of(g);
        return run(async_op, [&] {
          std::vector<Tensors> o{outs};
          Tensors in{t};
          return pg.allgather(o, in);
        });
      },
      nb::arg("tensor_list"), nb::arg("tensor"), nb::arg("group").none(), nb::arg("async_op"));
  m.def(
      "reduce_scatter",
      [](const Tensor& out, const Tensors& ins, dist::ReduceOp::RedOpType op, G g, bool async_op) {
        dist::ProcessGroup& pg = group_of(g);
        return run(async_op, [&] {
          Tensors o{out};
          std::vector<Tensors> in{ins};
          dist::ReduceScatterOptions opts;
          opts.reduceOp = op;
          return pg.reduce_scatter(o, in, opts);
        });
      },
      nb::arg("output"), nb::arg("input_list"), nb::arg("op"), nb::arg("group").none(),
      nb::arg("async_op"));
  m.def(
      "gather",
      [](const Tensor& t, const Tensors& outs, int64_t dst, G g, bool async_op) {
        dist::ProcessGroup& pg = group_of(g);
        return run(async_op, [&] {
          std::vector<Tensors> o;
          if (pg.getRank() == dst) o.push_back(outs);
          Tensors in{t};
          dist::GatherOptions opts;
          opts.rootRank = dst;
          return pg.gather(o, in, opts);
        });
      },
      nb::arg("tensor"), nb::arg("gather_list"), nb::arg("dst"), nb::arg("group").none(),
      nb::arg("async_op"));
  m.def(
      "scatter",
      [](const Tensor& t, const Tensors& ins, int64_t src, G g, bool async_op) {
        dist::ProcessGroup& pg = group_of(g);
        return run(async_op, [&] {
          Tensors o{t};
          std::vector<Tensors> in;
          if (pg.getRank() == src) in.push_back(ins);
          dist::ScatterOptions opts;
          opts.rootRank = src;
          return pg.scatter(o, in, opts);
        });
      },
      nb::arg("tensor"), nb::arg("scatter_list"), nb::arg("src"), nb::arg("group").none(),
      nb::arg("async_op"));
  m.def(
      "barrier",
      [](G g, bool async_op) {
        dist::ProcessGroup& pg = group_of(g);
        return run(async_op, [&] { return pg.barrier(); });
      },
      nb::arg("group").none(), nb::arg("async_op"));
}

void bind_group(nb::module_& m) {
  nb::enum_<dist::ReduceOp::RedOpType>(m, "ReduceOp")
      .value("SUM", dist::ReduceOp::SUM)
      .value("AVG", dist::ReduceOp::AVG)
      .value("PRODUCT", dist::ReduceOp::PRODUCT)
      .value("MIN", dist::ReduceOp::MIN)
      .value("MAX", dist::ReduceOp::MAX);
  nb::class_<Group>(m, "ProcessGroup")
      .def("rank", [](const Group& g) { return g.pg->getRank(); })
      .def("size", [](const Group& g) { return g.pg->getSize(); })
      .def("name", [](const Group& g) { return g.pg->getBackendName(); });
  nb::class_<PyWork>(m, "Work")
      .def("wait", &PyWork::wait, nb::arg("timeout").none() = nb::none())
      .def("is_completed", [](PyWork& w) { return w.work->isCompleted(); })
      .def("is_success", [](PyWork& w) { return w.work->isSuccess(); })
      .def("result", [](PyWork& w) { return w.work->result(); });
  m.def(
      "init_process_group",
      [](const std::string& backend, std::optional<int> rank, std::optional<int> world_size,
         std::optional<double> timeout_s) {
        dist::InitOptions o;
        o.rank = rank;
        o.world_size = world_size;
        if (timeout_s) o.timeout = Ms(static_cast<int64_t>(*timeout_s * 1000));
        nb::gil_scoped_release release;
        return Group{dist::init_process_group(backend, o)};
      },
      nb::arg("backend"), nb::arg("rank").none(), nb::arg("world_size").none(),
      nb::arg("timeout").none());
  m.def("destroy_process_group", [] {
    nb::gil_scoped_release release;
    dist::destroy_process_group();
  });
  m.def("is_initialized", &dist::is_initialized);
  m.def("default_group", [] { return Group{dist::default_process_group()}; });
  m.def("get_rank", &dist::get_rank);
  m.def("get_world_size", &dist::get_world_size);
  m.def("new_group", [](const std::vector<int>& ranks) {
    nb::gil_scoped_release release;
    return Group{dist::new_group(ranks)};
  });
}

/// A Python comm hook's pending result as the Work the Reducer waits for: wait() takes the GIL,
/// waits on the Python future (anything with wait() giving a Tensor or a one-Tensor list) and
/// puts its tensor where the Reducer reads the bucket's result.
class PyHookWork : public dist::Work {
 public:
  PyHookWork(nb::handle future, Tensor* result)
      : Work("comm_hook"), future_(make_ref(future)), result_(result) {}

  bool wait(std::chrono::milliseconds /*timeout*/) override {
    if (isCompleted()) return dist::Work::wait();
    if (!Py_IsInitialized()) return true;  // interpreter gone (exit): nothing to read
    try {
      nb::gil_scoped_acquire gil;
      try {
        nb::object value = future_->get().attr("wait")();
        if ((nb::isinstance<nb::list>(value) || nb::isinstance<nb::tuple>(value)) &&
            nb::len(value) == 1)
          value = value[0];
        if (!nb::isinstance<Tensor>(value)) {
          throw brasa::TypeError(
              "DistributedDataParallel: a comm hook's future must complete with a Tensor (or a "
              "list of one), got " +
              std::string(nb::type_name(value.type()).c_str()));
        }
        Tensor t = nb::cast<Tensor>(value);
        if (t.numel() != result_->numel()) {
          throw brasa::ValueError("DistributedDataParallel: a comm hook returned " +
                                  std::to_string(t.numel()) + " elements for a bucket of " +
                                  std::to_string(result_->numel()));
        }
        *result_ = t.reshape({t.numel()});
      } catch (nb::python_error& e) {
        rethrow_as_brasa_error(e);
      }
    } catch (...) {
      finish(std::current_exception());
      throw;
    }
    finish();
    return true;
  }

 private:
  PyRefPtr future_;
  Tensor* result_;
};

/// DDP's gradient synchronisation over Python parameters (Reducer in brasa/distributed/ddp.h):
/// the Python DistributedDataParallel module drives it around its wrapped module's forward.
void bind_reducer(nb::module_& m) {
  nb::class_<dist::Reducer>(m, "Reducer")
      .def(
          "__init__",
          [](dist::Reducer* r, const Tensors& params, const std::vector<std::string>& names,
             const Group& g, double first_bucket_cap_mb, double bucket_cap_mb,
             bool find_unused_parameters, const std::string& comm_hook) {
            dist::DistributedDataParallelOptions o;
            o.first_bucket_cap_mb = first_bucket_cap_mb;
            o.bucket_cap_mb = bucket_cap_mb;
            o.find_unused_parameters = find_unused_parameters;
            if (comm_hook == "fp16")
              o.comm_hook_type = dist::CommHookType::Fp16Compress;
            else if (comm_hook == "bf16")
              o.comm_hook_type = dist::CommHookType::Bf16Compress;
            else if (!comm_hook.empty())
              throw brasa::ValueError("DistributedDataParallel: unknown comm hook '" + comm_hook +
                                      "' (expected fp16 or bf16)");
            o.broadcast_buffers = false;  // done by the Python module
            new (r) dist::Reducer(params, names, g.pg, o);
          },
          nb::arg("params"), nb::arg("names"), nb::arg("group"), nb::arg("first_bucket_cap_mb"),
          nb::arg("bucket_cap_mb"), nb::arg("find_unused_parameters"), nb::arg("comm_hook"))
      .def("prepare_for_forward", &dist::Reducer::prepare_for_forward,
           nb::call_guard<nb::gil_scoped_release>())
      .def("prepare_for_backward", &dist::Reducer::prepare_for_backward,
           nb::call_guard<nb::gil_scoped_release>())
      .def("count_active_ranks", &dist::Reducer::count_active_ranks, nb::arg("active"),
           nb::arg("divide_by_active") = true, nb::call_guard<nb::gil_scoped_release>())
      .def("shadow_forward", &dist::Reducer::shadow_forward,
           nb::call_guard<nb::gil_scoped_release>())
      .def("shadow_backward", &dist::Reducer::shadow_backward,
           nb::call_guard<nb::gil_scoped_release>())
      .def(
          "register_comm_hook",
          [](dist::Reducer& r, nb::handle fn) {
            // fn(bucket) -> a future; called under the GIL from wherever backward runs.
            r.register_comm_hook(
                [ref = make_ref(fn)](dist::ProcessGroup&,
                                     Tensor& bucket) -> IntrusivePtr<dist::Work> {
                  nb::gil_scoped_acquire gil;
                  try {
                    nb::object future = ref->get()(nb::cast(Tensor(bucket), nb::rv_policy::move));
                    return make_intrusive<PyHookWork>(future, &bucket);
                  } catch (nb::python_error& e) {
                    rethrow_as_brasa_error(e);
                  }
                },
                /*hook_averages=*/true);
          },
          nb::arg("hook"))
      .def("set_sync", &dist::Reducer::set_sync)
      .def("sync", &dist::Reducer::sync)
      .def("bucket_indices", &dist::Reducer::bucket_indices)
      .def("buckets_rebuilt", &dist::Reducer::buckets_rebuilt);
}

}  // namespace
}  // namespace brasa::python

NB_MODULE(_distributed, m) {
  using namespace brasa::python;
  // brasa._C registers the Tensor type and the error translation (shared through nanobind's
  // internals); brasa errors from here reach Python with the same types.
  nb::module_::import_("brasa._C");
  bind_group(m);
  bind_collectives(m);
  bind_reducer(m);
}
