#include "linalg_binding.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <vector>

#include "brasa/ops/householder.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/linalg_decomp.h"
#include "brasa/ops/linalg_lu.h"
#include "brasa/ops/linalg_solvers.h"
#include "brasa/ops/products.h"
#include "convert.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

using T = const Tensor&;
using OptDouble = std::optional<double>;
using OptInts = std::optional<std::vector<int64_t>>;
using G = nb::gil_scoped_release;

/// One-tensor functions: A -> Tensor.
void bind_unary(nb::module_& m) {
  using F = Tensor (*)(T);
  for (auto [name, f] : {std::pair<const char*, F>{"inv", &linalg_inv},
                         {"det", &linalg_det},
                         {"svdvals", &linalg_svdvals},
                         {"eigvals", &linalg_eigvals},
                         {"matrix_exp", &linalg_matrix_exp}}) {
    m.def(
        name,
        [f](T a) {
          G g;
          return f(a);
        },
        nb::arg("A"));
  }
}

void bind_decompositions(nb::module_& m) {
  m.def(
      "slogdet",
      [](T a) {
        G g;
        return linalg_slogdet(a);
      },
      nb::arg("A"));
  m.def(
      "cholesky",
      [](T a, bool upper) {
        G g;
        return linalg_cholesky(a, upper);
      },
      nb::arg("A"), nb::kw_only(), nb::arg("upper") = false);
  m.def(
      "cholesky_ex",
      [](T a, bool upper, bool check_errors) {
        G g;
        return linalg_cholesky_ex(a, upper, check_errors);
      },
      nb::arg("A"), nb::kw_only(), nb::arg("upper") = false, nb::arg("check_errors") = false);
  m.def(
      "qr",
      [](T a, const std::string& mode) {
        G g;
        return linalg_qr(a, mode);
      },
      nb::arg("A"), nb::arg("mode") = "reduced");
  m.def(
      "svd",
      [](T a, bool full_matrices) {
        G g;
        return linalg_svd(a, full_matrices);
      },
      nb::arg("A"), nb::arg("full_matrices") = true);
  m.def(
      "eigh",
      [](T a, const std::string& uplo) {
        G g;
        return linalg_eigh(a, uplo);
      },
      nb::arg("A"), nb::arg("UPLO") = "L");
  m.def(
      "eigvalsh",
      [](T a, const std::string& uplo) {
        G g;
        return linalg_eigvalsh(a, uplo);
      },
      nb::arg("A"), nb::arg("UPLO") = "L");
  m.def(
      "eig",
      [](T a) {
        G g;
        return linalg_eig(a);
      },
      nb::arg("A"));
  m.def(
      "lu_factor",
      [](T a, bool pivot) {
        G g;
        return linalg_lu_factor(a, pivot);
      },
      nb::arg("A"), nb::kw_only(), nb::arg("pivot") = true);
  m.def(
      "lu_factor_ex",
      [](T a, bool pivot, bool check_errors) {
        G g;
        return linalg_lu_factor_ex(a, pivot, check_errors);
      },
      nb::arg("A"), nb::kw_only(), nb::arg("pivot") = true, nb::arg("check_errors") = false);
  m.def(
      "lu",
      [](T a, bool pivot) {
        G g;
        return linalg_lu(a, pivot);
      },
      nb::arg("A"), nb::kw_only(), nb::arg("pivot") = true);
  m.def(
      "ldl_factor",
      [](T a, bool hermitian) {
        G g;
        return linalg_ldl_factor(a, hermitian);
      },
      nb::arg("A"), nb::kw_only(), nb::arg("hermitian") = false);
  m.def(
      "ldl_factor_ex",
      [](T a, bool hermitian, bool check_errors) {
        G g;
        return linalg_ldl_factor_ex(a, hermitian, check_errors);
      },
      nb::arg("A"), nb::kw_only(), nb::arg("hermitian") = false, nb::arg("check_errors") = false);
  m.def(
      "inv_ex",
      [](T a, bool check_errors) {
        G g;
        return linalg_inv_ex(a, check_errors);
      },
      nb::arg("A"), nb::kw_only(), nb::arg("check_errors") = false);
  m.def(
      "householder_product",
      [](T a, T tau) {
        G g;
        return linalg_householder_product(a, tau);
      },
      nb::arg("A"), nb::arg("tau"));
}

