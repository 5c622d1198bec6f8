// Op map of the complex family (cases_complex.py). Arithmetic, comparisons, conversions and
// factories on complex dtypes go through the binary/copy/factory/unary/reduce maps of the same
// names.

#include "registry.h"

namespace brasa::conformance {
namespace {

const OpTable kComplex(
    "complex",
    {
        {"real", [](const Args& a) -> Value { return real(a.tensor(0)); }},
        {"imag", [](const Args& a) -> Value { return a.tensor(0).imag(); }},
        {"conj", [](const Args& a) -> Value { return a.tensor(0).conj(); }},
        {"conj_physical", [](const Args& a) -> Value { return conj_physical(a.tensor(0)); }},
        {"angle", [](const Args& a) -> Value { return a.tensor(0).angle(); }},
        {"view_as_real", [](const Args& a) -> Value { return view_as_real(a.tensor(0)); }},
        {"view_as_complex", [](const Args& a) -> Value { return view_as_complex(a.tensor(0)); }},
        {"complex", [](const Args& a) -> Value { return complex_from(a.tensor(0), a.tensor(1)); }},
        {"polar", [](const Args& a) -> Value { return polar(a.tensor(0), a.tensor(1)); }},
    });

}  // namespace
}  // namespace brasa::conformance
