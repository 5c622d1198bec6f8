// Op map of the products and matrix functions family (cases_linops.py). Ops over a list of
// tensors take every positional tensor argument; qr and svd return the sign-free quantities the
// Python side computes (reconstruction, |factors|).
#include <limits>

#include "brasa/ops/householder.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/linalg_lu.h"
#include "brasa/ops/linalg_solvers.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/products.h"
#include "registry.h"

namespace brasa::conformance {
namespace {

Scalar scalar_kw(const Args& a, const char* name) { return a.kw_scalar(name).value_or(Scalar(1)); }

std::optional<int64_t> kw_opt_int(const Args& a, const char* name) {
  const Value* v = a.kwarg(name);
  if (!v || v->tag == Tag::None) return std::nullopt;
  return a.kw_int(name);
}

Value tensordot_case(const Args& a) {
  const Tensor x = a.tensor(0), y = a.tensor(1);
  if (a.at(2).tag == Tag::Int) {  // the last n dims of x with the first n of y
    const int64_t n = a.integer(2);
    std::vector<int64_t> dx, dy;
    for (int64_t i = 0; i < n; ++i) {
      dx.push_back(x.dim() - n + i);
      dy.push_back(i);
    }
    return tensordot(x, y, dx, dy);
  }
  const Value& dims = a.at(2);
  std::vector<int64_t> dx, dy;
  for (const Value& v : dims.list[0].list) dx.push_back(v.i);
  for (const Value& v : dims.list[1].list) dy.push_back(v.i);
  return tensordot(x, y, dx, dy);
}

// Positional bools after the tensors (triangular_solve, cholesky_solve, qr, svd).
bool flag(const Args& a, size_t i, bool fallback) { return i < a.size() ? a.at(i).b : fallback; }

Value cond_case(const Args& a) {
  const Value* p = a.kwarg("p");
  if (p && p->tag == Tag::Str) return linalg_cond(a.tensor(0), std::string_view(p->s));
  return linalg_cond(a.tensor(0), a.kw_scalar("p"));
}

Value matrix_rank_case(const Args& a) {
  const bool hermitian = a.kw_bool("hermitian").value_or(false);
  if (a.has("tol")) return linalg_matrix_rank(a.tensor(0), *a.kw_real("tol"), hermitian);
  return linalg_matrix_rank(a.tensor(0), a.kw_real("atol"), a.kw_real("rtol"), hermitian);
}

Value qr_case(const Args& a) {
  auto [q, r] = qr(a.tensor(0), flag(a, 1, true));
  return Value::of_tensors({matmul(q, r), abs(r), abs(q)});
}

Value svd_case(const Args& a) {
  const bool compute_uv = flag(a, 2, true);
  auto [u, s, v] = svd(a.tensor(0), flag(a, 1, true), compute_uv);
  if (!compute_uv) return Value::of_tensors({u, s, v});
  const int64_t k = s.size(-1);
  const Tensor uk = u.narrow(-1, 0, k), vk = v.narrow(-1, 0, k);
  return Value::of_tensors(
      {matmul(uk * s.unsqueeze(-2), vk.transpose(-2, -1)), s, abs(uk), abs(vk)});
}

template <class... T>
Value tensors_of(const std::tuple<T...>& t) {
  return Value::of_tensors(
      std::apply([](const auto&... x) { return std::vector<Tensor>{x...}; }, t));
}

const OpTable kLinOps(
    "linops",
    {
        {"kron", [](const Args& a) -> Value { return kron(a.tensor(0), a.tensor(1)); }},
        {"inner", [](const Args& a) -> Value { return inner(a.tensor(0), a.tensor(1)); }},
        {"tensordot", tensordot_case},
        {"vdot", [](const Args& a) -> Value { return vdot(a.tensor(0), a.tensor(1)); }},
        {"addbmm",
         [](const Args& a) -> Value {
           return addbmm(a.tensor(0), a.tensor(1), a.tensor(2), scalar_kw(a, "beta"),
                         scalar_kw(a, "alpha"));
         }},
        {"addr",
         [](const Args& a) -> Value {
           return addr(a.tensor(0), a.tensor(1), a.tensor(2), scalar_kw(a, "beta"),
                       scalar_kw(a, "alpha"));
         }},
        {"chain_matmul", [](const Args& a) -> Value { return chain_matmul(tensor_args(a)); }},
        {"linalg_multi_dot",
         [](const Args& a) -> Value { return linalg_multi_dot(tensor_args(a)); }},
        {"linalg_cross",
         [](const Args& a) -> Value {
           return linalg_cross(a.tensor(0), a.tensor(1), a.kw_int("dim").value_or(-1));
         }},
        {"cross",
         [](const Args& a) -> Value {
           return cross(a.tensor(0), a.tensor(1), kw_opt_int(a, "dim"));
         }},
        {"linalg_vecdot",
         [](const Args& a) -> Value {
           return linalg_vecdot(a.tensor(0), a.tensor(1), a.kw_int("dim").value_or(-1));
         }},
        {"linalg_vander",
         [](const Args& a) -> Value { return linalg_vander(a.tensor(0), kw_opt_int(a, "N")); }},
        {"linalg_matmul",
         [](const Args& a) -> Value { return linalg_matmul(a.tensor(0), a.tensor(1)); }},
        {"linalg_diagonal",
         [](const Args& a) -> Value {
           return linalg_diagonal(a.tensor(0), a.kw_int("offset").value_or(0),
                                  a.kw_int("dim1").value_or(-2), a.kw_int("dim2").value_or(-1));
         }},
        {"matrix_power",
         [](const Args& a) -> Value { return matrix_power(a.tensor(0), a.integer(1)); }},
        {"linalg_matrix_power",
         [](const Args& a) -> Value { return linalg_matrix_power(a.tensor(0), a.integer(1)); }},
        {"matrix_exp", [](const Args& a) -> Value { return matrix_exp(a.tensor(0)); }},
        {"linalg_matrix_exp",
         [](const Args& a) -> Value { return linalg_matrix_exp(a.tensor(0)); }},
        {"linalg_solve_triangular",
         [](const Args& a) -> Value {
           return linalg_solve_triangular(a.tensor(0), a.tensor(1), *a.kw_bool("upper"),
                                          a.kw_bool("left").value_or(true),
                                          a.kw_bool("unitriangular").value_or(false));
         }},
        {"triangular_solve",
         [](const Args& a) -> Value {
           auto [x, m] = triangular_solve(a.tensor(0), a.tensor(1), flag(a, 2, true),
                                          flag(a, 3, false), flag(a, 4, false));
           return Value::of_tensors({x, m});
         }},
        {"cholesky_solve",
         [](const Args& a) -> Value {
           return cholesky_solve(a.tensor(0), a.tensor(1), flag(a, 2, false));
         }},
        {"cholesky_inverse",
         [](const Args& a) -> Value { return cholesky_inverse(a.tensor(0), flag(a, 1, false)); }},
        {"linalg_tensorinv",
         [](const Args& a) -> Value {
           return linalg_tensorinv(a.tensor(0), a.kw_int("ind").value_or(2));
         }},
        {"linalg_tensorsolve",
         [](const Args& a) -> Value {
           const auto dims = a.kw_ints("dims");
           return linalg_tensorsolve(a.tensor(0), a.tensor(1),
                                     dims ? OptionalIntArrayRef(*dims) : std::nullopt);
         }},
        {"linalg_matrix_rank", matrix_rank_case},
        {"linalg_cond", cond_case},
        {"qr", qr_case},
        {"symeig",
         [](const Args& a) -> Value {
           const bool vectors = flag(a, 1, false);
           auto [w, v] = symeig(a.tensor(0), vectors, flag(a, 2, true));
           if (!vectors) return tensors_of(std::make_tuple(w, v));
           return Value::of_tensors({abs(w), abs(v)});
         }},
        {"geqrf", [](const Args& a) -> Value { return tensors_of(geqrf(a.tensor(0))); }},
        {"linalg_householder_product",
         [](const Args& a) -> Value {
           return linalg_householder_product(a.tensor(0), a.tensor(1));
         }},
        {"orgqr", [](const Args& a) -> Value { return orgqr(a.tensor(0), a.tensor(1)); }},
        {"ormqr",
         [](const Args& a) -> Value {
           return ormqr(a.tensor(0), a.tensor(1), a.tensor(2), flag(a, 3, true), flag(a, 4, false));
         }},
        {"linalg_lu_factor_ex",
         [](const Args& a) -> Value {
           return tensors_of(linalg_lu_factor_ex(a.tensor(0), a.kw_bool("pivot").value_or(true),
                                                 a.kw_bool("check_errors").value_or(false)));
         }},
        // The *_info cases compare only info: the factors of failed matrices are unspecified.
        {"linalg_lu_factor_ex_info",
         [](const Args& a) -> Value { return std::get<2>(linalg_lu_factor_ex(a.tensor(0))); }},
        {"linalg_solve_ex_info",
         [](const Args& a) -> Value {
           return std::get<1>(linalg_solve_ex(a.tensor(0), a.tensor(1)));
         }},
        {"linalg_cholesky_ex_info",
         [](const Args& a) -> Value { return std::get<1>(linalg_cholesky_ex(a.tensor(0))); }},
        {"linalg_lu_factor",
         [](const Args& a) -> Value { return tensors_of(linalg_lu_factor(a.tensor(0))); }},
        {"linalg_lu", [](const Args& a) -> Value { return tensors_of(linalg_lu(a.tensor(0))); }},
        {"lu_unpack",
         [](const Args& a) -> Value {
           return tensors_of(
               lu_unpack(a.tensor(0), a.tensor(1), flag(a, 2, true), flag(a, 3, true)));
         }},
        {"linalg_lu_solve",
         [](const Args& a) -> Value {
           return linalg_lu_solve(a.tensor(0), a.tensor(1), a.tensor(2),
                                  a.kw_bool("left").value_or(true),
                                  a.kw_bool("adjoint").value_or(false));
         }},
        {"lu_solve",
         [](const Args& a) -> Value { return lu_solve(a.tensor(0), a.tensor(1), a.tensor(2)); }},
        {"linalg_inv_ex",
         [](const Args& a) -> Value {
           return tensors_of(linalg_inv_ex(a.tensor(0), a.kw_bool("check_errors").value_or(false)));
         }},
        {"linalg_solve_ex",
         [](const Args& a) -> Value {
           return tensors_of(linalg_solve_ex(a.tensor(0), a.tensor(1),
                                             a.kw_bool("left").value_or(true),
                                             a.kw_bool("check_errors").value_or(false)));
         }},
        {"linalg_cholesky_ex",
         [](const Args& a) -> Value {
           return tensors_of(linalg_cholesky_ex(a.tensor(0), a.kw_bool("upper").value_or(false),
                                                a.kw_bool("check_errors").value_or(false)));
         }},
        {"svd", svd_case},
    });

}  // namespace
}  // namespace brasa::conformance