void bind_solvers(nb::module_& m) {
  m.def(
      "solve",
      [](T a, T b, bool left) {
        G g;
        return linalg_solve(a, b, left);
      },
      nb::arg("A"), nb::arg("B"), nb::kw_only(), nb::arg("left") = true);
  m.def(
      "solve_ex",
      [](T a, T b, bool left, bool check_errors) {
        G g;
        return linalg_solve_ex(a, b, left, check_errors);
      },
      nb::arg("A"), nb::arg("B"), nb::kw_only(), nb::arg("left") = true,
      nb::arg("check_errors") = false);
  m.def(
      "solve_triangular",
      [](T a, T b, bool upper, bool left, bool unitriangular) {
        G g;
        return linalg_solve_triangular(a, b, upper, left, unitriangular);
      },
      nb::arg("A"), nb::arg("B"), nb::kw_only(), nb::arg("upper"), nb::arg("left") = true,
      nb::arg("unitriangular") = false);
  m.def(
      "lu_solve",
      [](T lu, T pivots, T b, bool left, bool adjoint) {
        G g;
        return linalg_lu_solve(lu, pivots, b, left, adjoint);
      },
      nb::arg("LU"), nb::arg("pivots"), nb::arg("B"), nb::kw_only(), nb::arg("left") = true,
      nb::arg("adjoint") = false);
  m.def(
      "ldl_solve",
      [](T ld, T pivots, T b, bool hermitian) {
        G g;
        return linalg_ldl_solve(ld, pivots, b, hermitian);
      },
      nb::arg("LD"), nb::arg("pivots"), nb::arg("B"), nb::kw_only(), nb::arg("hermitian") = false);
  m.def(
      "lstsq",
      [](T a, T b, OptDouble rcond, std::optional<std::string> driver) {
        std::optional<std::string_view> d;
        if (driver) d = *driver;
        G g;
        return linalg_lstsq(a, b, rcond, d);
      },
      nb::arg("A"), nb::arg("B"), nb::arg("rcond").none() = nb::none(), nb::kw_only(),
      nb::arg("driver").none() = nb::none());
  m.def(
      "pinv",
      [](T a, OptDouble atol, OptDouble rtol, bool hermitian) {
        G g;
        return linalg_pinv(a, atol, rtol, hermitian);
      },
      nb::arg("A"), nb::kw_only(), nb::arg("atol").none() = nb::none(),
      nb::arg("rtol").none() = nb::none(), nb::arg("hermitian") = false);
  // torch 1.13 still takes the deprecated `tol` (an absolute tolerance) beside atol/rtol.
  m.def(
      "matrix_rank",
      [](T a, OptDouble tol, bool hermitian, OptDouble atol, OptDouble rtol) {
        G g;
        return tol ? linalg_matrix_rank(a, *tol, hermitian)
                   : linalg_matrix_rank(a, atol, rtol, hermitian);
      },
      nb::arg("A"), nb::arg("tol").none() = nb::none(), nb::arg("hermitian") = false, nb::kw_only(),
      nb::arg("atol").none() = nb::none(), nb::arg("rtol").none() = nb::none());
  m.def(
      "tensorinv",
      [](T a, int64_t ind) {
        G g;
        return linalg_tensorinv(a, ind);
      },
      nb::arg("A"), nb::arg("ind") = 2);
  m.def(
      "tensorsolve",
      [](T a, T b, nb::handle dims) {
        OptInts d = optional_int_list(dims);
        G g;
        return linalg_tensorsolve(a, b, optional_dims(d));
      },
      nb::arg("A"), nb::arg("B"), nb::arg("dims").none() = nb::none());
}

