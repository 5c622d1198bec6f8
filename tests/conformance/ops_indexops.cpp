// Op map of the indexing and shaping family (cases_indexops.py).
#include "brasa/ops/indexing_ops.h"
#include "registry.h"

namespace brasa::conformance {
namespace {

std::vector<Tensor> tensors(const Args& a, size_t i) {
  std::vector<Tensor> out;
  for (const Value& v : a.at(i).list) {
    if (v.tag != Tag::Tensor) throw HarnessError("expected a list of tensors, got " + v.describe());
    out.push_back(v.tensor);
  }
  return out;
}

std::vector<std::optional<Tensor>> optional_tensors(const Args& a, size_t i) {
  std::vector<std::optional<Tensor>> out;
  for (const Value& v : a.at(i).list) {
    if (v.tag == Tag::None) {
      out.emplace_back(std::nullopt);
    } else if (v.tag == Tag::Tensor) {
      out.emplace_back(v.tensor);
    } else {
      throw HarnessError("expected a list of tensors or None, got " + v.describe());
    }
  }
  return out;
}

Value scatter_value_or_src(const Args& a) {
  if (a.is_tensor(3)) return a.tensor(0).scatter(a.integer(1), a.tensor(2), a.tensor(3));
  return a.tensor(0).scatter(a.integer(1), a.tensor(2), a.scalar(3));
}

const OpTable kIndexOps(
    "indexops",
    {
        {"cat", [](const Args& a) -> Value { return cat(tensors(a, 0), a.integer(1)); }},
        {"stack", [](const Args& a) -> Value { return stack(tensors(a, 0), a.integer(1)); }},
        {"hstack", [](const Args& a) -> Value { return hstack(tensors(a, 0)); }},
        {"vstack", [](const Args& a) -> Value { return vstack(tensors(a, 0)); }},
        {"meshgrid",
         [](const Args& a) -> Value {
           return Value::of_tensors(meshgrid({a.tensor(0), a.tensor(1)}, a.at(2).s));
         }},
        {"flip", [](const Args& a) -> Value { return a.tensor(0).flip(a.ints(1)); }},
        {"roll",
         [](const Args& a) -> Value {
           return a.size() == 2 ? a.tensor(0).roll(a.ints(1))
                                : a.tensor(0).roll(a.ints(1), a.ints(2));
         }},
        {"tril", [](const Args& a) -> Value { return a.tensor(0).tril(a.integer(1)); }},
        {"triu", [](const Args& a) -> Value { return a.tensor(0).triu(a.integer(1)); }},
        {"repeat", [](const Args& a) -> Value { return a.tensor(0).repeat(a.ints(1)); }},
        {"tile", [](const Args& a) -> Value { return a.tensor(0).tile(a.ints(1)); }},
        {"gather",
         [](const Args& a) -> Value { return a.tensor(0).gather(a.integer(1), a.tensor(2)); }},
        {"scatter", scatter_value_or_src},
        {"scatter_add",
         [](const Args& a) -> Value {
           return a.tensor(0).scatter_add(a.integer(1), a.tensor(2), a.tensor(3));
         }},
        {"scatter_add_",
         [](const Args& a) -> Value {
           Tensor self = a.tensor(0);
           return same_tensor(self, self.scatter_add_(a.integer(1), a.tensor(2), a.tensor(3)),
                              "scatter_add_");
         }},
        {"scatter_reduce",
         [](const Args& a) -> Value {
           return scatter_reduce(a.tensor(0), a.integer(1), a.tensor(2), a.tensor(3), a.at(4).s,
                                 a.at(5).b);
         }},
        {"index_select",
         [](const Args& a) -> Value {
           return a.tensor(0).index_select(a.integer(1), a.tensor(2));
         }},
        {"index_add",
         [](const Args& a) -> Value {
           return a.tensor(0).index_add(a.integer(1), a.tensor(2), a.tensor(3));
         }},
        {"index_copy",
         [](const Args& a) -> Value {
           return a.tensor(0).index_copy(a.integer(1), a.tensor(2), a.tensor(3));
         }},
        {"index_fill",
         [](const Args& a) -> Value {
           return a.tensor(0).index_fill(a.integer(1), a.tensor(2), a.scalar(3));
         }},
        {"take", [](const Args& a) -> Value { return a.tensor(0).take(a.tensor(1)); }},
        {"masked_select",
         [](const Args& a) -> Value { return a.tensor(0).masked_select(a.tensor(1)); }},
        {"nonzero", [](const Args& a) -> Value { return a.tensor(0).nonzero(); }},
        {"repeat_interleave",
         [](const Args& a) -> Value {
           if (a.size() == 1) return repeat_interleave(a.tensor(0));
           std::optional<int64_t> dim;
           if (a.size() > 2) dim = a.integer(2);
           if (a.is_tensor(1)) return repeat_interleave(a.tensor(0), a.tensor(1), dim);
           return repeat_interleave(a.tensor(0), a.integer(1), dim);
         }},
        {"masked_scatter",
         [](const Args& a) -> Value {
           return masked_scatter(a.tensor(0), a.tensor(1), a.tensor(2));
         }},
        {"index.Tensor",
         [](const Args& a) -> Value { return index(a.tensor(0), optional_tensors(a, 1)); }},
        {"index_put_.Tensor",
         [](const Args& a) -> Value {
           Tensor self = a.tensor(0);
           return same_tensor(self,
                              index_put_(self, optional_tensors(a, 1), a.tensor(2), a.at(3).b),
                              "index_put_");
         }},
        {"searchsorted",
         [](const Args& a) -> Value {
           return searchsorted(a.tensor(0), a.tensor(1), a.at(2).b, a.at(3).b);
         }},
        {"bucketize",
         [](const Args& a) -> Value {
           return bucketize(a.tensor(0), a.tensor(1), a.at(2).b, a.at(3).b);
         }},
        {"one_hot", [](const Args& a) -> Value { return one_hot(a.tensor(0), a.integer(1)); }},
        {"unique",
         [](const Args& a) -> Value {
           auto [u, inverse, counts] = unique(a.tensor(0), true, true, true);
           return Value::of_tensors({u, inverse, counts});
         }},
        {"embedding", [](const Args& a) -> Value { return embedding(a.tensor(1), a.tensor(0)); }},
        {"embedding_bag",
         [](const Args& a) -> Value {
           if (a.size() == 3) return embedding_bag(a.tensor(0), a.tensor(1), {}, a.at(2).s);
           std::optional<int64_t> padding;
           if (a.size() == 5) padding = a.integer(4);
           return embedding_bag(a.tensor(0), a.tensor(1), a.tensor(2), a.at(3).s, {}, false,
                                padding);
         }},
    });

}  // namespace
}  // namespace brasa::conformance
