// torch.special in Python: brasa's C++ special functions (include/brasa/ops/special.h) bound into
// `brasa._C._special` with torch's names (the `special_` prefix dropped) and argument names;
// python/brasa/special.py re-exports them. Unary and binary functions come from tables, with out=.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "brasa/ops/special.h"
#include "composites.h"
#include "convert.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

using T = const Tensor&;
using OptTensor = std::optional<Tensor>;
using G = nb::gil_scoped_release;

using Unary = Tensor (*)(T);
using UnaryOut = Tensor& (*)(Tensor&, T);
#define BRASA_UNARY(name) \
  { #name, &special_##name, &special_##name##_out }

void bind_unary(nb::module_& m) {
  for (auto [name, f, f_out] : std::initializer_list<std::tuple<const char*, Unary, UnaryOut>>{
           BRASA_UNARY(i0),
           BRASA_UNARY(i0e),
           BRASA_UNARY(i1),
           BRASA_UNARY(i1e),
           BRASA_UNARY(ndtri),
           BRASA_UNARY(erfcx),
           BRASA_UNARY(ndtr),
           BRASA_UNARY(log_ndtr),
           BRASA_UNARY(entr),
           BRASA_UNARY(digamma),
           BRASA_UNARY(psi),
           BRASA_UNARY(gammaln),
           BRASA_UNARY(erf),
           BRASA_UNARY(erfc),
           BRASA_UNARY(erfinv),
           BRASA_UNARY(expm1),
           BRASA_UNARY(exp2),
           BRASA_UNARY(expit),
           BRASA_UNARY(log1p),
           BRASA_UNARY(sinc),
           BRASA_UNARY(modified_bessel_i0),
           BRASA_UNARY(modified_bessel_i1),
           BRASA_UNARY(spherical_bessel_j0),
           BRASA_UNARY(bessel_j0),
           BRASA_UNARY(bessel_j1),
           BRASA_UNARY(bessel_y0),
           BRASA_UNARY(bessel_y1),
           BRASA_UNARY(modified_bessel_k0),
           BRASA_UNARY(modified_bessel_k1),
           BRASA_UNARY(scaled_modified_bessel_k0),
           BRASA_UNARY(scaled_modified_bessel_k1),
           BRASA_UNARY(airy_ai)}) {
    def_unary_with_out(m, name, f, f_out);
  }
}
#undef BRASA_UNARY

/// A binary function whose operands may each be a number (torch's Scalar overloads).
struct Binary {
  const char* name;
  const char* arg0;
  const char* arg1;
  Tensor (*tt)(T, T);
  Tensor& (*tt_out)(Tensor&, T, T);
  Tensor (*ts)(T, const Scalar&);
  Tensor (*st)(const Scalar&, T);
};
#define BRASA_BINARY(name, a, b)                                      \
  Binary {                                                            \
#name, a, b, &special_##name, &special_##name##_out,              \
        static_cast < Tensor (*)(T, const Scalar&)>(&special_##name), \
        static_cast < Tensor (*)(const Scalar&, T)>(&special_##name)  \
  }

void bind_binary(nb::module_& m) {
  for (Binary b :
       {BRASA_BINARY(zeta, "input", "other"), BRASA_BINARY(xlog1py, "input", "other"),
        BRASA_BINARY(xlogy, "input", "other"), BRASA_BINARY(chebyshev_polynomial_t, "input", "n"),
        BRASA_BINARY(chebyshev_polynomial_u, "input", "n"),
        BRASA_BINARY(chebyshev_polynomial_v, "input", "n"),
        BRASA_BINARY(chebyshev_polynomial_w, "input", "n"),
        BRASA_BINARY(shifted_chebyshev_polynomial_t, "input", "n"),
        BRASA_BINARY(shifted_chebyshev_polynomial_u, "input", "n"),
        BRASA_BINARY(shifted_chebyshev_polynomial_v, "input", "n"),
        BRASA_BINARY(shifted_chebyshev_polynomial_w, "input", "n"),
        BRASA_BINARY(hermite_polynomial_h, "input", "n"),
        BRASA_BINARY(hermite_polynomial_he, "input", "n"),
        BRASA_BINARY(laguerre_polynomial_l, "input", "n"),
        BRASA_BINARY(legendre_polynomial_p, "input", "n")}) {
    m.def(
        b.name,
        [b](nb::handle x, nb::handle y, OptTensor out) {
          const bool tx = nb::isinstance<Tensor>(x), ty = nb::isinstance<Tensor>(y);
          if (tx && ty) {
            Tensor a = nb::cast<Tensor>(x), c = nb::cast<Tensor>(y);
            G g;
            if (out) return b.tt_out(*out, a, c);
            return b.tt(a, c);
          }
          BRASA_CHECK_TYPED(TypeError, !out, "special.", b.name,
                            ": out= needs two tensor operands");
          if (tx) {
            Tensor a = nb::cast<Tensor>(x);
            Scalar s = scalar_arg(y, b.name, b.arg1);
            G g;
            return b.ts(a, s);
          }
          Tensor c = nb::cast<Tensor>(y);
          Scalar s = scalar_arg(x, b.name, b.arg0);
          G g;
          return b.st(s, c);
        },
        nb::arg(b.arg0), nb::arg(b.arg1), nb::kw_only(), nb::arg("out").none() = nb::none());
  }
  for (const char* name : {"gammainc", "gammaincc"}) {
    const bool upper = std::string(name) == "gammaincc";
    m.def(
        name,
        [upper](T a, T b, std::optional<Tensor> out) {
          G g;
          if (out)
            return upper ? special_gammaincc_out(*out, a, b) : special_gammainc_out(*out, a, b);
          return upper ? special_gammaincc(a, b) : special_gammainc(a, b);
        },
        nb::arg("input"), nb::arg("other"), nb::kw_only(), nb::arg("out").none() = nb::none());
  }
}
#undef BRASA_BINARY

void bind_others(nb::module_& m) {
  m.def(
      "round",
      [](T a, int64_t decimals) {
        G g;
        return special_round(a, decimals);
      },
      nb::arg("input"), nb::kw_only(), nb::arg("decimals") = 0);
  m.def(
      "logit",
      [](T a, std::optional<double> eps, std::optional<Tensor> out) {
        G g;
        return out ? special_logit_out(*out, a, eps) : special_logit(a, eps);
      },
      nb::arg("input"), nb::arg("eps").none() = nb::none(), nb::kw_only(),
      nb::arg("out").none() = nb::none());
  m.def(
      "polygamma",
      [](int64_t n, T a) {
        G g;
        return special_polygamma(n, a);
      },
      nb::arg("n"), nb::arg("input"));
  m.def(
      "multigammaln",
      [](T a, int64_t p) {
        G g;
        return special_multigammaln(a, p);
      },
      nb::arg("input"), nb::arg("p"));
  for (const char* name : {"softmax", "log_softmax"}) {
    const bool log = name[0] == 'l';
    m.def(
        name,
        [log](T a, int64_t dim, std::optional<DType> dtype) {
          std::optional<ScalarType> dt = optional_scalar_type(dtype);
          G g;
          return log ? special_log_softmax(a, dim, dt) : special_softmax(a, dim, dt);
        },
        nb::arg("input"), nb::arg("dim"), nb::kw_only(), nb::arg("dtype").none() = nb::none());
  }
  m.def(
      "logsumexp",
      [](T a, nb::handle dim, bool keepdim) {
        std::vector<int64_t> d = *to_int_list(dim);
        G g;
        return special_logsumexp(a, d, keepdim);
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("keepdim") = false);
}

}  // namespace

void bind_special(nb::module_& parent) {
  nb::module_ m = parent.def_submodule("_special", "torch.special over brasa's C++ functions");
  bind_unary(m);
  bind_binary(m);
  bind_others(m);
}

}  // namespace brasa::python
