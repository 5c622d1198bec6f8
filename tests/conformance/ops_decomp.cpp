// Op map of the matrix functions on LAPACK (cases_decomp.py). qr, svd and eigh return the
// sign-free quantities the Python side computes (reconstructions, |factors|, values).

#include "brasa/ops/linalg.h"
#include "brasa/ops/linalg_decomp.h"
#include "brasa/ops/linalg_lu.h"
#include "brasa/ops/pointwise.h"
#include "registry.h"

namespace brasa::conformance {
namespace {

std::optional<std::string> opt_str(const Args& a, const char* name) {
  const Value* v = a.kwarg(name);
  if (!v || v->tag == Tag::None) return std::nullopt;
  return a.kw_str(name);
}

OptionalIntArrayRef opt_dims(const std::optional<std::vector<int64_t>>& d) {
  return d ? OptionalIntArrayRef(IntArrayRef(*d)) : std::nullopt;
}

// A batch of matrices times a batch of diagonals on the right: m @ diag(d).
Tensor scale_columns(const Tensor& m, const Tensor& d) { return m * d.unsqueeze(-2); }

Value qr(const Args& a) {
  const std::string mode = opt_str(a, "mode").value_or("reduced");
  auto [q, r] = linalg::qr(a.tensor(0), mode);
  if (mode == "r") return abs(r);
  return Value::of_tensors({matmul(q, r), abs(r), abs(q)});
}

Value svd(const Args& a) {
  auto [u, s, vh] = linalg::svd(a.tensor(0), a.kw_bool("full_matrices").value_or(false));
  const int64_t k = s.size(-1);
  const Tensor uk = u.narrow(-1, 0, k), vhk = vh.narrow(-2, 0, k);
  return Value::of_tensors({matmul(scale_columns(uk, s), vhk), s, abs(uk), abs(vhk)});
}

Value eigh(const Args& a) {
  auto [w, v] = linalg::eigh(a.tensor(0), opt_str(a, "UPLO").value_or("L"));
  return Value::of_tensors({w, abs(v), matmul(scale_columns(v, w), v.transpose(-2, -1))});
}

Value matrix_norm(const Args& a) {
  const Value* ord = a.kwarg("ord");
  const auto dims = a.kw_ints("dim").value_or(std::vector<int64_t>{-2, -1});
  const bool keepdim = a.kw_bool("keepdim").value_or(false);
  if (ord && ord->tag == Tag::Str)
    return linalg::matrix_norm(a.tensor(0), ord->s, dims, keepdim, {});
  return linalg::matrix_norm(a.tensor(0), a.kw_scalar("ord").value_or(Scalar(2)), dims, keepdim,
                             {});
}

Value norm(const Args& a) {
  const Value* ord = a.kwarg("ord");
  const auto dims = a.kw_ints("dim");
  const bool keepdim = a.kw_bool("keepdim").value_or(false);
  if (ord && ord->tag == Tag::Str)
    return linalg::norm(a.tensor(0), std::string_view(ord->s), opt_dims(dims), keepdim, {});
  return linalg::norm(a.tensor(0), a.kw_scalar("ord"), opt_dims(dims), keepdim, {});
}

Value lstsq(const Args& a) {
  auto [x, res, rank, sv] =
      linalg::lstsq(a.tensor(0), a.tensor(1), std::nullopt, opt_str(a, "driver"));
  return Value::of_tensors({x, res, rank, sv});
}

const OpTable kDecomp(
    "decomp",
    {
        {"linalg_inv", [](const Args& a) -> Value { return linalg::inv(a.tensor(0)); }},
        {"linalg_solve",
         [](const Args& a) -> Value {
           return linalg::solve(a.tensor(0), a.tensor(1), a.kw_bool("left").value_or(true));
         }},
        {"linalg_det", [](const Args& a) -> Value { return linalg::det(a.tensor(0)); }},
        {"linalg_slogdet",
         [](const Args& a) -> Value {
           auto [sign, logabs] = linalg::slogdet(a.tensor(0));
           return Value::of_tensors({sign, logabs});
         }},
        {"linalg_cholesky",
         [](const Args& a) -> Value {
           return linalg_cholesky(a.tensor(0), a.kw_bool("upper").value_or(false));
         }},
        {"linalg_qr", qr},
        {"linalg_svd", svd},
        {"linalg_svdvals", [](const Args& a) -> Value { return linalg::svdvals(a.tensor(0)); }},
        {"linalg_eigh", eigh},
        {"linalg_eig",
         [](const Args& a) -> Value {
           auto [w, v] = linalg::eig(a.tensor(0));
           return Value::of_tensors({w, abs(v)});
         }},
        {"linalg_eig_raw",
         [](const Args& a) -> Value {
           auto [w, v] = linalg_eig(a.tensor(0));
           return Value::of_tensors({w, v});
         }},
        {"linalg_eigvals", [](const Args& a) -> Value { return linalg::eigvals(a.tensor(0)); }},
        {"linalg_ldl_factor",
         [](const Args& a) -> Value {
           auto [ld, piv] = linalg::ldl_factor(a.tensor(0), a.kw_bool("hermitian").value_or(false));
           return Value::of_tensors({ld, piv});
         }},
        {"linalg_ldl_factor_ex",
         [](const Args& a) -> Value {
           auto [ld, piv, info] = linalg_ldl_factor_ex(a.tensor(0));
           return Value::of_tensors({ld, piv, info});
         }},
        {"linalg_ldl_solve",
         [](const Args& a) -> Value {
           return linalg::ldl_solve(a.tensor(0), a.tensor(1), a.tensor(2));
         }},
        {"linalg_eigvalsh", [](const Args& a) -> Value { return linalg::eigvalsh(a.tensor(0)); }},
        {"linalg_lstsq", lstsq},
        {"linalg_lstsq_solution",
         [](const Args& a) -> Value {
           return std::get<0>(
               linalg::lstsq(a.tensor(0), a.tensor(1), std::nullopt, opt_str(a, "driver")));
         }},
        {"linalg_pinv",
         [](const Args& a) -> Value {
           return linalg_pinv(a.tensor(0), std::nullopt, std::nullopt,
                              a.kw_bool("hermitian").value_or(false));
         }},
        {"linalg_vector_norm",
         [](const Args& a) -> Value {
           return linalg::vector_norm(a.tensor(0), a.kw_scalar("ord").value_or(Scalar(2)),
                                      opt_dims(a.kw_ints("dim")),
                                      a.kw_bool("keepdim").value_or(false), {});
         }},
        {"linalg_matrix_norm", matrix_norm},
        {"linalg_norm", norm},
    });

}  // namespace
}  // namespace brasa::conformance
