// ProcessGroupMPI collectives that move data without reducing it: allgather, gather, scatter,
// alltoall_base, alltoall (byte transfers, so every dtype works), and send/recv (MPI_Isend/Irecv
// posted on the calling thread, completed by the group's poller).

#include <numeric>

#include "brasa/ops/factory.h"
#include "distributed/mpi/mpi_group.h"
#include "distributed/mpi/mpi_tensors.h"

namespace brasa::distributed {
namespace {

void check_rank(int64_t rank, int size, const std::string& where, const char* what) {
  BRASA_CHECK_INDEX(rank >= 0 && rank < size, where, ": ", what, " ", rank,
                    " is out of range for a group of ", size, " ranks");
}

// Checks a per-rank tensor list against `ref` (same dtype and shape).
void check_rank_list(const std::vector<Tensor>& list, const Tensor& ref, int size,
                     const std::string& where, const char* what) {
  BRASA_CHECK(static_cast<int>(list.size()) == size, where, ": expected ", size, " ", what,
              " tensors (one per rank), got ", list.size());
  for (size_t r = 0; r < list.size(); ++r) {
    mpi::check_same_layout(list[r], ref, where, detail::str_cat(what, " ", r));
  }
}

bool is_empty_list(const std::vector<std::vector<Tensor>>& lists) {
  return lists.empty() || (lists.size() == 1 && lists[0].empty());
}

Tensor byte_buffer(int64_t nbytes) { return empty({nbytes}, TensorOptions(ScalarType::Byte)); }

char* bytes_of(const Tensor& t) { return static_cast<char*>(t.data_ptr()); }

}  // namespace

IntrusivePtr<Work> ProcessGroupMPI::allgather(std::vector<std::vector<Tensor>>& outputTensors,
                                              std::vector<Tensor>& inputTensors,
                                              const AllgatherOptions& /*opts*/) {
  Impl* g = impl_.get();
  const std::string where = g->where("allgather");
  const Tensor& in = mpi::single_tensor(inputTensors, where);
  BRASA_CHECK(outputTensors.size() == 1, where, ": expected one list of output tensors, got ",
              outputTensors.size());
  std::vector<Tensor> outs = outputTensors[0];
  check_rank_list(outs, in, g->size, where, "output");
  const int64_t nbytes = static_cast<int64_t>(in.nbytes());
  const int count = mpi::to_count(nbytes, where);
  mpi::to_count(nbytes * g->size, where);
  Tensor src = in.contiguous();
  Tensor flat = byte_buffer(nbytes * g->size);
  return g->enqueue("allgather", outs, [g, src, flat, outs, count, nbytes, where] {
    mpi::check(
        MPI_Allgather(src.data_ptr(), count, MPI_BYTE, flat.data_ptr(), count, MPI_BYTE, g->comm),
        where, "MPI_Allgather");
    for (size_t r = 0; r < outs.size(); ++r) {
      mpi::copy_from_bytes(outs[r], bytes_of(flat) + static_cast<int64_t>(r) * nbytes);
    }
  });
}

IntrusivePtr<Work> ProcessGroupMPI::gather(std::vector<std::vector<Tensor>>& outputTensors,
                                           std::vector<Tensor>& inputTensors,
                                           const GatherOptions& opts) {
  Impl* g = impl_.get();
  const std::string where = g->where("gather");
  const Tensor& in = mpi::single_tensor(inputTensors, where);
  check_rank(opts.rootRank, g->size, where, "root rank");
  const int root = static_cast<int>(opts.rootRank);
  std::vector<Tensor> outs;
  if (g->rank == root) {
    BRASA_CHECK(outputTensors.size() == 1, where, ": expected one list of output tensors on the ",
                "root, got ", outputTensors.size());
    outs = outputTensors[0];
    check_rank_list(outs, in, g->size, where, "output");
  } else {
    BRASA_CHECK(is_empty_list(outputTensors), where,
                ": output tensors must be empty on non-root ranks (root is ", root, ")");
  }
  const int64_t nbytes = static_cast<int64_t>(in.nbytes());
  const int count = mpi::to_count(nbytes, where);
  mpi::to_count(nbytes * g->size, where);
  Tensor src = in.contiguous();
  Tensor flat = g->rank == root ? byte_buffer(nbytes * g->size) : Tensor();
  return g->enqueue("gather", outs, [g, src, flat, outs, count, nbytes, root, where] {
    mpi::check(
        MPI_Gather(src.data_ptr(), count, MPI_BYTE, flat.defined() ? flat.data_ptr() : nullptr,
                   count, MPI_BYTE, root, g->comm),
        where, "MPI_Gather");
    for (size_t r = 0; r < outs.size(); ++r) {
      mpi::copy_from_bytes(outs[r], bytes_of(flat) + static_cast<int64_t>(r) * nbytes);
    }
  });
}

IntrusivePtr<Work> ProcessGroupMPI::scatter(std::vector<Tensor>& outputTensors,
                                            std::vector<std::vector<Tensor>>& inputTensors,
                                            const ScatterOptions& opts) {
  Impl* g = impl_.get();
  const std::string where = g->where("scatter");
  const Tensor& out = mpi::single_tensor(outputTensors, where);
  check_rank(opts.rootRank, g->size, where, "root rank");
  const int root = static_cast<int>(opts.rootRank);
  const int64_t nbytes = static_cast<int64_t>(out.nbytes());
  const int count = mpi::to_count(nbytes, where);
  Tensor flat;
  if (g->rank == root) {
    BRASA_CHECK(inputTensors.size() == 1, where, ": expected one list of input tensors on the ",
                "root, got ", inputTensors.size());
    check_rank_list(inputTensors[0], out, g->size, where, "input");
    mpi::to_count(nbytes * g->size, where);
    flat = byte_buffer(nbytes * g->size);
    for (int r = 0; r < g->size; ++r) {
      mpi::copy_to_bytes(inputTensors[0][r], bytes_of(flat) + r * nbytes);
    }
  } else {
    BRASA_CHECK(is_empty_list(inputTensors), where,
                ": input tensors must be empty on non-root ranks (root is ", root, ")");
  }
  mpi::Staged staged(out, out.scalar_type());
  return g->enqueue("scatter", {out}, [g, flat, staged, count, root, where] {
    mpi::check(MPI_Scatter(flat.defined() ? flat.data_ptr() : nullptr, count, MPI_BYTE,
                           staged.buf.data_ptr(), count, MPI_BYTE, root, g->comm),
               where, "MPI_Scatter");
    staged.commit();
  });
}

namespace {

// Byte counts and displacements of an alltoallv whose pieces are `splits` rows of `row_bytes`.
void split_counts(const std::vector<int64_t>& splits, int64_t rows, int64_t row_bytes, int size,
                  const std::string& where, const char* what, std::vector<int>& counts,
                  std::vector<int>& displs) {
  std::vector<int64_t> pieces = splits;
  if (pieces.empty()) {
    BRASA_CHECK(rows % size == 0, where, ": ", what, " dim 0 of size ", rows,
                " is not divisible by the group size ", size, " (pass split sizes)");
    pieces.assign(static_cast<size_t>(size), rows / size);
  }
  BRASA_CHECK(static_cast<int>(pieces.size()) == size, where, ": ", what, " split sizes have ",
              pieces.size(), " entries but the group has ", size, " ranks");
  int64_t offset = 0;
  counts.assign(static_cast<size_t>(size), 0);
  displs.assign(static_cast<size_t>(size), 0);
  for (int r = 0; r < size; ++r) {
    BRASA_CHECK(pieces[r] >= 0, where, ": ", what, " split size ", pieces[r], " of rank ", r,
                " is negative");
    counts[r] = mpi::to_count(pieces[r] * row_bytes, where);
    displs[r] = mpi::to_count(offset * row_bytes, where);
    offset += pieces[r];
  }
  BRASA_CHECK(offset == rows, where, ": ", what, " split sizes sum to ", offset,
              " but dim 0 has size ", rows);
}

}  // namespace

IntrusivePtr<Work> ProcessGroupMPI::alltoall_base(Tensor& outputTensor, Tensor& inputTensor,
                                                  std::vector<int64_t>& outputSplitSizes,
                                                  std::vector<int64_t>& inputSplitSizes,
                                                  const AllToAllOptions& /*opts*/) {
  Impl* g = impl_.get();
  const std::string where = g->where("alltoall_base");
  mpi::check_cpu_tensor(inputTensor, where, "input");
  mpi::check_cpu_tensor(outputTensor, where, "output");
  BRASA_CHECK_TYPE(inputTensor.scalar_type() == outputTensor.scalar_type(), where,
                   ": output dtype ", outputTensor.scalar_type(), " differs from input dtype ",
                   inputTensor.scalar_type());
  BRASA_CHECK(inputTensor.dim() >= 1 && outputTensor.dim() >= 1, where,
              ": input and output need at least one dim, got shapes ", inputTensor.sizes(), " and ",
              outputTensor.sizes());
  BRASA_CHECK(inputTensor.sizes().slice(1) == outputTensor.sizes().slice(1), where,
              ": input shape ", inputTensor.sizes(), " and output shape ", outputTensor.sizes(),
              " differ beyond dim 0");
  int64_t row_numel = 1;
  for (int64_t s : inputTensor.sizes().slice(1)) row_numel *= s;
  const int64_t row_bytes = row_numel * static_cast<int64_t>(inputTensor.element_size());
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  split_counts(inputSplitSizes, inputTensor.size(0), row_bytes, g->size, where, "input",
               send_counts, send_displs);
  split_counts(outputSplitSizes, outputTensor.size(0), row_bytes, g->size, where, "output",
               recv_counts, recv_displs);
  Tensor src = inputTensor.contiguous();
  mpi::Staged staged(outputTensor, outputTensor.scalar_type());
  return g->enqueue("alltoall_base", {outputTensor},
                    [g, src, staged, send_counts, send_displs, recv_counts, recv_displs, where] {
                      mpi::check(
                          MPI_Alltoallv(src.data_ptr(), send_counts.data(), send_displs.data(),
                                        MPI_BYTE, staged.buf.data_ptr(), recv_counts.data(),
                                        recv_displs.data(), MPI_BYTE, g->comm),
                          where, "MPI_Alltoallv");
                      staged.commit();
                    });
}

IntrusivePtr<Work> ProcessGroupMPI::alltoall(std::vector<Tensor>& outputTensors,
                                             std::vector<Tensor>& inputTensors,
                                             const AllToAllOptions& /*opts*/) {
  Impl* g = impl_.get();
  const std::string where = g->where("alltoall");
  BRASA_CHECK(static_cast<int>(inputTensors.size()) == g->size &&
                  static_cast<int>(outputTensors.size()) == g->size,
              where, ": expected ", g->size, " input and output tensors (one per rank), got ",
              inputTensors.size(), " and ", outputTensors.size());
  std::vector<int> send_counts(g->size), send_displs(g->size), recv_counts(g->size),
      recv_displs(g->size);
  int64_t send_total = 0;
  int64_t recv_total = 0;
  for (int r = 0; r < g->size; ++r) {
    mpi::check_cpu_tensor(inputTensors[r], where, detail::str_cat("input ", r));
    mpi::check_cpu_tensor(outputTensors[r], where, detail::str_cat("output ", r));
    BRASA_CHECK_TYPE(inputTensors[r].scalar_type() == inputTensors[0].scalar_type() &&
                         outputTensors[r].scalar_type() == inputTensors[0].scalar_type(),
                     where, ": all tensors must have dtype ", inputTensors[0].scalar_type(),
                     ", got input ", inputTensors[r].scalar_type(), " and output ",
                     outputTensors[r].scalar_type(), " at index ", r);
    send_counts[r] = mpi::to_count(static_cast<int64_t>(inputTensors[r].nbytes()), where);
    recv_counts[r] = mpi::to_count(static_cast<int64_t>(outputTensors[r].nbytes()), where);
    send_displs[r] = mpi::to_count(send_total, where);
    recv_displs[r] = mpi::to_count(recv_total, where);
    send_total += send_counts[r];
    recv_total += recv_counts[r];
  }
  Tensor send_flat = byte_buffer(send_total);
  for (int r = 0; r < g->size; ++r) {
    mpi::copy_to_bytes(inputTensors[r], bytes_of(send_flat) + send_displs[r]);
  }
  Tensor recv_flat = byte_buffer(recv_total);
  std::vector<Tensor> outs = outputTensors;
  return g->enqueue(
      "alltoall", outs,
      [g, send_flat, recv_flat, outs, send_counts, send_displs, recv_counts, recv_displs, where] {
        mpi::check(MPI_Alltoallv(send_flat.data_ptr(), send_counts.data(), send_displs.data(),
                                 MPI_BYTE, recv_flat.data_ptr(), recv_counts.data(),
                                 recv_displs.data(), MPI_BYTE, g->comm),
                   where, "MPI_Alltoallv");
        for (size_t r = 0; r < outs.size(); ++r) {
          mpi::copy_from_bytes(outs[r], bytes_of(recv_flat) + recv_displs[r]);
        }
      });
}

namespace {

void check_peer(int peer, int tag, int size, const std::string& where) {
  check_rank(peer, size, where, "peer rank");
  BRASA_CHECK(tag >= 0, where, ": tag ", tag, " must be non-negative");
}

}  // namespace

IntrusivePtr<Work> ProcessGroupMPI::send(std::vector<Tensor>& tensors, int dstRank, int tag) {
  Impl* g = impl_.get();
  const std::string where = detail::str_cat(g->where("send"), " to rank ", dstRank, " tag ", tag);
  const Tensor& t = mpi::single_tensor(tensors, where);
  check_peer(dstRank, tag, g->size, where);
  const int count = mpi::to_count(static_cast<int64_t>(t.nbytes()), where);
  Tensor src = t.contiguous();
  MPI_Request request = MPI_REQUEST_NULL;
  mpi::check(MPI_Isend(src.data_ptr(), count, MPI_BYTE, dstRank, tag, g->comm, &request), where,
             "MPI_Isend");
  return g->post("send", {t}, request, [src](const MPI_Status&) {});
}

IntrusivePtr<Work> ProcessGroupMPI::recv(std::vector<Tensor>& tensors, int srcRank, int tag) {
  Impl* g = impl_.get();
  const std::string where = detail::str_cat(g->where("recv"), " from rank ", srcRank, " tag ", tag);
  const Tensor& t = mpi::single_tensor(tensors, where);
  check_peer(srcRank, tag, g->size, where);
  const int count = mpi::to_count(static_cast<int64_t>(t.nbytes()), where);
  mpi::Staged staged(t, t.scalar_type());
  MPI_Request request = MPI_REQUEST_NULL;
  mpi::check(MPI_Irecv(staged.buf.data_ptr(), count, MPI_BYTE, srcRank, tag, g->comm, &request),
             where, "MPI_Irecv");
  auto work = g->post("recv", {t}, request, [staged, count, where](const MPI_Status& status) {
    int got = 0;
    MPI_Get_count(&status, MPI_BYTE, &got);
    BRASA_CHECK_TYPED(distributed::DistributedError, got == count, where, ": expected ", count,
                      " bytes, received ", got);
    staged.commit();
  });
  work->set_source_rank(srcRank);
  return work;
}

IntrusivePtr<Work> ProcessGroupMPI::recvAnysource(std::vector<Tensor>& tensors, int tag) {
  Impl* g = impl_.get();
  const std::string where = detail::str_cat(g->where("recvAnysource"), " tag ", tag);
  const Tensor& t = mpi::single_tensor(tensors, where);
  BRASA_CHECK(tag >= 0, where, ": tag ", tag, " must be non-negative");
  const int count = mpi::to_count(static_cast<int64_t>(t.nbytes()), where);
  mpi::Staged staged(t, t.scalar_type());
  auto work = make_intrusive<Work>("ProcessGroupMPI::recvAnysource", std::vector<Tensor>{t});
  Work* raw = work.get();  // the poller holds `work` until on_done has run
  MPI_Request request = MPI_REQUEST_NULL;
  mpi::check(
      MPI_Irecv(staged.buf.data_ptr(), count, MPI_BYTE, MPI_ANY_SOURCE, tag, g->comm, &request),
      where, "MPI_Irecv");
  return g->post(
      "recvAnysource", {t}, request,
      [staged, count, where, raw](const MPI_Status& status) {
        int got = 0;
        MPI_Get_count(&status, MPI_BYTE, &got);
        BRASA_CHECK_TYPED(distributed::DistributedError, got == count, where, ": expected ", count,
                          " bytes, received ", got);
        staged.commit();
        raw->set_source_rank(status.MPI_SOURCE);
      },
      work);
}

void ProcessGroupMPI::abort() {
  MPI_Abort(impl_->comm, 1);  // does not return under OpenMPI
}

}  // namespace brasa::distributed
