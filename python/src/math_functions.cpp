// torch's math functions that libbrasa has as C++ composites (include/brasa/ops/math.h, products.h,
// statistics.h, window.h, ...): Note [Composite functions in Python]. Unary and binary ones are
// bound from tables (with out=); the others one by one. Functions of brasa._ops;
// python/brasa/_composite_functions.py adds the Tensor methods.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "brasa/ops/attention.h"
#include "brasa/ops/complex.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/legacy_norms.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/math.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/products.h"
#include "brasa/ops/special.h"
#include "brasa/ops/statistics.h"
#include "brasa/ops/window.h"
#include "composites.h"
#include "convert.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

using T = const Tensor&;
using OptTensor = std::optional<Tensor>;
using G = nb::gil_scoped_release;

void bind_tables(nb::module_& m) {
  using Unary = Tensor (*)(T);
  using UnaryOut = Tensor& (*)(Tensor&, T);
  for (auto [name, f, f_out] :
       {std::tuple<const char*, Unary, UnaryOut>{"arccos", &arccos, &arccos_out},
        {"arcsin", &arcsin, &arcsin_out},
        {"arctan", &arctan, &arctan_out},
        {"fix", &fix, &fix_out},
        {"sgn", &sgn, &sgn_out},
        {"deg2rad", &deg2rad, &deg2rad_out},
        {"rad2deg", &rad2deg, &rad2deg_out},
        {"sinc", &sinc, &sinc_out},
        {"isneginf", &isneginf, &isneginf_out},
        {"isposinf", &isposinf, &isposinf_out}}) {
    def_unary_with_out(m, name, f, f_out);
  }
  for (auto [name, f] : {std::pair<const char*, Unary>{"positive", &positive},
                         {"isreal", &isreal},
                         {"real", &real},
                         {"imag", &imag},
                         {"conj", &conj},
                         {"angle", &angle}}) {
    m.def(
        name,
        [f](T a) {
          G g;
          return f(a);
        },
        nb::arg("input"));
  }
  using Binary = Tensor (*)(T, T);
  using BinaryOut = Tensor& (*)(Tensor&, T, T);
  using WithScalar = Tensor (*)(T, const Scalar&);
  struct Entry {
    const char* name;
    Binary f;
    BinaryOut f_out;
    WithScalar f_scalar;  // null: `other` must be a tensor
  };
  for (Entry e :
       {Entry{"arctan2", &arctan2, &arctan2_out, nullptr}, Entry{"fmax", &fmax, &fmax_out, nullptr},
        Entry{"fmin", &fmin, &fmin_out, nullptr}, Entry{"ldexp", &ldexp, &ldexp_out, nullptr},
        Entry{"logaddexp", &logaddexp, &logaddexp_out, nullptr},
        Entry{"logaddexp2", &logaddexp2, &logaddexp2_out, nullptr},
        Entry{"heaviside", &heaviside, &heaviside_out, nullptr},
        Entry{"greater_equal", &greater_equal, &greater_equal_out,
              static_cast<WithScalar>(&greater_equal)},
        Entry{"less_equal", &less_equal, &less_equal_out, static_cast<WithScalar>(&less_equal)},
        Entry{"not_equal", &not_equal, &not_equal_out, static_cast<WithScalar>(&not_equal)},
        Entry{"float_power", &float_power, &float_power_out, static_cast<WithScalar>(&float_power)},
        Entry{"xlogy", &xlogy, &xlogy_out, static_cast<WithScalar>(&xlogy)},
        Entry{"copysign", &copysign, &copysign_out, static_cast<WithScalar>(&copysign)}}) {
    const std::string name = e.name;
    m.def(
        e.name,
        [e, name](nb::handle a, nb::handle b, OptTensor out) {
          const bool ta = nb::isinstance<Tensor>(a), tb = nb::isinstance<Tensor>(b);
          if (ta && tb) {
            Tensor x = nb::cast<Tensor>(a), y = nb::cast<Tensor>(b);
            G g;
            if (out) return e.f_out(*out, x, y);
            return e.f(x, y);
          }
          if (ta && e.f_scalar && !out) {
            Tensor x = nb::cast<Tensor>(a);
            Scalar s = scalar_arg(b, e.name, "other");
            G g;
            return e.f_scalar(x, s);
          }
          if (tb && !out && (name == "float_power" || name == "xlogy")) {  // a number first
            Tensor y = nb::cast<Tensor>(b);
            Scalar s = scalar_arg(a, e.name, "input");
            G g;
            return name == "xlogy" ? xlogy(s, y) : float_power(s, y);
          }
          throw brasa::TypeError(name + "(): expected tensors (or a tensor and a number)");
        },
        nb::arg("input"), nb::arg("other"), nb::kw_only(), nb::arg("out").none() = nb::none());
  }
}

