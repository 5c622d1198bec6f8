// ProcessGroupMPI collectives that reduce or replicate one tensor: broadcast, allreduce, reduce,
// reduce_scatter, barrier. Arguments are checked on the calling thread (errors throw at once);
// the MPI call runs on the group's worker thread.

#include "brasa/ops/factory.h"
#include "distributed/mpi/mpi_group.h"
#include "distributed/mpi/mpi_tensors.h"

namespace brasa::distributed {
namespace {

void check_root(int64_t root, int size, const std::string& where) {
  BRASA_CHECK_INDEX(root >= 0 && root < size, where, ": root rank ", root,
                    " is out of range for a group of ", size, " ranks");
}

void check_reducible(ScalarType dtype, ReduceOp::RedOpType op, const std::string& where) {
  BRASA_CHECK_TYPE(dtype != ScalarType::Bool, where, ": ", to_string(op),
                   " of bool tensors is not supported");
  mpi::reduce_datatype(mpi::reduce_dtype(dtype), where);
}

}  // namespace

IntrusivePtr<Work> ProcessGroupMPI::broadcast(std::vector<Tensor>& tensors,
                                              const BroadcastOptions& opts) {
  Impl* g = impl_.get();
  const std::string where = g->where("broadcast");
  const Tensor& t = mpi::single_tensor(tensors, where);
  check_root(opts.rootRank, g->size, where);
  const int root = static_cast<int>(opts.rootRank);
  mpi::Staged staged(t, t.scalar_type());
  const int count = mpi::to_count(static_cast<int64_t>(t.nbytes()), where);
  return g->enqueue("broadcast", {t}, [g, staged, count, root, where] {
    mpi::check(MPI_Bcast(staged.buf.data_ptr(), count, MPI_BYTE, root, g->comm), where,
               "MPI_Bcast");
    if (g->rank != root) staged.commit();
  });
}

IntrusivePtr<Work> ProcessGroupMPI::allreduce(std::vector<Tensor>& tensors,
                                              const AllreduceOptions& opts) {
  Impl* g = impl_.get();
  const std::string where = g->where("allreduce");
  const Tensor& t = mpi::single_tensor(tensors, where);
  const ReduceOp::RedOpType op = opts.reduceOp;
  check_reducible(t.scalar_type(), op, where);
  mpi::Staged staged(t, mpi::reduce_dtype(t.scalar_type()));
  const int count = mpi::to_count(t.numel(), where);
  return g->enqueue("allreduce", {t}, [g, staged, count, op, where] {
    MPI_Datatype type = mpi::reduce_datatype(staged.buf.scalar_type(), where);
    mpi::check(MPI_Allreduce(MPI_IN_PLACE, staged.buf.data_ptr(), count, type, mpi::reduce_op(op),
                             g->comm),
               where, "MPI_Allreduce");
    if (op == ReduceOp::AVG) mpi::divide_inplace(staged.buf, g->size);
    staged.commit();
  });
}

IntrusivePtr<Work> ProcessGroupMPI::reduce(std::vector<Tensor>& tensors,
                                           const ReduceOptions& opts) {
  Impl* g = impl_.get();
  const std::string where = g->where("reduce");
  const Tensor& t = mpi::single_tensor(tensors, where);
  check_root(opts.rootRank, g->size, where);
  const ReduceOp::RedOpType op = opts.reduceOp;
  check_reducible(t.scalar_type(), op, where);
  const int root = static_cast<int>(opts.rootRank);
  mpi::Staged staged(t, mpi::reduce_dtype(t.scalar_type()));
  const int count = mpi::to_count(t.numel(), where);
  return g->enqueue("reduce", {t}, [g, staged, count, op, root, where] {
    MPI_Datatype type = mpi::reduce_datatype(staged.buf.scalar_type(), where);
    void* data = staged.buf.data_ptr();
    const bool is_root = g->rank == root;
    mpi::check(MPI_Reduce(is_root ? MPI_IN_PLACE : data, is_root ? data : nullptr, count, type,
                          mpi::reduce_op(op), root, g->comm),
               where, "MPI_Reduce");
    if (!is_root) return;
    if (op == ReduceOp::AVG) mpi::divide_inplace(staged.buf, g->size);
    staged.commit();
  });
}

IntrusivePtr<Work> ProcessGroupMPI::reduce_scatter(std::vector<Tensor>& outputTensors,
                                                   std::vector<std::vector<Tensor>>& inputTensors,
                                                   const ReduceScatterOptions& opts) {
  Impl* g = impl_.get();
  const std::string where = g->where("reduce_scatter");
  const Tensor& out = mpi::single_tensor(outputTensors, where);
  BRASA_CHECK(inputTensors.size() == 1, where, ": expected one list of input tensors, got ",
              inputTensors.size());
  const std::vector<Tensor>& inputs = inputTensors[0];
  BRASA_CHECK(static_cast<int>(inputs.size()) == g->size, where, ": expected ", g->size,
              " input tensors (one per rank), got ", inputs.size());
  for (size_t r = 0; r < inputs.size(); ++r) {
    mpi::check_same_layout(inputs[r], out, where, detail::str_cat("input ", r, " (vs output)"));
  }
  const ReduceOp::RedOpType op = opts.reduceOp;
  check_reducible(out.scalar_type(), op, where);
  const ScalarType dtype = mpi::reduce_dtype(out.scalar_type());
  const int64_t n = out.numel();
  const int count = mpi::to_count(n, where);
  mpi::to_count(n * g->size, where);
  Tensor flat = empty({n * g->size}, TensorOptions(dtype));
  for (size_t r = 0; r < inputs.size(); ++r) {
    flat.narrow(0, static_cast<int64_t>(r) * n, n).copy_(inputs[r].reshape({n}));
  }
  mpi::Staged staged(out, dtype);
  return g->enqueue("reduce_scatter", {out}, [g, flat, staged, count, op, where] {
    MPI_Datatype type = mpi::reduce_datatype(flat.scalar_type(), where);
    mpi::check(MPI_Reduce_scatter_block(flat.data_ptr(), staged.buf.data_ptr(), count, type,
                                        mpi::reduce_op(op), g->comm),
               where, "MPI_Reduce_scatter_block");
    if (op == ReduceOp::AVG) mpi::divide_inplace(staged.buf, g->size);
    staged.commit();
  });
}

IntrusivePtr<Work> ProcessGroupMPI::barrier(const BarrierOptions& /*opts*/) {
  Impl* g = impl_.get();
  const std::string where = g->where("barrier");
  return g->enqueue("barrier", {},
                    [g, where] { mpi::check(MPI_Barrier(g->comm), where, "MPI_Barrier"); });
}

}  // namespace brasa::distributed
