// torch.gradient: the derivative estimated by finite differences along each requested dim, as a
// composition of views, arithmetic and cat (autograd flows through it, also to tensor
// coordinates). Interior points: central differences, second-order accurate also on unevenly
// spaced coordinates (with h_l, h_r the spacings left and right of a point:
// (h_l^2 f+ - h_r^2 f- + (h_r^2 - h_l^2) f) / (h_l h_r (h_l + h_r)));
// the two edge points: one-sided differences of first order (edge_order 1) or the second-order
// three-point ones (edge_order 2), as numpy.gradient defines them.
#include <optional>
#include <vector>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/core/type_promotion.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/shaping.h"
#include "brasa/ops/statistics.h"
#include "brasa/ops/view.h"

namespace brasa {
namespace {

// One dim's spacing: a constant step or 1-D coordinates.
struct Spacing {
  std::optional<Scalar> step;
  Tensor coordinates;
};

Tensor float_input(const Tensor& self) {
  BRASA_CHECK_TYPE(self.scalar_type() != kBool && !self.is_complex(),
                   "gradient: not implemented for dtype ", self.scalar_type());
  return is_floating_type(self.scalar_type()) ? self : self.to(get_default_dtype());
}

// f's slice [start, start + length) along d.
Tensor part(const Tensor& f, int64_t d, int64_t start, int64_t length) {
  return f.narrow(d, start, length);
}

// Along dim d with dx [n - 1] the spacings between consecutive samples (viewed along d).
Tensor along_dim(const Tensor& f, int64_t d, int64_t edge_order, const Tensor& dx) {
  const int64_t n = f.size(d);
  Tensor hl = part(dx, d, 0, n - 2), hr = part(dx, d, 1, n - 2);
  Tensor interior = (hl * hl * part(f, d, 2, n - 2) - hr * hr * part(f, d, 0, n - 2) +
                     (hr * hr - hl * hl) * part(f, d, 1, n - 2)) /
                    (hl * hr * (hl + hr));
  Tensor first, last;
  if (edge_order == 1) {
    first = (part(f, d, 1, 1) - part(f, d, 0, 1)) / part(dx, d, 0, 1);
    last = (part(f, d, n - 1, 1) - part(f, d, n - 2, 1)) / part(dx, d, n - 2, 1);
  } else {
    // Second-order one-sided: the quadratic through the first (last) three samples.
    auto edge = [&](int64_t s0, int64_t s1, int64_t s2, const Tensor& a, const Tensor& b) {
      return part(f, d, s0, 1) * (-(a * 2 + b) / (a * (a + b))) +
             part(f, d, s1, 1) * ((a + b) / (a * b)) - part(f, d, s2, 1) * (a / (b * (a + b)));
    };
    first = edge(0, 1, 2, part(dx, d, 0, 1), part(dx, d, 1, 1));
    // The last three mirrored: spacings negated, so the same formula applies.
    last = edge(n - 1, n - 2, n - 3, -part(dx, d, n - 2, 1), -part(dx, d, n - 3, 1));
  }
  return cat({first, interior, last}, d);
}

// The spacings along d: a constant step, or the differences of 1-D coordinates.
Tensor spacings(const Tensor& f, int64_t d, const Spacing& s) {
  const int64_t n = f.size(d);
  std::vector<int64_t> shape(size_t(f.dim()), 1);
  shape[size_t(d)] = n - 1;
  if (s.step) return full(shape, *s.step, f.options());
  BRASA_CHECK(s.coordinates.size(0) == n, "gradient: the coordinates of dim ", d, " must have ", n,
              " elements (the size of the input along that dim), got ", s.coordinates.size(0));
  return diff(s.coordinates).view(shape);
}

// `spacing`: one entry for every dim (a list), or one for all (a scalar).
std::vector<Tensor> gradient_impl(const Tensor& self, const std::vector<Spacing>& spacing,
                                  bool list, std::optional<IntArrayRef> dims, int64_t edge_order) {
  BRASA_CHECK(self.defined(), "gradient: got an undefined tensor");
  BRASA_CHECK(edge_order == 1 || edge_order == 2,
              "torch.gradient only supports edge_order=1 and edge_order=2, got ", edge_order);
  std::vector<int64_t> ds;
  if (dims) {
    std::vector<bool> seen(size_t(self.dim()), false);
    for (int64_t dim : *dims) {
      const int64_t d = detail::wrap_dim(dim, self.dim(), "gradient");
      BRASA_CHECK(!seen[size_t(d)], "gradient: dim ", d,
                  " appears multiple times in the list of dims");
      seen[size_t(d)] = true;
      ds.push_back(d);
    }
  } else {
    for (int64_t d = 0; d < self.dim(); ++d) ds.push_back(d);
  }
  BRASA_CHECK(!list || spacing.size() == ds.size(),
              "gradient: expected spacing to be unspecified, a scalar or a list of length ",
              ds.size(), " (one per dim), got a list of length ", spacing.size());
  for (int64_t d : ds) {
    BRASA_CHECK(
        self.size(d) >= edge_order + 1,
        "torch.gradient expected each dimension size to be at least edge_order+1, got size ",
        self.size(d), " along dim ", d, " with edge_order ", edge_order);
  }
  const Tensor f = float_input(self);
  std::vector<Tensor> out;
  for (size_t i = 0; i < ds.size(); ++i) {
    const Spacing& s = spacing[list ? i : 0];
    out.push_back(along_dim(f, ds[i], edge_order, spacings(f, ds[i], s)));
  }
  return out;
}

std::vector<Spacing> steps(ArrayRef<Scalar> spacing) {
  std::vector<Spacing> r;
  for (const Scalar& s : spacing) r.push_back({s, Tensor()});
  return r;
}
std::vector<Spacing> coordinates(TensorList spacing) {
  std::vector<Spacing> r;
  for (const Tensor& t : spacing) {
    BRASA_CHECK(t.defined(), "gradient: got an undefined spacing tensor");
    BRASA_CHECK(t.dim() == 1,
                "torch.gradient expected each element of spacing to have one dimension, but got an "
                "element with ",
                t.dim(), " dimensions!");
    r.push_back({std::nullopt, t});
  }
  return r;
}
std::optional<IntArrayRef> one_dim(const std::optional<int64_t>& dim, int64_t& storage) {
  if (!dim) return std::nullopt;
  storage = *dim;
  return IntArrayRef(&storage, 1);
}

}  // namespace

std::vector<Tensor> gradient(const Tensor& self, const std::optional<Scalar>& spacing,
                             std::optional<int64_t> dim, int64_t edge_order) {
  int64_t d = 0;
  return gradient_impl(self, {{spacing.value_or(Scalar(1)), Tensor()}}, false, one_dim(dim, d),
                       edge_order);
}
std::vector<Tensor> gradient(const Tensor& self, const Scalar& spacing, IntArrayRef dim,
                             int64_t edge_order) {
  return gradient_impl(self, {{spacing, Tensor()}}, false, dim, edge_order);
}
std::vector<Tensor> gradient(const Tensor& self, IntArrayRef dim, int64_t edge_order) {
  return gradient_impl(self, {{Scalar(1), Tensor()}}, false, dim, edge_order);
}
std::vector<Tensor> gradient(const Tensor& self, ArrayRef<Scalar> spacing,
                             std::optional<int64_t> dim, int64_t edge_order) {
  int64_t d = 0;
  return gradient_impl(self, steps(spacing), true, one_dim(dim, d), edge_order);
}
std::vector<Tensor> gradient(const Tensor& self, ArrayRef<Scalar> spacing, IntArrayRef dim,
                             int64_t edge_order) {
  return gradient_impl(self, steps(spacing), true, dim, edge_order);
}
std::vector<Tensor> gradient(const Tensor& self, TensorList spacing, std::optional<int64_t> dim,
                             int64_t edge_order) {
  int64_t d = 0;
  return gradient_impl(self, coordinates(spacing), true, one_dim(dim, d), edge_order);
}
std::vector<Tensor> gradient(const Tensor& self, TensorList spacing, IntArrayRef dim,
                             int64_t edge_order) {
  return gradient_impl(self, coordinates(spacing), true, dim, edge_order);
}

}  // namespace brasa
