// Op map of the math family (cases_mathops.py): the free functions of brasa/ops/math.h, special.h
// and statistics.h, called as a libtorch program calls at::NAME.

#include <tuple>

#include "brasa/ops/math.h"
#include "brasa/ops/special.h"
#include "brasa/ops/statistics.h"
#include "registry.h"

namespace brasa::conformance {
namespace {

bool keepdim(const Args& a) { return a.kw_bool("keepdim").value_or(false); }
std::optional<Tensor> kw_optional_tensor(const Args& a, std::string_view name) {
  return a.has(name) ? std::optional<Tensor>(a.kw_tensor(name)) : std::nullopt;
}

// ---- pointwise ----
template <Tensor (*fn)(const Tensor&)>
Value unary(const Args& a) {
  return fn(a.tensor(0));
}
template <Tensor& (*fn)(Tensor&, const Tensor&)>
Value unary_out(const Args& a) {
  Tensor out = a.kw_tensor("out");
  return same_tensor(out, fn(out, a.tensor(0)), "out");
}
template <Tensor (*fn)(const Tensor&, const Tensor&)>
Value binary(const Args& a) {
  return fn(a.tensor(0), a.tensor(1));
}
template <Tensor (*fn)(const Tensor&, const Tensor&),
          Tensor (*scalar_fn)(const Tensor&, const Scalar&)>
Value binary_or_scalar(const Args& a) {
  return a.is_tensor(1) ? fn(a.tensor(0), a.tensor(1)) : scalar_fn(a.tensor(0), a.scalar(1));
}
template <Tensor (*fn)(const Scalar&, const Tensor&)>
Value scalar_self(const Args& a) {
  return fn(a.scalar(0), a.tensor(1));
}
template <Tensor& (*fn)(Tensor&, const Tensor&, const Tensor&)>
Value binary_out(const Args& a) {
  Tensor out = a.kw_tensor("out");
  return same_tensor(out, fn(out, a.tensor(0), a.tensor(1)), "out");
}
template <Tensor (*fn)(const Tensor&, const Tensor&, const Tensor&, const Scalar&)>
Value ternary(const Args& a) {
  return fn(a.tensor(0), a.tensor(1), a.tensor(2), a.kw_scalar("value").value_or(1));
}
template <Tensor& (*fn)(Tensor&, const Tensor&, const Tensor&, const Tensor&, const Scalar&)>
Value ternary_out(const Args& a) {
  Tensor out = a.kw_tensor("out");
  return same_tensor(
      out, fn(out, a.tensor(0), a.tensor(1), a.tensor(2), a.kw_scalar("value").value_or(1)), "out");
}

// The unary ops with a functional and an out= form.
#define BRASA_UNARY_ENTRIES(name) \
  {#name, unary<name>}, { #name "_out", unary_out < name##_out> }
// Binary ops with Tensor/Scalar other and an out= form.
#define BRASA_BINARY_ENTRIES(name)                       \
  {#name, binary_or_scalar<brasa::name, brasa::name>}, { \
#name "_out", binary_out < brasa::name##_out>        \
  }
#define BRASA_TENSOR_BINARY_ENTRIES(name) \
  {#name, binary<brasa::name>}, { #name "_out", binary_out < brasa::name##_out> }

const OpTable kPointwise(
    "mathops",
    {
        BRASA_UNARY_ENTRIES(arccos),
        {"arcsin", unary<arcsin>},
        {"arctan", unary<arctan>},
        {"arccosh", unary<arccosh>},
        BRASA_UNARY_ENTRIES(arcsinh),
        {"arctanh", unary<arctanh>},
        {"acosh", unary<acosh>},
        {"asinh", unary<asinh>},
        {"atanh", unary<atanh>},
        BRASA_UNARY_ENTRIES(fix),
        BRASA_UNARY_ENTRIES(sgn),
        BRASA_UNARY_ENTRIES(deg2rad),
        {"rad2deg", unary<rad2deg>},
        BRASA_UNARY_ENTRIES(sinc),
        BRASA_UNARY_ENTRIES(erfc),
        BRASA_UNARY_ENTRIES(lgamma),
        BRASA_UNARY_ENTRIES(digamma),
        BRASA_UNARY_ENTRIES(i0),
        BRASA_UNARY_ENTRIES(special_i0e),
        BRASA_UNARY_ENTRIES(special_i1),
        BRASA_UNARY_ENTRIES(special_i1e),
        BRASA_UNARY_ENTRIES(special_ndtri),
        BRASA_UNARY_ENTRIES(special_erfcx),
        BRASA_UNARY_ENTRIES(special_ndtr),
        BRASA_UNARY_ENTRIES(special_log_ndtr),
        BRASA_UNARY_ENTRIES(special_entr),
        {"special_expit", unary<special_expit>},
        {"special_exp2", unary<special_exp2>},
        {"special_expm1", unary<special_expm1>},
        {"special_log1p", unary<special_log1p>},
        {"special_erf", unary<special_erf>},
        {"special_erfc", unary<special_erfc>},
        {"special_erfinv", unary<special_erfinv>},
        {"special_gammaln", unary<special_gammaln>},
        {"special_digamma", unary<special_digamma>},
        {"special_psi", unary<special_psi>},
        {"special_i0", unary<special_i0>},
        {"special_sinc", unary<special_sinc>},
        BRASA_UNARY_ENTRIES(signbit),
        BRASA_UNARY_ENTRIES(isneginf),
        {"isposinf", unary<isposinf>},
        {"isreal", unary<isreal>},
        {"positive", unary<positive>},
        {"special_round",
         [](const Args& a) -> Value {
           return special_round(a.tensor(0), a.kw_int("decimals").value_or(0));
         }},
        {"logit", [](const Args& a) -> Value { return logit(a.tensor(0), a.kw_real("eps")); }},
        {"logit_out",
         [](const Args& a) -> Value {
           Tensor out = a.kw_tensor("out");
           return same_tensor(out, logit_out(out, a.tensor(0), a.kw_real("eps")), "logit_out");
         }},
        {"special_logit",
         [](const Args& a) -> Value { return special_logit(a.tensor(0), a.kw_real("eps")); }},

        BRASA_BINARY_ENTRIES(greater_equal),
        BRASA_BINARY_ENTRIES(less_equal),
        BRASA_BINARY_ENTRIES(not_equal),
        BRASA_TENSOR_BINARY_ENTRIES(arctan2),
        BRASA_BINARY_ENTRIES(float_power),
        {"float_power_scalar_self", scalar_self<float_power>},
        BRASA_TENSOR_BINARY_ENTRIES(fmax),
        BRASA_TENSOR_BINARY_ENTRIES(fmin),
        BRASA_TENSOR_BINARY_ENTRIES(ldexp),
        BRASA_TENSOR_BINARY_ENTRIES(logaddexp),
        BRASA_TENSOR_BINARY_ENTRIES(logaddexp2),
        BRASA_BINARY_ENTRIES(xlogy),
        {"xlogy_scalar_self", scalar_self<xlogy>},
        BRASA_BINARY_ENTRIES(special_xlogy),
        BRASA_BINARY_ENTRIES(special_xlog1py),
        BRASA_BINARY_ENTRIES(copysign),
        BRASA_TENSOR_BINARY_ENTRIES(heaviside),
        BRASA_TENSOR_BINARY_ENTRIES(igamma),
        BRASA_TENSOR_BINARY_ENTRIES(igammac),
        BRASA_TENSOR_BINARY_ENTRIES(special_gammainc),
        BRASA_TENSOR_BINARY_ENTRIES(special_gammaincc),
        BRASA_BINARY_ENTRIES(special_zeta),
        {"special_zeta_scalar_self", scalar_self<special_zeta>},
        {"isclose",
         [](const Args& a) -> Value {
           return isclose(a.tensor(0), a.tensor(1), a.kw_real("rtol").value_or(1e-5),
                          a.kw_real("atol").value_or(1e-8), a.kw_bool("equal_nan").value_or(false));
         }},
        {"isin",
         [](const Args& a) -> Value {
           return isin(a.tensor(0), a.tensor(1), a.kw_bool("assume_unique").value_or(false),
                       a.kw_bool("invert").value_or(false));
         }},
        {"isin_scalar", [](const Args& a) -> Value { return isin(a.tensor(0), a.scalar(1)); }},
        {"addcdiv", ternary<addcdiv>},
        {"addcdiv_out", ternary_out<addcdiv_out>},
        {"addcmul", ternary<addcmul>},
        {"addcmul_out", ternary_out<addcmul_out>},
        {"polygamma", [](const Args& a) -> Value { return polygamma(a.integer(0), a.tensor(1)); }},
        {"special_polygamma",
         [](const Args& a) -> Value { return special_polygamma(a.integer(0), a.tensor(1)); }},
        {"mvlgamma", [](const Args& a) -> Value { return mvlgamma(a.tensor(0), a.integer(1)); }},
        {"special_multigammaln",
         [](const Args& a) -> Value { return special_multigammaln(a.tensor(0), a.integer(1)); }},
    });

// Integral ops, nextafter, frexp, the polynomials (x, n) and the Bessel aliases.
#define BRASA_POLYNOMIAL_ENTRIES(name)                 \
  {#name, binary_or_scalar<brasa::name, brasa::name>}, \
      {#name "_scalar_x", scalar_self<brasa::name>}, { \
#name "_out", binary_out < brasa::name##_out>      \
  }
const OpTable kIntegralAndPolynomials(
    "mathops_polynomials",
    {
        BRASA_TENSOR_BINARY_ENTRIES(gcd),
        BRASA_TENSOR_BINARY_ENTRIES(lcm),
        BRASA_BINARY_ENTRIES(bitwise_left_shift),
        BRASA_BINARY_ENTRIES(bitwise_right_shift),
        BRASA_TENSOR_BINARY_ENTRIES(nextafter),
        {"frexp", [](const Args& a) -> Value { return pair(frexp(a.tensor(0))); }},
        BRASA_POLYNOMIAL_ENTRIES(special_chebyshev_polynomial_t),
        BRASA_POLYNOMIAL_ENTRIES(special_chebyshev_polynomial_u),
        BRASA_POLYNOMIAL_ENTRIES(special_chebyshev_polynomial_v),
        BRASA_POLYNOMIAL_ENTRIES(special_chebyshev_polynomial_w),
        BRASA_POLYNOMIAL_ENTRIES(special_shifted_chebyshev_polynomial_t),
        BRASA_POLYNOMIAL_ENTRIES(special_shifted_chebyshev_polynomial_u),
        BRASA_POLYNOMIAL_ENTRIES(special_shifted_chebyshev_polynomial_v),
        BRASA_POLYNOMIAL_ENTRIES(special_shifted_chebyshev_polynomial_w),
        BRASA_POLYNOMIAL_ENTRIES(special_hermite_polynomial_h),
        BRASA_POLYNOMIAL_ENTRIES(special_hermite_polynomial_he),
        BRASA_POLYNOMIAL_ENTRIES(special_laguerre_polynomial_l),
        BRASA_POLYNOMIAL_ENTRIES(special_legendre_polynomial_p),
        {"special_modified_bessel_i0", unary<special_modified_bessel_i0>},
        {"special_modified_bessel_i1", unary<special_modified_bessel_i1>},
        {"special_spherical_bessel_j0", unary<special_spherical_bessel_j0>},
        BRASA_UNARY_ENTRIES(special_bessel_j0),
        BRASA_UNARY_ENTRIES(special_bessel_j1),
        BRASA_UNARY_ENTRIES(special_bessel_y0),
        BRASA_UNARY_ENTRIES(special_bessel_y1),
        BRASA_UNARY_ENTRIES(special_modified_bessel_k0),
        BRASA_UNARY_ENTRIES(special_modified_bessel_k1),
        BRASA_UNARY_ENTRIES(special_scaled_modified_bessel_k0),
        BRASA_UNARY_ENTRIES(special_scaled_modified_bessel_k1),
        BRASA_UNARY_ENTRIES(special_airy_ai),
    });

#undef BRASA_POLYNOMIAL_ENTRIES
#undef BRASA_UNARY_ENTRIES
#undef BRASA_BINARY_ENTRIES
#undef BRASA_TENSOR_BINARY_ENTRIES

// ---- reductions and statistics ----
template <
    Tensor (*fn)(const Tensor&, const Tensor&, std::optional<int64_t>, bool, std::string_view),
    Tensor (*scalar_fn)(const Tensor&, double, std::optional<int64_t>, bool, std::string_view)>
Value quantile_fn(const Args& a) {
  const std::string interpolation = a.kw_str("interpolation").value_or("linear");
  return a.is_tensor(1)
             ? fn(a.tensor(0), a.tensor(1), a.kw_int("dim"), keepdim(a), interpolation)
             : scalar_fn(a.tensor(0), a.real(1), a.kw_int("dim"), keepdim(a), interpolation);
}
template <std::tuple<Tensor, Tensor> (*fn)(const Tensor&, OptionalIntArrayRef,
                                           std::optional<int64_t>, bool),
          std::tuple<Tensor, Tensor> (*all_fn)(const Tensor&, bool)>
Value moments(const Args& a) {
  const auto dims = a.kw_ints("dim");
  const bool unbiased = a.kw_bool("unbiased").value_or(true);
  if (!dims && !a.has("correction") && !a.has("keepdim"))
    return pair(all_fn(a.tensor(0), unbiased));
  const std::optional<int64_t> correction =
      a.has("correction") ? a.kw_int("correction") : std::optional<int64_t>(unbiased ? 1 : 0);
  return pair(
      fn(a.tensor(0), dims ? OptionalIntArrayRef(*dims) : std::nullopt, correction, keepdim(a)));
}
template <Tensor (*fn)(const Tensor&, OptionalIntArrayRef, bool, std::optional<ScalarType>)>
Value nan_reduction(const Args& a) {
  const auto dims = a.kw_ints("dim");
  return fn(a.tensor(0), dims ? OptionalIntArrayRef(*dims) : std::nullopt, keepdim(a),
            a.kw_dtype("dtype"));
}
template <Tensor (*fn)(const Tensor&, const Tensor&, int64_t),
          Tensor (*dx_fn)(const Tensor&, const Scalar&, int64_t)>
Value trapezoid_fn(const Args& a) {
  const int64_t dim = a.kw_int("dim").value_or(-1);
  return a.size() > 1 ? fn(a.tensor(0), a.tensor(1), dim)
                      : dx_fn(a.tensor(0), a.kw_scalar("dx").value_or(1), dim);
}
Tensor trapz_dx(const Tensor& y, const Scalar& dx, int64_t dim) {
  return trapz(y, dx.toDouble(), dim);
}
Tensor trapz_x(const Tensor& y, const Tensor& x, int64_t dim) { return trapz(y, x, dim); }
Tensor trapezoid_x(const Tensor& y, const Tensor& x, int64_t dim) { return trapezoid(y, x, dim); }
Tensor trapezoid_dx(const Tensor& y, const Scalar& dx, int64_t dim) {
  return trapezoid(y, dx, dim);
}
Tensor cumulative_x(const Tensor& y, const Tensor& x, int64_t dim) {
  return cumulative_trapezoid(y, x, dim);
}
Tensor cumulative_dx(const Tensor& y, const Scalar& dx, int64_t dim) {
  return cumulative_trapezoid(y, dx, dim);
}

// gradient's spacing keyword: a number, a list of numbers or a list of tensors; dim: int or list.
Value gradient_fn(const Args& a) {
  const int64_t edge = a.kw_int("edge_order").value_or(1);
  const Value* sp = a.kwarg("spacing");
  const Value* dv = a.kwarg("dim");
  std::optional<std::vector<int64_t>> dims;
  std::optional<int64_t> dim;
  if (dv && dv->tag == Tag::List) {
    dims.emplace();
    for (const Value& v : dv->list) dims->push_back(v.i);
  } else if (dv && dv->tag == Tag::Int) {
    dim = dv->i;
  }
  auto number = [](const Value& v) { return v.tag == Tag::Int ? Scalar(v.i) : Scalar(v.f); };
  if (!sp || sp->tag != Tag::List) {
    std::optional<Scalar> step;
    if (sp && sp->tag != Tag::None) step = number(*sp);
    if (dims) return Value::of_tensors(gradient(a.tensor(0), step.value_or(1), *dims, edge));
    return Value::of_tensors(gradient(a.tensor(0), step, dim, edge));
  }
  if (!sp->list.empty() && sp->list[0].tag == Tag::Tensor) {
    std::vector<Tensor> coords;
    for (const Value& v : sp->list) coords.push_back(v.tensor);
    if (dims) return Value::of_tensors(gradient(a.tensor(0), TensorList(coords), *dims, edge));
    return Value::of_tensors(gradient(a.tensor(0), TensorList(coords), dim, edge));
  }
  std::vector<Scalar> steps;
  for (const Value& v : sp->list) steps.push_back(number(v));
  if (dims) return Value::of_tensors(gradient(a.tensor(0), ArrayRef<Scalar>(steps), *dims, edge));
  return Value::of_tensors(gradient(a.tensor(0), ArrayRef<Scalar>(steps), dim, edge));
}

Value histogramdd_fn(const Args& a) {
  std::vector<double> range;
  if (const Value* r = a.kwarg("range"))
    for (const Value& v : r->list) range.push_back(v.tag == Tag::Int ? double(v.i) : v.f);
  const OptionalArrayRef<double> rng =
      range.empty() ? std::nullopt : OptionalArrayRef<double>(range);
  const std::optional<Tensor> w = kw_optional_tensor(a, "weight");
  const bool density = a.kw_bool("density").value_or(false);
  const Value* b = a.kwarg("bins");
  std::tuple<Tensor, std::vector<Tensor>> r;
  if (b && b->tag == Tag::List && !b->list.empty() && b->list[0].tag == Tag::Tensor) {
    std::vector<Tensor> edges;
    for (const Value& v : b->list) edges.push_back(v.tensor);
    r = histogramdd(a.tensor(0), TensorList(edges), rng, w, density);
  } else if (b && b->tag == Tag::List) {
    std::vector<int64_t> bins;
    for (const Value& v : b->list) bins.push_back(v.i);
    r = histogramdd(a.tensor(0), IntArrayRef(bins), rng, w, density);
  } else {
    r = histogramdd(a.tensor(0), b ? b->i : 10, rng, w, density);
  }
  return Value::of_list({Value(std::get<0>(r)), Value::of_tensors(std::get<1>(r))});
}

Value segment_reduce_fn(const Args& a) {
  const std::optional<Scalar> initial = a.kw_scalar("initial");
  return segment_reduce(a.tensor(0), a.at(1).s, kw_optional_tensor(a, "lengths"),
                        kw_optional_tensor(a, "indices"), kw_optional_tensor(a, "offsets"),
                        a.kw_int("axis").value_or(0), a.kw_bool("unsafe").value_or(false), initial);
}

const OpTable kStatistics(
    "mathops_statistics",
    {
        {"median", [](const Args& a) -> Value { return median(a.tensor(0)); }},
        {"nanmedian", [](const Args& a) -> Value { return nanmedian(a.tensor(0)); }},
        {"median_dim",
         [](const Args& a) -> Value {
           return pair(median(a.tensor(0), *a.kw_int("dim"), keepdim(a)));
         }},
        {"nanmedian_dim",
         [](const Args& a) -> Value {
           return pair(nanmedian(a.tensor(0), *a.kw_int("dim"), keepdim(a)));
         }},
        {"median_out",
         [](const Args& a) -> Value {
           Tensor v = a.tensor(1), i = a.tensor(2);
           median_out(v, i, a.tensor(0), 1);
           return Value::of_tensors({v, i});
         }},
        {"kthvalue",
         [](const Args& a) -> Value {
           return pair(
               kthvalue(a.tensor(0), a.integer(1), a.kw_int("dim").value_or(-1), keepdim(a)));
         }},
        {"kthvalue_out",
         [](const Args& a) -> Value {
           Tensor v = a.tensor(1), i = a.tensor(2);
           kthvalue_out(v, i, a.tensor(0), 3, 0);
           return Value::of_tensors({v, i});
         }},
        {"mode",
         [](const Args& a) -> Value {
           return pair(mode(a.tensor(0), a.kw_int("dim").value_or(-1), keepdim(a)));
         }},
        {"cummax",
         [](const Args& a) -> Value { return pair(cummax(a.tensor(0), *a.kw_int("dim"))); }},
        {"cummin",
         [](const Args& a) -> Value { return pair(cummin(a.tensor(0), *a.kw_int("dim"))); }},
        {"logcumsumexp",
         [](const Args& a) -> Value { return logcumsumexp(a.tensor(0), *a.kw_int("dim")); }},
        {"quantile", quantile_fn<quantile, quantile>},
        {"nanquantile", quantile_fn<nanquantile, nanquantile>},
        {"nansum", nan_reduction<nansum>},
        {"nanmean", nan_reduction<nanmean>},
        {"aminmax",
         [](const Args& a) -> Value {
           return pair(aminmax(a.tensor(0), a.kw_int("dim"), keepdim(a)));
         }},
        {"var_mean", moments<var_mean, var_mean>},
        {"std_mean", moments<std_mean, std_mean>},
        {"histc",
         [](const Args& a) -> Value {
           return histc(a.tensor(0), a.kw_int("bins").value_or(100), a.kw_scalar("min").value_or(0),
                        a.kw_scalar("max").value_or(0));
         }},
        {"histogram",
         [](const Args& a) -> Value {
           std::vector<double> range;
           if (const Value* r = a.kwarg("range"))
             for (const Value& v : r->list) range.push_back(v.tag == Tag::Int ? double(v.i) : v.f);
           return pair(histogram(a.tensor(0), a.kw_int("bins").value_or(100),
                                 range.empty() ? std::nullopt : OptionalArrayRef<double>(range),
                                 kw_optional_tensor(a, "weight"),
                                 a.kw_bool("density").value_or(false)));
         }},
        {"histogram_edges",
         [](const Args& a) -> Value {
           return pair(histogram(a.tensor(0), a.tensor(1), kw_optional_tensor(a, "weight"),
                                 a.kw_bool("density").value_or(false)));
         }},
        {"gradient", gradient_fn},
        {"histogramdd", histogramdd_fn},
        {"segment_reduce", segment_reduce_fn},
        {"bincount",
         [](const Args& a) -> Value {
           return bincount(a.tensor(0), kw_optional_tensor(a, "weights"),
                           a.kw_int("minlength").value_or(0));
         }},
        {"trace", [](const Args& a) -> Value { return trace(a.tensor(0)); }},
        {"diff",
         [](const Args& a) -> Value {
           return diff(a.tensor(0), a.kw_int("n").value_or(1), a.kw_int("dim").value_or(-1),
                       kw_optional_tensor(a, "prepend"), kw_optional_tensor(a, "append"));
         }},
        {"trapezoid", trapezoid_fn<trapezoid_x, trapezoid_dx>},
        {"trapezoid_x", trapezoid_fn<trapezoid_x, trapezoid_dx>},
        {"trapz", trapezoid_fn<trapz_x, trapz_dx>},
        {"trapz_x", trapezoid_fn<trapz_x, trapz_dx>},
        {"cumulative_trapezoid", trapezoid_fn<cumulative_x, cumulative_dx>},
        {"cumulative_trapezoid_x", trapezoid_fn<cumulative_x, cumulative_dx>},
        {"cov",
         [](const Args& a) -> Value {
           return cov(a.tensor(0), a.kw_int("correction").value_or(1),
                      kw_optional_tensor(a, "fweights"), kw_optional_tensor(a, "aweights"));
         }},
        {"corrcoef", [](const Args& a) -> Value { return corrcoef(a.tensor(0)); }},
        {"renorm",
         [](const Args& a) -> Value {
           return renorm(a.tensor(0), a.scalar(1), a.integer(2), a.scalar(3));
         }},
        {"renorm_out",
         [](const Args& a) -> Value {
           Tensor out = a.kw_tensor("out");
           return same_tensor(
               out, renorm_out(out, a.tensor(0), a.scalar(1), a.integer(2), a.scalar(3)), "renorm");
         }},
    });

}  // namespace
}  // namespace brasa::conformance
