// torch's top-level linear-algebra functions over libbrasa's C++ ones (the torch.linalg namespace
// is linalg_binding.cpp): cholesky_solve / cholesky_inverse, triangular_solve, lu_unpack,
// orgqr / ormqr, matrix_exp, cross, dist and the older norms (Note [Composite functions in
// Python]). The GIL is released around each C++ call.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <vector>

#include "brasa/ops/householder.h"
#include "brasa/ops/legacy_norms.h"
#include "brasa/ops/linalg_lu.h"
#include "brasa/ops/linalg_solvers.h"
#include "brasa/ops/products.h"
#include "composites.h"
#include "convert.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

using T = const Tensor&;
using G = nb::gil_scoped_release;

void bind_solvers(nb::module_& m) {
  m.def(
      "cholesky_solve",
      [](T b, T factor, bool upper) {
        G g;
        return cholesky_solve(b, factor, upper);
      },
      nb::arg("input"), nb::arg("input2"), nb::arg("upper") = false);
  m.def(
      "cholesky_inverse",
      [](T factor, bool upper) {
        G g;
        return cholesky_inverse(factor, upper);
      },
      nb::arg("input"), nb::arg("upper") = false);
  m.def(
      "_triangular_solve",
      [](T b, T a, bool upper, bool transpose, bool unitriangular) {
        G g;
        return triangular_solve(b, a, upper, transpose, unitriangular);
      },
      nb::arg("input"), nb::arg("A"), nb::arg("upper"), nb::arg("transpose"),
      nb::arg("unitriangular"));
  m.def(
      "_lu_unpack",
      [](T lu, T pivots, bool unpack_data, bool unpack_pivots) {
        G g;
        return lu_unpack(lu, pivots, unpack_data, unpack_pivots);
      },
      nb::arg("LU_data"), nb::arg("LU_pivots"), nb::arg("unpack_data"), nb::arg("unpack_pivots"));
  m.def(
      "orgqr",
      [](T a, T tau) {
        G g;
        return orgqr(a, tau);
      },
      nb::arg("input"), nb::arg("tau"));
  m.def(
      "ormqr",
      [](T a, T tau, T other, bool left, bool transpose) {
        G g;
        return ormqr(a, tau, other, left, transpose);
      },
      nb::arg("input"), nb::arg("tau"), nb::arg("other"), nb::arg("left") = true,
      nb::arg("transpose") = false);
}

void bind_products(nb::module_& m) {
  m.def(
      "matrix_exp",
      [](T a) {
        G g;
        return matrix_exp(a);
      },
      nb::arg("A"));
  m.def(
      "cross",
      [](T a, T b, std::optional<int64_t> dim) {
        G g;
        return cross(a, b, dim);
      },
      nb::arg("input"), nb::arg("other"), nb::arg("dim").none() = nb::none());
  m.def(
      "dist",
      [](T a, T b, nb::handle p) {
        Scalar ps = scalar_arg(p, "dist", "p");
        G g;
        return a.dist(b, ps);
      },
      nb::arg("input"), nb::arg("other"), nb::arg("p") = 2);
  // nuclear_norm(input, keepdim=False) and nuclear_norm(input, dim, keepdim=False).
  m.def(
      "nuclear_norm",
      [](T a, bool keepdim) {
        G g;
        return nuclear_norm(a, keepdim);
      },
      nb::arg("input"), nb::arg("keepdim") = false);
  m.def(
      "nuclear_norm",
      [](T a, const std::vector<int64_t>& dim, bool keepdim) {
        G g;
        return nuclear_norm(a, dim, keepdim);
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("keepdim") = false);
  m.def(
      "norm_except_dim",
      [](T v, int64_t pow, int64_t dim) {
        G g;
        return norm_except_dim(v, pow, dim);
      },
      nb::arg("v"), nb::arg("pow") = 2, nb::arg("dim") = 0);
}

}  // namespace

void bind_legacy_linalg_functions(nb::module_& m) {
  bind_solvers(m);
  bind_products(m);
}

}  // namespace brasa::python