/// Norms take an `ord` that is a number or a string ("fro", "nuc").
void bind_norms(nb::module_& m) {
  m.def(
      "vector_norm",
      [](T a, nb::handle ord, nb::handle dim, bool keepdim, std::optional<DType> dtype) {
        Scalar o = scalar_arg(ord, "linalg.vector_norm", "ord");
        OptInts d = optional_int_list(dim);
        G g;
        return linalg_vector_norm(a, o, optional_dims(d), keepdim, optional_scalar_type(dtype));
      },
      nb::arg("x"), nb::arg("ord") = 2, nb::arg("dim").none() = nb::none(),
      nb::arg("keepdim") = false, nb::kw_only(), nb::arg("dtype").none() = nb::none());
  m.def(
      "matrix_norm",
      [](T a, nb::handle ord, std::vector<int64_t> dim, bool keepdim, std::optional<DType> dtype) {
        if (nb::isinstance<nb::str>(ord)) {
          std::string o = nb::cast<std::string>(ord);
          G g;
          return linalg_matrix_norm(a, o, dim, keepdim, optional_scalar_type(dtype));
        }
        Scalar o = scalar_arg(ord, "linalg.matrix_norm", "ord");
        G g;
        return linalg_matrix_norm(a, o, dim, keepdim, optional_scalar_type(dtype));
      },
      nb::arg("A"), nb::arg("ord") = "fro", nb::arg("dim") = std::vector<int64_t>{-2, -1},
      nb::arg("keepdim") = false, nb::kw_only(), nb::arg("dtype").none() = nb::none());
  m.def(
      "norm",
      [](T a, nb::handle ord, nb::handle dim, bool keepdim, std::optional<DType> dtype) {
        OptInts d = optional_int_list(dim);
        if (nb::isinstance<nb::str>(ord)) {
          std::string o = nb::cast<std::string>(ord);
          G g;
          return linalg_norm(a, o, optional_dims(d), keepdim, optional_scalar_type(dtype));
        }
        std::optional<Scalar> o;
        if (!ord.is_none()) o = scalar_arg(ord, "linalg.norm", "ord");
        G g;
        return linalg_norm(a, o, optional_dims(d), keepdim, optional_scalar_type(dtype));
      },
      nb::arg("A"), nb::arg("ord").none() = nb::none(), nb::arg("dim").none() = nb::none(),
      nb::arg("keepdim") = false, nb::kw_only(), nb::arg("dtype").none() = nb::none());
  m.def(
      "cond",
      [](T a, nb::handle p) {
        if (nb::isinstance<nb::str>(p)) {
          std::string s = nb::cast<std::string>(p);
          G g;
          return linalg_cond(a, std::string_view(s));
        }
        std::optional<Scalar> o;
        if (!p.is_none()) o = scalar_arg(p, "linalg.cond", "p");
        G g;
        return linalg_cond(a, o);
      },
      nb::arg("A"), nb::arg("p").none() = nb::none());
}

void bind_products(nb::module_& m) {
  m.def(
      "multi_dot",
      [](const std::vector<Tensor>& ts) {
        G g;
        return linalg_multi_dot(ts);
      },
      nb::arg("tensors"));
  m.def(
      "cross",
      [](T a, T b, int64_t dim) {
        G g;
        return linalg_cross(a, b, dim);
      },
      nb::arg("input"), nb::arg("other"), nb::kw_only(), nb::arg("dim") = -1);
  m.def(
      "vecdot",
      [](T x, T y, int64_t dim) {
        G g;
        return linalg_vecdot(x, y, dim);
      },
      nb::arg("x"), nb::arg("y"), nb::kw_only(), nb::arg("dim") = -1);
  m.def(
      "matmul",
      [](T a, T b) {
        G g;
        return linalg_matmul(a, b);
      },
      nb::arg("input"), nb::arg("other"));
  m.def(
      "diagonal",
      [](T a, int64_t offset, int64_t dim1, int64_t dim2) {
        G g;
        return linalg_diagonal(a, offset, dim1, dim2);
      },
      nb::arg("A"), nb::kw_only(), nb::arg("offset") = 0, nb::arg("dim1") = -2,
      nb::arg("dim2") = -1);
  m.def(
      "vander",
      [](T x, std::optional<int64_t> n) {
        G g;
        return linalg_vander(x, n);
      },
      nb::arg("x"), nb::kw_only(), nb::arg("N").none() = nb::none());
  m.def(
      "matrix_power",
      [](T a, int64_t n) {
        G g;
        return linalg_matrix_power(a, n);
      },
      nb::arg("A"), nb::arg("n"));
}

}  // namespace

void bind_linalg(nb::module_& parent) {
  nb::module_ m = parent.def_submodule("_linalg", "torch.linalg over brasa's C++ linear algebra");
  bind_unary(m);
  bind_decompositions(m);
  bind_solvers(m);
  bind_norms(m);
  bind_products(m);
}

}  // namespace brasa::python
