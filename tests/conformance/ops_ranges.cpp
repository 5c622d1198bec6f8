// Op map of the range/literal factory family (cases_ranges.py); uses libtorch's signatures
// (arange(end|start,end[,step], options), linspace/logspace(start, end, steps[, base], options),
// eye(n[, m], options), tensor(ArrayRef<T>, options) plus reshape for nested lists).

#include "registry.h"

namespace brasa::conformance {
namespace {

// A nested Python list: its shape and its leaves, flattened.
void flatten_list(const Value& v, size_t depth, std::vector<int64_t>& shape,
                  std::vector<Value>& leaves) {
  if (v.tag != Tag::List) {
    leaves.push_back(v);
    return;
  }
  if (shape.size() <= depth) shape.push_back(static_cast<int64_t>(v.list.size()));
  for (const Value& x : v.list) flatten_list(x, depth + 1, shape, leaves);
}

Tensor tensor_from_list(const Value& v, const TensorOptions& options) {
  std::vector<int64_t> shape;
  std::vector<Value> leaves;
  flatten_list(v, 0, shape, leaves);
  Tag kind = leaves.empty() ? Tag::Float : leaves[0].tag;
  for (const Value& x : leaves)
    if (x.tag == Tag::Float || (x.tag == Tag::Int && kind == Tag::Bool)) kind = x.tag;
  Tensor flat;
  if (kind == Tag::Bool) {
    std::vector<uint8_t> bytes;
    for (const Value& x : leaves) bytes.push_back(x.b);
    flat = tensor(ArrayRef<uint8_t>(bytes), options.dtype(kByte))
               .to(options.has_dtype() ? options.dtype() : kBool);
  } else if (kind == Tag::Int) {
    std::vector<int64_t> i;
    for (const Value& x : leaves) i.push_back(x.i);
    flat = tensor(ArrayRef<int64_t>(i), options);
  } else {
    std::vector<double> d;
    for (const Value& x : leaves) d.push_back(x.tag == Tag::Float ? x.f : static_cast<double>(x.i));
    flat = tensor(ArrayRef<double>(d),
                  options.has_dtype() ? options : options.dtype(get_default_dtype()));
  }
  return flat.reshape(shape);
}

const OpTable kRanges("ranges",
                      {
                          {"arange",
                           [](const Args& a) -> Value {
                             if (a.size() == 1) return arange(a.scalar(0), a.options());
                             if (a.size() == 2)
                               return arange(a.scalar(0), a.scalar(1), a.options());
                             return arange(a.scalar(0), a.scalar(1), a.scalar(2), a.options());
                           }},
                          {"linspace",
                           [](const Args& a) -> Value {
                             return linspace(a.scalar(0), a.scalar(1), a.integer(2), a.options());
                           }},
                          {"logspace",
                           [](const Args& a) -> Value {
                             return logspace(a.scalar(0), a.scalar(1), a.integer(2),
                                             a.kw_real("base").value_or(10.0), a.options());
                           }},
                          {"eye",
                           [](const Args& a) -> Value {
                             return a.size() == 1 ? eye(a.integer(0), a.options())
                                                  : eye(a.integer(0), a.integer(1), a.options());
                           }},
                          {"tensor",
                           [](const Args& a) -> Value {
                             if (a.at(0).tag != Tag::List)
                               return scalar_tensor(
                                   a.scalar(0),
                                   a.options().dtype(a.kw_dtype("dtype").value_or(
                                       a.at(0).tag == Tag::Float ? get_default_dtype()
                                                                 : a.scalar(0).type())));
                             return tensor_from_list(a.at(0), a.options());
                           }},
                      });

}  // namespace
}  // namespace brasa::conformance
