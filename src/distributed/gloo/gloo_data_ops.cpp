// ProcessGroupGloo's data-moving collectives: broadcast, allgather, gather, scatter, alltoall,
// alltoall_base, barrier. Data moves as raw bytes (any dtype); staging buffers are contiguous.

#include <gloo/allgather.h>
#include <gloo/alltoallv.h>
#include <gloo/barrier.h>
#include <gloo/broadcast.h>
#include <gloo/gather.h>
#include <gloo/scatter.h>

#include <cstring>

#include "brasa/ops/factory.h"
#include "distributed/gloo/gloo_checks.h"
#include "distributed/gloo/gloo_impl.h"

namespace brasa::distributed {

namespace gloo_backend {
namespace {

uint8_t* bytes(const Tensor& t) {
  static uint8_t dummy = 0;  // a valid address for empty tensors; Gloo moves 0 bytes from it
  return t.nbytes() == 0 ? &dummy : static_cast<uint8_t*>(t.data_ptr());
}

/// Writes t.nbytes() bytes from `src` into t, whatever its strides.
void write_bytes(const Tensor& t, const uint8_t* src) {
  if (t.nbytes() == 0) return;
  if (t.is_contiguous()) {
    std::memcpy(t.data_ptr(), src, t.nbytes());
    return;
  }
  Tensor tmp = brasa::empty(t.sizes(), t.options());
  std::memcpy(tmp.data_ptr(), src, tmp.nbytes());
  t.copy_(tmp);
}

std::vector<int64_t> split_counts(const char* op, const char* what, std::vector<int64_t> splits,
                                  const Tensor& t, int size) {
  BRASA_CHECK(t.dim() >= 1, "ProcessGroupGloo::", op, ": ", what, " must have at least 1 dim, got ",
              describe(t));
  const int64_t rows = t.size(0);
  if (splits.empty()) {
    BRASA_CHECK(rows % size == 0, "ProcessGroupGloo::", op, ": dim 0 of ", what, " (", rows,
                ") is not divisible by the group size ", size, " and no split sizes were given");
    splits.assign(static_cast<size_t>(size), rows / size);
  }
  BRASA_CHECK(splits.size() == static_cast<size_t>(size), "ProcessGroupGloo::", op, ": ", what,
              " split sizes must hold ", size, " entries (one per rank), got ", splits.size());
  int64_t total = 0;
  for (int64_t s : splits) {
    BRASA_CHECK(s >= 0, "ProcessGroupGloo::", op, ": negative split size ", s, " for ", what);
    total += s;
  }
  BRASA_CHECK(total == rows, "ProcessGroupGloo::", op, ": ", what, " split sizes sum to ", total,
              " but dim 0 of ", what, " is ", rows);
  const int64_t row_bytes = rows == 0 ? 0 : static_cast<int64_t>(t.nbytes()) / rows;
  for (auto& s : splits) s *= row_bytes;
  return splits;
}

void alltoallv_bytes(const OpContext& c, const Tensor& in, std::vector<int64_t> in_counts,
                     const Tensor& out, std::vector<int64_t> out_counts) {
  ::gloo::AlltoallvOptions o(c.context);
  AbortableWaits waits(c);  // Note [Lost peers]
  o.setInput<uint8_t>(waits.buffer(bytes(in), in.nbytes()), std::move(in_counts));
  o.setOutput<uint8_t>(waits.buffer(bytes(out), out.nbytes()), std::move(out_counts));
  o.setTag(c.tag);
  o.setTimeout(c.timeout);
  ::gloo::alltoallv(o);
  waits.check();
}

}  // namespace
}  // namespace gloo_backend

using namespace gloo_backend;  // NOLINT

IntrusivePtr<Work> ProcessGroupGloo::broadcast(std::vector<Tensor>& tensors,
                                               const BroadcastOptions& opts) {
  const Tensor& t = single_tensor("broadcast", tensors);
  check_root("broadcast", opts.rootRank, size_);
  BRASA_CHECK(opts.rootTensor == 0, "ProcessGroupGloo::broadcast: rootTensor must be 0, got ",
              opts.rootTensor);
  const int root = static_cast<int>(opts.rootRank);
  return impl_->enqueue("broadcast", describe(t) + ", root " + std::to_string(root), opts.timeout,
                        {t}, [t, buf = dense(t), root](const OpContext& c) {
                          if (buf.nbytes() == 0) return;
                          ::gloo::BroadcastOptions o(c.context);
                          AbortableWaits waits(c);  // Note [Lost peers]
                          o.setOutput<uint8_t>(waits.buffer(bytes(buf), buf.nbytes()));
                          o.setRoot(root);
                          o.setTag(c.tag);
                          o.setTimeout(c.timeout);
                          ::gloo::broadcast(o);
                          waits.check();
                          copy_back(t, buf);
                        });
}

IntrusivePtr<Work> ProcessGroupGloo::allgather(std::vector<std::vector<Tensor>>& outputTensors,
                                               std::vector<Tensor>& inputTensors,
                                               const AllgatherOptions& opts) {
  const Tensor& in = single_tensor("allgather", inputTensors, "inputTensors");
  BRASA_CHECK(outputTensors.size() == 1,
              "ProcessGroupGloo::allgather: expected exactly 1 list in outputTensors, got ",
              outputTensors.size());
  check_list("allgather", outputTensors[0], static_cast<size_t>(size_), in, "outputTensors[0]",
             "inputTensors[0]");
  auto outs = outputTensors[0];
  return impl_->enqueue("allgather", describe(in), opts.timeout, outs,
                        [outs, buf = dense(in)](const OpContext& c) {
                          const size_t n = buf.nbytes();
                          if (n == 0) return;
                          std::vector<uint8_t> flat(n * static_cast<size_t>(c.size));
                          ::gloo::AllgatherOptions o(c.context);
                          AbortableWaits waits(c);  // Note [Lost peers]
                          o.setInput<uint8_t>(waits.buffer(bytes(buf), n));
                          o.setOutput<uint8_t>(waits.buffer(flat.data(), flat.size()));
                          o.setTag(c.tag);
                          o.setTimeout(c.timeout);
                          ::gloo::allgather(o);
                          waits.check();
                          for (size_t r = 0; r < outs.size(); ++r)
                            write_bytes(outs[r], flat.data() + r * n);
                        });
}

IntrusivePtr<Work> ProcessGroupGloo::gather(std::vector<std::vector<Tensor>>& outputTensors,
                                            std::vector<Tensor>& inputTensors,
                                            const GatherOptions& opts) {
  const Tensor& in = single_tensor("gather", inputTensors, "inputTensors");
  check_root("gather", opts.rootRank, size_);
  const int root = static_cast<int>(opts.rootRank);
  std::vector<Tensor> outs;
  if (rank_ == root) {
    BRASA_CHECK(outputTensors.size() == 1, "ProcessGroupGloo::gather: the root (rank ", root,
                ") expects exactly 1 list in outputTensors, got ", outputTensors.size());
    check_list("gather", outputTensors[0], static_cast<size_t>(size_), in, "outputTensors[0]",
               "inputTensors[0]");
    outs = outputTensors[0];
  } else {
    BRASA_CHECK(outputTensors.empty() || (outputTensors.size() == 1 && outputTensors[0].empty()),
                "ProcessGroupGloo::gather: rank ", rank_, " is not the root (rank ", root,
                ") and must pass empty outputTensors");
  }
  return impl_->enqueue("gather", describe(in) + ", root " + std::to_string(root), opts.timeout,
                        outs, [outs, buf = dense(in), root](const OpContext& c) {
                          const size_t n = buf.nbytes();
                          if (n == 0) return;
                          std::vector<uint8_t> flat;
                          ::gloo::GatherOptions o(c.context);
                          AbortableWaits waits(c);  // Note [Lost peers]
                          o.setInput<uint8_t>(waits.buffer(bytes(buf), n));
                          if (c.rank == root) {
                            flat.resize(n * static_cast<size_t>(c.size));
                            o.setOutput<uint8_t>(waits.buffer(flat.data(), flat.size()));
                          }
                          o.setRoot(root);
                          o.setTag(c.tag);
                          o.setTimeout(c.timeout);
                          ::gloo::gather(o);
                          waits.check();
                          for (size_t r = 0; r < outs.size(); ++r)
                            write_bytes(outs[r], flat.data() + r * n);
                        });
}

IntrusivePtr<Work> ProcessGroupGloo::scatter(std::vector<Tensor>& outputTensors,
                                             std::vector<std::vector<Tensor>>& inputTensors,
                                             const ScatterOptions& opts) {
  const Tensor& out = single_tensor("scatter", outputTensors, "outputTensors");
  check_root("scatter", opts.rootRank, size_);
  const int root = static_cast<int>(opts.rootRank);
  std::vector<Tensor> ins;
  if (rank_ == root) {
    BRASA_CHECK(inputTensors.size() == 1, "ProcessGroupGloo::scatter: the root (rank ", root,
                ") expects exactly 1 list in inputTensors, got ", inputTensors.size());
    check_list("scatter", inputTensors[0], static_cast<size_t>(size_), out, "inputTensors[0]",
               "outputTensors[0]");
    for (const auto& t : inputTensors[0]) ins.push_back(dense(t));
  } else {
    BRASA_CHECK(inputTensors.empty() || (inputTensors.size() == 1 && inputTensors[0].empty()),
                "ProcessGroupGloo::scatter: rank ", rank_, " is not the root (rank ", root,
                ") and must pass empty inputTensors");
  }
  return impl_->enqueue("scatter", describe(out) + ", root " + std::to_string(root), opts.timeout,
                        {out}, [out, buf = dense(out), ins, root](const OpContext& c) {
                          const size_t n = buf.nbytes();
                          if (n == 0) return;
                          ::gloo::ScatterOptions o(c.context);
                          AbortableWaits waits(c);  // Note [Lost peers]
                          if (c.rank == root) {
                            std::vector<std::unique_ptr<::gloo::transport::UnboundBuffer>> inputs;
                            for (const auto& t : ins) inputs.push_back(waits.buffer(bytes(t), n));
                            o.setInputs<uint8_t>(std::move(inputs));
                          }
                          o.setOutput<uint8_t>(waits.buffer(bytes(buf), n));
                          o.setRoot(root);
                          o.setTag(c.tag);
                          o.setTimeout(c.timeout);
                          ::gloo::scatter(o);
                          waits.check();
                          copy_back(out, buf);
                        });
}

IntrusivePtr<Work> ProcessGroupGloo::alltoall_base(Tensor& outputTensor, Tensor& inputTensor,
                                                   std::vector<int64_t>& outputSplitSizes,
                                                   std::vector<int64_t>& inputSplitSizes,
                                                   const AllToAllOptions& opts) {
  check_tensor("alltoall_base", inputTensor, "inputTensor");
  check_tensor("alltoall_base", outputTensor, "outputTensor");
  BRASA_CHECK_TYPE(inputTensor.scalar_type() == outputTensor.scalar_type(),
                   "ProcessGroupGloo::alltoall_base: outputTensor has dtype ",
                   outputTensor.scalar_type(), " but inputTensor has dtype ",
                   inputTensor.scalar_type());
  BRASA_CHECK(inputTensor.dim() == outputTensor.dim() &&
                  inputTensor.sizes().slice(std::min<size_t>(1, inputTensor.dim())) ==
                      outputTensor.sizes().slice(std::min<size_t>(1, outputTensor.dim())),
              "ProcessGroupGloo::alltoall_base: outputTensor ", describe(outputTensor),
              " and inputTensor ", describe(inputTensor), " must agree on all dims but dim 0");
  auto in_counts =
      split_counts("alltoall_base", "inputTensor", inputSplitSizes, inputTensor, size_);
  auto out_counts =
      split_counts("alltoall_base", "outputTensor", outputSplitSizes, outputTensor, size_);
  const Tensor out = outputTensor;
  return impl_->enqueue("alltoall_base",
                        "input " + describe(inputTensor) + ", output " + describe(outputTensor),
                        opts.timeout, {out},
                        [out, in = dense(inputTensor), obuf = dense(outputTensor), in_counts,
                         out_counts](const OpContext& c) {
                          alltoallv_bytes(c, in, in_counts, obuf, out_counts);
                          copy_back(out, obuf);
                        });
}

IntrusivePtr<Work> ProcessGroupGloo::alltoall(std::vector<Tensor>& outputTensors,
                                              std::vector<Tensor>& inputTensors,
                                              const AllToAllOptions& opts) {
  BRASA_CHECK(inputTensors.size() == static_cast<size_t>(size_) &&
                  outputTensors.size() == static_cast<size_t>(size_),
              "ProcessGroupGloo::alltoall: inputTensors and outputTensors must hold ", size_,
              " tensors (one per rank), got ", inputTensors.size(), " and ", outputTensors.size());
  std::vector<int64_t> in_counts, out_counts;
  int64_t in_total = 0, out_total = 0;
  for (size_t r = 0; r < inputTensors.size(); ++r) {
    check_tensor("alltoall", inputTensors[r], "inputTensors[r]");
    check_tensor("alltoall", outputTensors[r], "outputTensors[r]");
    BRASA_CHECK_TYPE(inputTensors[r].scalar_type() == inputTensors[0].scalar_type() &&
                         outputTensors[r].scalar_type() == inputTensors[0].scalar_type(),
                     "ProcessGroupGloo::alltoall: all tensors must have dtype ",
                     inputTensors[0].scalar_type(), "; inputTensors[", r, "] is ",
                     inputTensors[r].scalar_type(), ", outputTensors[", r, "] is ",
                     outputTensors[r].scalar_type());
    in_counts.push_back(static_cast<int64_t>(inputTensors[r].nbytes()));
    out_counts.push_back(static_cast<int64_t>(outputTensors[r].nbytes()));
    in_total += in_counts.back();
    out_total += out_counts.back();
  }
  Tensor in_flat = brasa::empty({in_total}, TensorOptions(kByte));
  for (size_t r = 0, off = 0; r < inputTensors.size();
       off += static_cast<size_t>(in_counts[r]), ++r) {
    if (in_counts[r] > 0) {
      std::memcpy(bytes(in_flat) + off, dense(inputTensors[r]).data_ptr(),
                  static_cast<size_t>(in_counts[r]));
    }
  }
  auto outs = outputTensors;
  return impl_->enqueue("alltoall", "input[0] " + describe(inputTensors[0]), opts.timeout, outs,
                        [outs, in_flat, in_counts, out_counts, out_total](const OpContext& c) {
                          Tensor out_flat = brasa::empty({out_total}, TensorOptions(kByte));
                          alltoallv_bytes(c, in_flat, in_counts, out_flat, out_counts);
                          size_t off = 0;
                          for (size_t r = 0; r < outs.size(); ++r) {
                            write_bytes(outs[r], bytes(out_flat) + off);
                            off += static_cast<size_t>(out_counts[r]);
                          }
                        });
}

IntrusivePtr<Work> ProcessGroupGloo::barrier(const BarrierOptions& opts) {
  auto prior = impl_->pending();
  return impl_->enqueue("barrier", "", opts.timeout, {}, [prior](const OpContext& c) {
    for (const auto& w : prior) {
      try {
        w->wait();
      } catch (const std::exception&) {  // NOLINT(bugprone-empty-catch): its own Work reports it
      }
    }
    ::gloo::BarrierOptions o(c.context);
    o.setTag(c.tag);
    o.setTimeout(c.timeout);
    ::gloo::barrier(o);
  });
}

}  // namespace brasa::distributed
