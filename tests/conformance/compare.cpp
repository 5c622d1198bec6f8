#include "compare.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace brasa::conformance {
namespace {

struct Element {
  bool floating;
  int64_t i;
  double d;
};

template <typename T>
T load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

Element read_element(ScalarType t, const char* p) {
  switch (t) {
    case kBool: return {false, load<uint8_t>(p) != 0, 0};
    case kByte: return {false, load<uint8_t>(p), 0};
    case kChar: return {false, load<int8_t>(p), 0};
    case kShort: return {false, load<int16_t>(p), 0};
    case kInt: return {false, load<int32_t>(p), 0};
    case kLong: return {false, load<int64_t>(p), 0};
    case kHalf: return {true, 0, float(load<Half>(p))};
    case kBFloat16: return {true, 0, float(load<BFloat16>(p))};
    case kFloat: return {true, 0, load<float>(p)};
    case kDouble: return {true, 0, load<double>(p)};
    default: throw HarnessError("compare: unexpected dtype");
  }
}

bool close(double e, double a, double rtol, double atol) {
  if (std::isnan(e) || std::isnan(a)) return std::isnan(e) && std::isnan(a);
  if (std::isinf(e) || std::isinf(a)) return e == a;
  return std::fabs(a - e) <= atol + rtol * std::fabs(e);
}

std::string shape_str(IntArrayRef s) {
  std::ostringstream os;
  os << "[";
  for (size_t k = 0; k < s.size(); ++k) os << (k ? ", " : "") << s[k];
  os << "]";
  return os.str();
}

std::string element_str(const Element& e) {
  std::ostringstream os;
  if (e.floating)
    os.precision(9), os << e.d;
  else
    os << e.i;
  return os.str();
}

std::string compare_tensors(const Tensor& e, const Tensor& a, double rtol, double atol,
                            uint32_t flags) {
  if (!a.defined()) return "brasa returned an undefined tensor";
  if (e.dtype() != a.dtype())
    return std::string("dtype: expected ") + to_string(e.dtype()) + ", got " + to_string(a.dtype());
  if (e.sizes() != a.sizes())
    return "shape: expected " + shape_str(e.sizes()) + ", got " + shape_str(a.sizes());
  if ((flags & kCheckStrides) && e.strides() != a.strides())
    return "strides: expected " + shape_str(e.strides()) + ", got " + shape_str(a.strides());
  if ((flags & kSkipValues) || e.numel() == 0) return "";
  // Complex values compare part by part, each with the tolerance of its real dtype.
  if (e.is_complex()) return compare_tensors(view_as_real(e), view_as_real(a), rtol, atol, 0);
  const int64_t ndim = e.dim(), itemsize = static_cast<int64_t>(e.itemsize());
  std::vector<int64_t> index(ndim, 0);
  int64_t mismatches = 0;
  std::string first;
  for (int64_t n = 0; n < e.numel(); ++n) {
    int64_t oe = 0, oa = 0;
    for (int64_t d = 0; d < ndim; ++d)
      oe += index[d] * e.strides()[d], oa += index[d] * a.strides()[d];
    Element ve = read_element(e.dtype(), static_cast<const char*>(e.data_ptr()) + oe * itemsize);
    Element va = read_element(a.dtype(), static_cast<const char*>(a.data_ptr()) + oa * itemsize);
    bool ok = ve.floating ? close(ve.d, va.d, rtol, atol) : ve.i == va.i;
    if (!ok && mismatches++ == 0)
      first =
          "at " + shape_str(index) + ": expected " + element_str(ve) + ", got " + element_str(va);
    for (int64_t d = ndim - 1; d >= 0; --d) {
      if (++index[d] < e.sizes()[d]) break;
      index[d] = 0;
    }
  }
  if (mismatches == 0) return "";
  std::ostringstream os;
  os << "values: " << mismatches << " of " << e.numel() << " differ (rtol " << rtol << ", atol "
     << atol << "), first " << first;
  return os.str();
}

}  // namespace

std::string compare_values(const Value& e, const Value& a, double rtol, double atol,
                           uint32_t flags) {
  if (e.tag == Tag::Float && (a.tag == Tag::Float || a.tag == Tag::Int)) {
    double av = a.tag == Tag::Float ? a.f : static_cast<double>(a.i);
    return close(e.f, av, rtol, atol) ? "" : "expected " + e.describe() + ", got " + a.describe();
  }
  if (e.tag != a.tag) return "expected " + e.describe() + ", got " + a.describe();
  switch (e.tag) {
    case Tag::Tensor: return compare_tensors(e.tensor, a.tensor, rtol, atol, flags);
    case Tag::List: {
      if (e.list.size() != a.list.size())
        return "expected " + std::to_string(e.list.size()) + " results, got " +
               std::to_string(a.list.size());
      for (size_t k = 0; k < e.list.size(); ++k) {
        std::string d = compare_values(e.list[k], a.list[k], rtol, atol, flags);
        if (!d.empty()) return "result " + std::to_string(k) + ": " + d;
      }
      return "";
    }
    case Tag::Bool:
    case Tag::Int:
    case Tag::Str:
    case Tag::Dtype:
      return e.describe() == a.describe() ? ""
                                          : "expected " + e.describe() + ", got " + a.describe();
    default: return "";
  }
}

}  // namespace brasa::conformance