void bind_products(nb::module_& m) {
  using Binary = Tensor (*)(T, T);
  for (auto [name, f] : {std::pair<const char*, Binary>{"kron", &kron},
                         {"inner", &inner},
                         {"outer", &outer},
                         {"ger", &outer},
                         {"mv", &mv},
                         {"vdot", &vdot},
                         {"polar", &polar},
                         {"complex", &complex_from}}) {
    m.def(name, [f](T a, T b) {
      G g;
      return f(a, b);
    });
  }
  for (const char* name : {"addr", "addbmm"}) {
    const bool outer_form = name[3] == 'r';
    m.def(
        name,
        [outer_form](T self, T x, T y, nb::handle beta, nb::handle alpha) {
          Scalar b = scalar_arg(beta, "addr", "beta"), al = scalar_arg(alpha, "addr", "alpha");
          G g;
          return outer_form ? addr(self, x, y, b, al) : addbmm(self, x, y, b, al);
        },
        nb::arg("input"), nb::arg(outer_form ? "vec1" : "batch1"),
        nb::arg(outer_form ? "vec2" : "batch2"), nb::kw_only(), nb::arg("beta") = 1,
        nb::arg("alpha") = 1);
  }
  m.def("einsum", [](std::string equation, nb::args operands) {
    std::vector<Tensor> ts = operands.size() == 1 && !nb::isinstance<Tensor>(operands[0])
                                 ? nb::cast<std::vector<Tensor>>(operands[0])
                                 : nb::cast<std::vector<Tensor>>(operands);
    G g;
    return einsum(equation, ts);
  });
  m.def(
      "tensordot",
      [](T a, T b, nb::handle dims) {
        std::vector<int64_t> da, db;
        if (auto n = to_int(dims)) {  // the last n dims of a with the first n of b
          for (int64_t i = 0; i < *n; ++i) {
            da.push_back(a.dim() - *n + i);
            db.push_back(i);
          }
        } else {
          auto pair = nb::cast<std::vector<nb::object>>(dims);
          BRASA_CHECK(pair.size() == 2, "tensordot: dims must be an int or two lists of dims");
          da = *to_int_list(pair[0]);
          db = *to_int_list(pair[1]);
        }
        G g;
        return tensordot(a, b, da, db);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("dims") = 2);
  m.def(
      "matrix_power",
      [](T a, int64_t n) {
        G g;
        return matrix_power(a, n);
      },
      nb::arg("input"), nb::arg("n"));
  m.def("_pow_scalar_self", [](nb::handle s, T exponent) {  // pow(2, t)
    Scalar base = scalar_arg(s, "pow", "self");
    G g;
    return pow(base, exponent);
  });
  m.def(
      "_svd_legacy",  // torch.svd: V rather than Vh; some=False gives full U and V
      [](T a, bool some, bool compute_uv) {
        G g;
        return a.svd(some, compute_uv);
      },
      nb::arg("input"), nb::arg("some") = true, nb::arg("compute_uv") = true);
  m.def("chain_matmul", [](nb::args ms) {
    std::vector<Tensor> ts = nb::cast<std::vector<Tensor>>(ms);
    G g;
    return chain_matmul(ts);
  });
}

void bind_others(nb::module_& m) {
  m.def(
      "polygamma",
      [](int64_t n, T a, OptTensor out) {
        G g;
        return out ? polygamma_out(*out, n, a) : polygamma(n, a);
      },
      nb::arg("n"), nb::arg("input"), nb::kw_only(), nb::arg("out").none() = nb::none());
  m.def(
      "mvlgamma",
      [](T a, int64_t p, OptTensor out) {
        G g;
        return out ? mvlgamma_out(*out, a, p) : mvlgamma(a, p);
      },
      nb::arg("input"), nb::arg("p"), nb::kw_only(), nb::arg("out").none() = nb::none());
  m.def(
      "isclose",
      [](T a, T b, double rtol, double atol, bool equal_nan) {
        G g;
        return isclose(a, b, rtol, atol, equal_nan);
      },
      nb::arg("input"), nb::arg("other"), nb::arg("rtol") = 1e-05, nb::arg("atol") = 1e-08,
      nb::arg("equal_nan") = false);
  m.def(
      "isin",
      [](nb::handle elements, nb::handle test, bool assume_unique, bool invert) {
        const bool te = nb::isinstance<Tensor>(elements), tt = nb::isinstance<Tensor>(test);
        if (te && tt) {
          Tensor e = nb::cast<Tensor>(elements), t = nb::cast<Tensor>(test);
          G g;
          return isin(e, t, assume_unique, invert);
        }
        if (te) {
          Tensor e = nb::cast<Tensor>(elements);
          Scalar s = scalar_arg(test, "isin", "test_elements");
          G g;
          return isin(e, s, assume_unique, invert);
        }
        Tensor t = nb::cast<Tensor>(test);
        Scalar s = scalar_arg(elements, "isin", "elements");
        G g;
        return isin(s, t, assume_unique, invert);
      },
      nb::arg("elements"), nb::arg("test_elements"), nb::kw_only(),
      nb::arg("assume_unique") = false, nb::arg("invert") = false);
  m.def(
      "renorm",
      [](T a, nb::handle p, int64_t dim, nb::handle maxnorm, OptTensor out) {
        Scalar ps = scalar_arg(p, "renorm", "p"), mx = scalar_arg(maxnorm, "renorm", "maxnorm");
        G g;
        return out ? renorm_out(*out, a, ps, dim, mx) : renorm(a, ps, dim, mx);
      },
      nb::arg("input"), nb::arg("p"), nb::arg("dim"), nb::arg("maxnorm"), nb::kw_only(),
      nb::arg("out").none() = nb::none());
  m.def(
      "cdist",
      [](T x1, T x2, double p, std::optional<std::string> mode) {
        std::optional<int64_t> cm;  // torch's compute_mode names, as aten's integer codes
        if (mode && *mode == "use_mm_for_euclid_dist_if_necessary") cm = 0;
        if (mode && *mode == "use_mm_for_euclid_dist") cm = 1;
        if (mode && *mode == "donot_use_mm_for_euclid_dist") cm = 2;
        G g;
        return cdist(x1, x2, p, cm);
      },
      nb::arg("x1"), nb::arg("x2"), nb::arg("p") = 2.0,
      nb::arg("compute_mode").none() = nb::none());
  m.def(
      "frobenius_norm",
      [](T a, std::optional<std::vector<int64_t>> dim, bool keepdim) {
        G g;
        return dim ? frobenius_norm(a, *dim, keepdim) : frobenius_norm(a);
      },
      nb::arg("input"), nb::arg("dim").none() = nb::none(), nb::arg("keepdim") = false);
  m.def(
      "logit",
      [](T a, std::optional<double> eps, OptTensor out) {
        G g;
        return out ? logit_out(*out, a, eps) : logit(a, eps);
      },
      nb::arg("input"), nb::arg("eps").none() = nb::none(), nb::kw_only(),
      nb::arg("out").none() = nb::none());
  // self + value * tensor1 (/ or *) tensor2, and in place.
  for (const char* name : {"addcdiv", "addcmul"}) {
    const bool div = std::string(name) == "addcdiv";
    m.def(
        name,
        [div, name](T a, T t1, T t2, nb::handle value, OptTensor out) {
          Scalar v = scalar_arg(value, name, "value");
          G g;
          if (out) return div ? addcdiv_out(*out, a, t1, t2, v) : addcmul_out(*out, a, t1, t2, v);
          return div ? addcdiv(a, t1, t2, v) : addcmul(a, t1, t2, v);
        },
        nb::arg("input"), nb::arg("tensor1"), nb::arg("tensor2"), nb::kw_only(),
        nb::arg("value") = 1, nb::arg("out").none() = nb::none());
    m.def(
        div ? "addcdiv_" : "addcmul_",
        [div, name](T a, T t1, T t2, nb::handle value) {
          Scalar v = scalar_arg(value, name, "value");
          G g;
          return div ? a.addcdiv_(t1, t2, v) : a.addcmul_(t1, t2, v);
        },
        nb::arg("input"), nb::arg("tensor1"), nb::arg("tensor2"), nb::kw_only(),
        nb::arg("value") = 1);
  }
  for (const char* name : {"trapezoid", "trapz", "cumulative_trapezoid"}) {
    const bool cumulative = name[0] == 'c';
    m.def(
        name,
        [cumulative](T y, nb::handle x, nb::handle dx, int64_t dim) {
          if (!x.is_none()) {
            if (nb::isinstance<Tensor>(x)) {
              Tensor xt = nb::cast<Tensor>(x);
              G g;
              return cumulative ? cumulative_trapezoid(y, xt, dim) : trapezoid(y, xt, dim);
            }
            dx = x;  // trapezoid(y, 0.5): a spacing given positionally
          }
          Scalar d = dx.is_none() ? Scalar(1) : scalar_arg(dx, "trapezoid", "dx");
          G g;
          return cumulative ? cumulative_trapezoid(y, d, dim) : trapezoid(y, d, dim);
        },
        nb::arg("y"), nb::arg("x").none() = nb::none(), nb::kw_only(),
        nb::arg("dx").none() = nb::none(), nb::arg("dim") = -1);
  }
}

void bind_factories(nb::module_& m) {
  m.def(
      "_window",
      [](const std::string& kind, int64_t n, bool periodic, double a, double b,
         std::optional<DType> dtype) {
        TensorOptions o = dtype_options(dtype);
        G g;
        if (kind == "hann") return hann_window(n, periodic, o);
        if (kind == "hamming") return hamming_window(n, periodic, a, b, o);
        if (kind == "blackman") return blackman_window(n, periodic, o);
        if (kind == "bartlett") return bartlett_window(n, periodic, o);
        return kaiser_window(n, periodic, a, o);
      },
      nb::arg("kind"), nb::arg("window_length"), nb::arg("periodic"), nb::arg("a"), nb::arg("b"),
      nb::arg("dtype").none());
  m.def(
      "_scalar_tensor",
      [](nb::handle s, std::optional<DType> dtype) {
        Scalar v = scalar_arg(s, "scalar_tensor", "s");
        return scalar_tensor(v, dtype_options(dtype));
      },
      nb::arg("s"), nb::arg("dtype").none());
}

}  // namespace

void bind_math_functions(nb::module_& m) {
  bind_tables(m);
  bind_products(m);
  bind_others(m);
  bind_factories(m);
}

}  // namespace brasa::python
