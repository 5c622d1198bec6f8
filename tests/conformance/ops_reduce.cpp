// Op map of the reduction family (cases_reduce.py).

#include <tuple>

#include "registry.h"

namespace brasa::conformance {
namespace {

bool keepdim(const Args& a) { return a.kw_bool("keepdim").value_or(false); }
std::optional<ScalarType> dtype(const Args& a) { return a.kw_dtype("dtype"); }

// ops over an optional dim list: sum, mean (dim absent = all dims)
template <typename F, typename G>
Value over_dims(const Args& a, F all, G dims) {
  auto d = a.kw_ints("dim");
  return d ? dims(a.tensor(0), *d) : all(a.tensor(0));
}

const OpTable kReduce(
    "reduce",
    {
        {"sum",
         [](const Args& a) {
           return over_dims(
               a, [&](const Tensor& t) { return t.sum(dtype(a)); },
               [&](const Tensor& t, IntArrayRef d) { return t.sum(d, keepdim(a), dtype(a)); });
         }},
        {"mean",
         [](const Args& a) {
           return over_dims(
               a, [&](const Tensor& t) { return t.mean(dtype(a)); },
               [&](const Tensor& t, IntArrayRef d) { return t.mean(d, keepdim(a), dtype(a)); });
         }},
        {"prod",
         [](const Args& a) -> Value {
           auto d = a.kw_int("dim");
           return d ? a.tensor(0).prod(*d, keepdim(a), dtype(a)) : a.tensor(0).prod(dtype(a));
         }},
        {"amax",
         [](const Args& a) -> Value { return a.tensor(0).amax(*a.kw_ints("dim"), keepdim(a)); }},
        {"amin",
         [](const Args& a) -> Value { return a.tensor(0).amin(*a.kw_ints("dim"), keepdim(a)); }},
        {"max",
         [](const Args& a) -> Value {
           auto d = a.kw_int("dim");
           return d ? pair(a.tensor(0).max(*d, keepdim(a))) : Value(a.tensor(0).max());
         }},
        {"min",
         [](const Args& a) -> Value {
           auto d = a.kw_int("dim");
           return d ? pair(a.tensor(0).min(*d, keepdim(a))) : Value(a.tensor(0).min());
         }},
        {"argmax",
         [](const Args& a) -> Value { return a.tensor(0).argmax(a.kw_int("dim"), keepdim(a)); }},
        {"argmin",
         [](const Args& a) -> Value { return a.tensor(0).argmin(a.kw_int("dim"), keepdim(a)); }},
        {"var",
         [](const Args& a) -> Value {
           auto d = a.kw_ints("dim");
           if (auto c = a.kw_int("correction"))
             return a.tensor(0).var(d ? OptionalIntArrayRef(*d) : std::nullopt, c, keepdim(a));
           bool unbiased = a.kw_bool("unbiased").value_or(true);
           return d ? a.tensor(0).var(*d, unbiased, keepdim(a)) : a.tensor(0).var(unbiased);
         }},
        {"std",
         [](const Args& a) -> Value {
           auto d = a.kw_ints("dim");
           bool unbiased = a.kw_bool("unbiased").value_or(true);
           return d ? a.tensor(0).std(*d, unbiased, keepdim(a)) : a.tensor(0).std(unbiased);
         }},
        {"norm",
         [](const Args& a) -> Value {
           auto d = a.kw_ints("dim");
           std::optional<Scalar> p = a.kw_scalar("p");
           return d ? a.tensor(0).norm(p, *d, keepdim(a)) : a.tensor(0).norm(p.value_or(Scalar(2)));
         }},
        {"logsumexp",
         [](const Args& a) -> Value {
           return a.tensor(0).logsumexp(*a.kw_ints("dim"), keepdim(a));
         }},
        {"all",
         [](const Args& a) -> Value {
           auto d = a.kw_int("dim");
           return d ? a.tensor(0).all(*d, keepdim(a)) : a.tensor(0).all();
         }},
        {"any",
         [](const Args& a) -> Value {
           auto d = a.kw_int("dim");
           return d ? a.tensor(0).any(*d, keepdim(a)) : a.tensor(0).any();
         }},
        {"count_nonzero",
         [](const Args& a) -> Value {
           auto d = a.kw_ints("dim");
           return d ? a.tensor(0).count_nonzero(IntArrayRef(*d)) : a.tensor(0).count_nonzero();
         }},
        {"cumsum",
         [](const Args& a) -> Value { return a.tensor(0).cumsum(*a.kw_int("dim"), dtype(a)); }},
        {"cumprod",
         [](const Args& a) -> Value { return a.tensor(0).cumprod(*a.kw_int("dim"), dtype(a)); }},
        {"softmax",
         [](const Args& a) -> Value { return a.tensor(0).softmax(*a.kw_int("dim"), dtype(a)); }},
        {"log_softmax",
         [](const Args& a) -> Value {
           return a.tensor(0).log_softmax(*a.kw_int("dim"), dtype(a));
         }},
        {"sort",
         [](const Args& a) -> Value {
           int64_t dim = a.kw_int("dim").value_or(-1);
           bool desc = a.kw_bool("descending").value_or(false);
           if (auto stable = a.kw_bool("stable")) return pair(a.tensor(0).sort(stable, dim, desc));
           return pair(a.tensor(0).sort(dim, desc));
         }},
        {"argsort",
         [](const Args& a) -> Value {
           return a.tensor(0).argsort(a.kw_int("dim").value_or(-1),
                                      a.kw_bool("descending").value_or(false));
         }},
        {"topk",
         [](const Args& a) -> Value {
           return pair(a.tensor(0).topk(*a.kw_int("k"), a.kw_int("dim").value_or(-1),
                                        a.kw_bool("largest").value_or(true),
                                        a.kw_bool("sorted").value_or(true)));
         }},
    });

}  // namespace
}  // namespace brasa::conformance
