// ProcessGroupGloo's reducing collectives: allreduce, reduce, reduce_scatter. Gloo reduces
// float32/64 and int8..int64/uint8 natively; half and bfloat16 go through float32 and back. AVG
// is SUM then a division by the group size (truncating for integers).

#include <gloo/allreduce.h>
#include <gloo/math.h>
#include <gloo/reduce.h>

#include <type_traits>

#include "brasa/ops/factory.h"
#include "distributed/gloo/gloo_checks.h"
#include "distributed/gloo/gloo_impl.h"

namespace brasa::distributed {

namespace gloo_backend {
namespace {

using ReduceFn = void (*)(void*, const void*, const void*, size_t);

template <typename T>
ReduceFn reduce_fn(ReduceOp::RedOpType op) {
  switch (op) {
    case ReduceOp::SUM:
    case ReduceOp::AVG: return static_cast<ReduceFn>(&::gloo::sum<T>);
    case ReduceOp::PRODUCT: return static_cast<ReduceFn>(&::gloo::product<T>);
    case ReduceOp::MIN: return static_cast<ReduceFn>(&::gloo::min<T>);
    case ReduceOp::MAX: return static_cast<ReduceFn>(&::gloo::max<T>);
  }
  return static_cast<ReduceFn>(&::gloo::sum<T>);
}

/// Calls f(std::type_identity<T>{}) for the dtypes Gloo reduces natively.
template <typename F>
void dispatch_native(ScalarType st, F&& f) {
  switch (st) {
    case kFloat: return f(std::type_identity<float>{});
    case kDouble: return f(std::type_identity<double>{});
    case kChar: return f(std::type_identity<int8_t>{});
    case kShort: return f(std::type_identity<int16_t>{});
    case kInt: return f(std::type_identity<int32_t>{});
    case kLong: return f(std::type_identity<int64_t>{});
    case kByte: return f(std::type_identity<uint8_t>{});
    default: BRASA_THROW(TypeError, "ProcessGroupGloo: cannot reduce dtype ", st);
  }
}

bool via_float(ScalarType st) { return st == kHalf || st == kBFloat16; }

void check_reducible(const char* op, const Tensor& t) {
  const auto st = t.scalar_type();
  BRASA_CHECK_TYPE(via_float(st) || st == kFloat || st == kDouble || st == kChar || st == kShort ||
                       st == kInt || st == kLong || st == kByte,
                   "ProcessGroupGloo::", op, ": unsupported dtype ", st,
                   " (float32/64, float16, bfloat16, int8/16/32/64 and uint8 are supported)");
}

template <typename T>
void divide(Tensor& buf, int size) {
  T* p = static_cast<T*>(buf.data_ptr());
  for (int64_t i = 0, n = buf.numel(); i < n; ++i)
    p[i] = static_cast<T>(p[i] / static_cast<T>(size));
}

/// In place over a contiguous buffer.
void allreduce_buffer(const OpContext& c, Tensor& buf, ReduceOp::RedOpType op) {
  if (via_float(buf.scalar_type())) {
    Tensor f = buf.to(kFloat);
    allreduce_buffer(c, f, op);
    buf.copy_(f);
    return;
  }
  if (buf.numel() == 0) return;
  dispatch_native(buf.scalar_type(), [&](auto tid) {
    using T = typename decltype(tid)::type;
    ::gloo::AllreduceOptions o(c.context);
    AbortableWaits waits(c);  // Note [Lost peers]
    o.setOutput<T>(waits.buffer(buf.data_ptr(), buf.nbytes()));
    o.setReduceFunction(reduce_fn<T>(op));
    o.setTag(c.tag);
    o.setTimeout(c.timeout);
    ::gloo::allreduce(o);
    waits.check();
    if (op == ReduceOp::AVG) divide<T>(buf, c.size);
  });
}

void reduce_buffer(const OpContext& c, Tensor& buf, ReduceOp::RedOpType op, int root) {
  if (via_float(buf.scalar_type())) {
    Tensor f = buf.to(kFloat);
    reduce_buffer(c, f, op, root);
    buf.copy_(f);
    return;
  }
  if (buf.numel() == 0) return;
  dispatch_native(buf.scalar_type(), [&](auto tid) {
    using T = typename decltype(tid)::type;
    ::gloo::ReduceOptions o(c.context);
    AbortableWaits waits(c);  // Note [Lost peers]
    o.setOutput<T>(waits.buffer(buf.data_ptr(), buf.nbytes()));
    o.setRoot(root);
    o.setReduceFunction(reduce_fn<T>(op));
    o.setTag(c.tag);
    o.setTimeout(c.timeout);
    ::gloo::reduce(o);
    waits.check();
    if (op == ReduceOp::AVG && c.rank == root) divide<T>(buf, c.size);
  });
}

}  // namespace
}  // namespace gloo_backend

using namespace gloo_backend;  // NOLINT

IntrusivePtr<Work> ProcessGroupGloo::allreduce(std::vector<Tensor>& tensors,
                                               const AllreduceOptions& opts) {
  const Tensor& t = single_tensor("allreduce", tensors);
  check_reducible("allreduce", t);
  const auto op = opts.reduceOp.op_;
  return impl_->enqueue("allreduce", describe(t) + ", " + to_string(op), opts.timeout, {t},
                        [t, buf = dense(t), op](const OpContext& c) mutable {
                          allreduce_buffer(c, buf, op);
                          copy_back(t, buf);
                        });
}

IntrusivePtr<Work> ProcessGroupGloo::reduce(std::vector<Tensor>& tensors,
                                            const ReduceOptions& opts) {
  const Tensor& t = single_tensor("reduce", tensors);
  check_reducible("reduce", t);
  check_root("reduce", opts.rootRank, size_);
  BRASA_CHECK(opts.rootTensor == 0, "ProcessGroupGloo::reduce: rootTensor must be 0, got ",
              opts.rootTensor);
  const auto op = opts.reduceOp.op_;
  const int root = static_cast<int>(opts.rootRank);
  return impl_->enqueue(
      "reduce", describe(t) + ", " + to_string(op) + ", root " + std::to_string(root), opts.timeout,
      {t}, [t, buf = dense(t), op, root](const OpContext& c) mutable {
        reduce_buffer(c, buf, op, root);
        copy_back(t, buf);
      });
}

IntrusivePtr<Work> ProcessGroupGloo::reduce_scatter(std::vector<Tensor>& outputTensors,
                                                    std::vector<std::vector<Tensor>>& inputTensors,
                                                    const ReduceScatterOptions& opts) {
  const Tensor& out = single_tensor("reduce_scatter", outputTensors, "outputTensors");
  check_reducible("reduce_scatter", out);
  BRASA_CHECK(inputTensors.size() == 1,
              "ProcessGroupGloo::reduce_scatter: expected exactly 1 list in inputTensors, got ",
              inputTensors.size());
  check_list("reduce_scatter", inputTensors[0], static_cast<size_t>(size_), out, "inputTensors[0]",
             "outputTensors[0]");
  const int64_t n = out.numel();
  Tensor stacked = brasa::empty({n * size_}, out.options());
  for (int r = 0; r < size_; ++r) {
    stacked.narrow(0, r * n, n).copy_(inputTensors[0][static_cast<size_t>(r)].reshape({-1}));
  }
  const auto op = opts.reduceOp.op_;
  return impl_->enqueue("reduce_scatter", describe(out) + ", " + to_string(op), opts.timeout, {out},
                        [out, stacked, op, n](const OpContext& c) mutable {
                          allreduce_buffer(c, stacked, op);
                          out.copy_(stacked.narrow(0, c.rank * n, n).view(out.sizes()));
                        });
}

}  // namespace brasa::distributed
