// Joins built from cat, stack, expand and index_select: block_diag, broadcast_tensors,
// cartesian_prod, combinations, column_stack, row_stack, dstack, atleast_*d, concatenate.
#include <algorithm>

#include "backends/cpu/tensor_iterator.h"
#include "brasa/core/error.h"
#include "brasa/core/type_promotion.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/shaping.h"
#include "brasa/ops/tensor_data.h"
#include "brasa/ops/view.h"

namespace brasa {
namespace {

Tensor long_tensor(const std::vector<int64_t>& v) {
  return detail::tensor_from_array(v.data(), static_cast<int64_t>(v.size()), kLong);
}

/// Appends to `rows` (flattened, r entries each) every r-combination of 0..n-1 in lexicographic
/// order; with_replacement allows an index to repeat.
void combos(int64_t n, int64_t r, bool with_replacement, std::vector<int64_t>& rows) {
  std::vector<int64_t> idx(r);
  for (int64_t i = 0; i < r; ++i) idx[i] = with_replacement ? 0 : i;
  if (r == 0 || idx[r - 1] >= n) return;
  while (true) {
    rows.insert(rows.end(), idx.begin(), idx.end());
    int64_t i = r - 1;
    // The rightmost position that can still move up.
    while (i >= 0 && idx[i] == (with_replacement ? n - 1 : n - r + i)) --i;
    if (i < 0) return;
    ++idx[i];
    for (int64_t j = i + 1; j < r; ++j) idx[j] = with_replacement ? idx[i] : idx[j - 1] + 1;
  }
}

}  // namespace

Tensor block_diag(TensorList tensors) {
  if (tensors.empty()) return empty({1, 0});
  int64_t rows = 0, cols = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    BRASA_CHECK(t.dim() <= 2, "torch.block_diag: Input tensors must have 2 or fewer dimensions. ",
                "Input ", i, " has ", t.dim(), " dimensions");
    BRASA_CHECK(t.device() == tensors[0].device(), "torch.block_diag: input tensors must all be ",
                "on the same device. Input 0 is on device ", tensors[0].device(), " and input ", i,
                " is on device ", t.device());
    rows += t.dim() == 2 ? t.size(0) : 1;
    cols += t.dim() == 0 ? 1 : t.size(-1);
  }
  Tensor out = zeros({rows, cols}, TensorOptions(result_type(tensors)).device(tensors[0].device()));
  int64_t r = 0, c = 0;
  for (const Tensor& t : tensors) {
    const Tensor m = t.dim() == 2 ? t : t.reshape({1, -1});
    out.narrow(0, r, m.size(0)).narrow(1, c, m.size(1)).copy_(m);
    r += m.size(0);
    c += m.size(1);
  }
  return out;
}

std::vector<Tensor> broadcast_tensors(TensorList tensors) {
  std::vector<int64_t> shape;
  for (const Tensor& t : tensors) {
    const auto s = cpu::broadcast_shapes(shape, t.sizes(), "broadcast_tensors");
    shape.assign(s.begin(), s.end());
  }
  std::vector<Tensor> out;
  for (const Tensor& t : tensors) out.push_back(t.expand(shape));
  return out;
}

Tensor cartesian_prod(TensorList tensors) {
  BRASA_CHECK(!tensors.empty(), "cartesian_prod: expects a non-empty TensorList");
  for (const Tensor& t : tensors) {
    BRASA_CHECK(t.dim() == 1, "Expect a 1D vector, but got shape ", t.sizes());
  }
  if (tensors.size() == 1) return tensors[0];
  std::vector<Tensor> columns;
  for (const Tensor& g : meshgrid(tensors, "ij")) columns.push_back(g.reshape({-1}));
  return stack(columns, 1);
}

Tensor combinations(const Tensor& self, int64_t r, bool with_replacement) {
  BRASA_CHECK(self.dim() == 1, "Expect a 1D vector, but got shape ", self.sizes());
  BRASA_CHECK(r >= 0, "Expect a non-negative number, but got ", r);
  if (r == 0) return empty({0}, self.options());
  std::vector<int64_t> rows;
  combos(self.size(0), r, with_replacement, rows);
  const int64_t count = static_cast<int64_t>(rows.size()) / r;
  const Tensor index = long_tensor(rows).view({count, r}).to(self.device());
  std::vector<Tensor> columns;
  for (int64_t j = 0; j < r; ++j) columns.push_back(self.index_select(0, index.select(1, j)));
  return stack(columns, 1);
}

Tensor column_stack(TensorList tensors) {
  BRASA_CHECK(!tensors.empty(), "column_stack expects a non-empty TensorList");
  std::vector<Tensor> parts;
  for (const Tensor& t : tensors) parts.push_back(t.dim() <= 1 ? t.reshape({t.numel(), 1}) : t);
  return hstack(parts);
}

Tensor row_stack(TensorList tensors) { return vstack(tensors); }

Tensor atleast_3d(const Tensor& self) {
  if (self.dim() == 0) return self.reshape({1, 1, 1});
  if (self.dim() == 1) return self.unsqueeze(0).unsqueeze(-1);
  return self.dim() == 2 ? self.unsqueeze(-1) : self;
}

namespace {
template <Tensor (*f)(const Tensor&)>
std::vector<Tensor> each(TensorList tensors) {
  std::vector<Tensor> out;
  for (const Tensor& t : tensors) out.push_back(f(t));
  return out;
}
}  // namespace

std::vector<Tensor> atleast_1d(TensorList tensors) {
  return each<static_cast<Tensor (*)(const Tensor&)>(&atleast_1d)>(tensors);
}
std::vector<Tensor> atleast_2d(TensorList tensors) {
  return each<static_cast<Tensor (*)(const Tensor&)>(&atleast_2d)>(tensors);
}
std::vector<Tensor> atleast_3d(TensorList tensors) {
  return each<static_cast<Tensor (*)(const Tensor&)>(&atleast_3d)>(tensors);
}

Tensor dstack(TensorList tensors) {
  BRASA_CHECK(!tensors.empty(), "dstack expects a non-empty TensorList");
  return cat(atleast_3d(tensors), 2);
}

Tensor concatenate(TensorList tensors, int64_t dim) { return cat(tensors, dim); }

}  // namespace brasa
