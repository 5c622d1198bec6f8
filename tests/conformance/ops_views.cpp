// Op map of the view and indexing family (cases_views.py).

#include "brasa/core/indexing.h"
#include "brasa/dispatch/dispatcher.h"
#include "registry.h"

namespace brasa::conformance {
namespace {

std::optional<int64_t> opt_int(const Value& v) {
  if (v.tag == Tag::None) return std::nullopt;
  if (v.tag != Tag::Int) throw HarnessError("expected int or None, got " + v.describe());
  return v.i;
}

std::vector<indexing::TensorIndex> to_indices(const Value& list) {
  std::vector<indexing::TensorIndex> out;
  for (const Value& v : list.list) {
    switch (v.tag) {
      case Tag::None: out.emplace_back(indexing::None); break;
      case Tag::Ellipsis: out.emplace_back(indexing::Ellipsis); break;
      case Tag::Int: out.emplace_back(v.i); break;
      case Tag::Bool: out.emplace_back(v.b); break;
      case Tag::Tensor: out.emplace_back(v.tensor); break;
      case Tag::Slice:
        out.emplace_back(
            indexing::Slice(opt_int(v.list[0]), opt_int(v.list[1]), opt_int(v.list[2])));
        break;
      default: throw HarnessError("unsupported index " + v.describe());
    }
  }
  return out;
}

const OpTable kViews(
    "views",
    {
        {"view", [](const Args& a) -> Value { return a.tensor(0).view(a.ints(1)); }},
        {"reshape", [](const Args& a) -> Value { return a.tensor(0).reshape(a.ints(1)); }},
        {"flatten",
         [](const Args& a) -> Value {
           return a.size() == 1 ? a.tensor(0).flatten()
                                : a.tensor(0).flatten(a.integer(1), a.integer(2));
         }},
        {"unflatten",
         [](const Args& a) -> Value { return a.tensor(0).unflatten(a.integer(1), a.ints(2)); }},
        {"squeeze",
         [](const Args& a) -> Value {
           return a.size() == 1 ? a.tensor(0).squeeze() : a.tensor(0).squeeze(a.integer(1));
         }},
        {"unsqueeze", [](const Args& a) -> Value { return a.tensor(0).unsqueeze(a.integer(1)); }},
        {"transpose",
         [](const Args& a) -> Value { return a.tensor(0).transpose(a.integer(1), a.integer(2)); }},
        {"t", [](const Args& a) -> Value { return a.tensor(0).t(); }},
        {"permute", [](const Args& a) -> Value { return a.tensor(0).permute(a.ints(1)); }},
        {"movedim",
         [](const Args& a) -> Value {
           if (a.at(1).tag == Tag::Int) return a.tensor(0).movedim(a.integer(1), a.integer(2));
           return a.tensor(0).movedim(a.ints(1), a.ints(2));
         }},
        {"expand", [](const Args& a) -> Value { return a.tensor(0).expand(a.ints(1)); }},
        {"narrow",
         [](const Args& a) -> Value {
           return a.tensor(0).narrow(a.integer(1), a.integer(2), a.integer(3));
         }},
        {"select",
         [](const Args& a) -> Value { return a.tensor(0).select(a.integer(1), a.integer(2)); }},
        {"slice",
         [](const Args& a) -> Value {
           return a.tensor(0).slice(a.integer(1), opt_int(a.at(2)), opt_int(a.at(3)), a.integer(4));
         }},
        {"as_strided",
         [](const Args& a) -> Value {
           return a.tensor(0).as_strided(a.ints(1), a.ints(2), a.integer(3));
         }},
        {"chunk",
         [](const Args& a) -> Value {
           return Value::of_tensors(a.tensor(0).chunk(a.integer(1), a.integer(2)));
         }},
        {"split",
         [](const Args& a) -> Value {
           Tensor t = a.tensor(0);
           int64_t dim = a.integer(2);
           return Value::of_tensors(a.at(1).tag == Tag::Int ? t.split(a.integer(1), dim)
                                                            : t.split(IntArrayRef(a.ints(1)), dim));
         }},
        {"unbind",
         [](const Args& a) -> Value {
           return Value::of_tensors(a.tensor(0).unbind(a.integer(1)));
         }},
        {"diagonal",
         [](const Args& a) -> Value {
           return a.tensor(0).diagonal(a.integer(1), a.integer(2), a.integer(3));
         }},
        // Tensor::unfold is not a member yet (docs/compat.md): the dispatched op, called boxed.
        {"unfold",
         [](const Args& a) -> Value {
           Stack stack{brasa::Value(a.tensor(0)), brasa::Value(a.integer(1)),
                       brasa::Value(a.integer(2)), brasa::Value(a.integer(3))};
           brasa::find_op("unfold")->call_boxed(stack);
           return stack.at(0).tensor();
         }},
        // Tensor::view(ScalarType) is not a member yet (docs/compat.md): the op, called boxed.
        {"view.dtype",
         [](const Args& a) -> Value {
           Stack stack{brasa::Value(a.tensor(0)), brasa::Value(a.dtype(1))};
           brasa::find_op("view.dtype")->call_boxed(stack);
           return stack.at(0).tensor();
         }},
        {"contiguous", [](const Args& a) -> Value { return a.tensor(0).contiguous(); }},
        {"clone", [](const Args& a) -> Value { return a.tensor(0).clone(); }},
        {"index", [](const Args& a) -> Value { return a.tensor(0).index(to_indices(a.at(1))); }},
        {"index_put_",
         [](const Args& a) -> Value {
           Tensor self = a.tensor(0);
           auto idx = to_indices(a.at(1));
           return same_tensor(self,
                              a.is_tensor(2) ? self.index_put_(idx, a.tensor(2))
                                             : self.index_put_(idx, a.scalar(2)),
                              "index_put_");
         }},
    });

}  // namespace
}  // namespace brasa::conformance
