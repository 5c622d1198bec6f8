// sort, argsort and topk (loops in backends/cpu/kernels/sort_kernels.cpp).
#include "backends/cpu/kernels/scan_softmax_sort_kernels.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/reduce.h"
#include "ops/reduce/reduce_ops.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(sort_stub, SortKernel);

using PairSig = std::tuple<Tensor, Tensor>;
BRASA_DEFINE_OP(sort_op)
BRASA_DEFINE_OP(topk_op)

namespace {
PairSig select_lines_meta(const char* op, const Tensor& self, int64_t dim, int64_t k) {
  BRASA_CHECK(self.defined(), op, ": got an undefined tensor");
  int64_t d = detail::wrap_dim(dim, self.dim(), op);
  DimVector shape(self.sizes());
  if (self.dim() > 0) {
    BRASA_CHECK(k >= 0 && k <= self.size(d), op, ": selected index k out of range (k = ", k,
                ", size of dim ", d, " is ", self.size(d), ")");
    shape[d] = k;
  } else {
    BRASA_CHECK(k == 0 || k == 1, op, ": selected index k out of range (k = ", k,
                " for a 0-d tensor)");
  }
  return {detail::empty_generic(shape, self.dtype(), self.device()),
          detail::empty_generic(shape, kLong, self.device())};
}
PairSig select_lines(const char* op, const Tensor& self, int64_t dim, int64_t k, bool descending) {
  auto [values, indices] = select_lines_meta(op, self, dim, k);
  if (values.numel() == 0) return {values, indices};
  int64_t d = self.dim() == 0 ? -1 : detail::wrap_dim(dim, self.dim(), op);
  sort_stub(values, indices, self.contiguous(), line_shape(self.sizes(), d), k, descending);
  return {values, indices};
}
int64_t sort_length(const Tensor& self, int64_t dim) {
  return self.dim() == 0 ? 1 : self.size(detail::wrap_dim(dim, self.dim(), "sort"));
}
PairSig sort_meta(const Tensor& self, int64_t dim, bool) {
  return select_lines_meta("sort", self, dim, sort_length(self, dim));
}
PairSig topk_meta(const Tensor& self, int64_t k, int64_t dim, bool, bool) {
  return select_lines_meta("topk", self, dim, k);
}
PairSig sort_kernel(const Tensor& self, int64_t dim, bool descending) {
  return select_lines("sort", self, dim, sort_length(self, dim), descending);
}
PairSig topk_kernel(const Tensor& self, int64_t k, int64_t dim, bool largest, bool) {
  return select_lines("topk", self, dim, k, largest);
}
}  // namespace

BRASA_REGISTER_KERNEL(sort_op, sort_kernel, CPU)
BRASA_REGISTER_KERNEL(sort_op, sort_meta, Meta)
BRASA_REGISTER_KERNEL(topk_op, topk_kernel, CPU)
BRASA_REGISTER_KERNEL(topk_op, topk_meta, Meta)

}  // namespace brasa::ops

namespace brasa {
std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim, bool descending) {
  return ops::sort_op().call(self, dim, descending);
}
std::tuple<Tensor, Tensor> sort(const Tensor& self, std::optional<bool>, int64_t dim,
                                bool descending) {
  return ops::sort_op().call(self, dim, descending);
}
Tensor argsort(const Tensor& self, int64_t dim, bool descending) {
  return std::get<1>(ops::sort_op().call(self, dim, descending));
}
std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim, bool largest,
                                bool sorted) {
  return ops::topk_op().call(self, k, dim, largest, sorted);
}
std::tuple<Tensor, Tensor> Tensor::sort(int64_t dim, bool descending) const {
  return brasa::sort(*this, dim, descending);
}
std::tuple<Tensor, Tensor> Tensor::sort(std::optional<bool> stable, int64_t dim,
                                        bool descending) const {
  return brasa::sort(*this, stable, dim, descending);
}
Tensor Tensor::argsort(int64_t dim, bool descending) const {
  return brasa::argsort(*this, dim, descending);
}
std::tuple<Tensor, Tensor> Tensor::topk(int64_t k, int64_t dim, bool largest, bool sorted) const {
  return brasa::topk(*this, k, dim, largest, sorted);
}
}  // namespace brasa
