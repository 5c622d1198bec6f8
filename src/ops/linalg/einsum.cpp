// einsum by contraction of operand pairs, left to right: each pair is permuted to
// [batch, kept-left, contracted] x [batch, contracted, kept-right], multiplied with bmm and
// reshaped; letters used by no later operand nor the output are summed out first.
#include <algorithm>
#include <array>
#include <string>

#include "brasa/core/error.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/view.h"

namespace brasa {
namespace {

struct Term {
  Tensor t;
  std::string labels;
};

bool is_label(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Sums out labels not in `keep`, then permutes the rest into the order of `order`.
Term reduce_to(Term x, const std::string& keep) {
  std::vector<int64_t> drop;
  std::string rest;
  for (size_t i = 0; i < x.labels.size(); ++i) {
    if (keep.find(x.labels[i]) == std::string::npos)
      drop.push_back(static_cast<int64_t>(i));
    else
      rest.push_back(x.labels[i]);
  }
  if (!drop.empty()) x.t = x.t.sum(drop, false, x.t.dtype());
  x.labels = rest;
  return x;
}

Term permute_to(const Term& x, const std::string& order) {
  std::vector<int64_t> perm;
  for (char c : order) perm.push_back(static_cast<int64_t>(x.labels.find(c)));
  return {x.t.permute(perm), order};
}

int64_t size_of(const Term& x, const std::string& labels, size_t begin, size_t end) {
  int64_t n = 1;
  for (size_t i = begin; i < end; ++i)
    n *= x.t.size(static_cast<int64_t>(x.labels.find(labels[i])));
  return n;
}

// a (x) b keeping the labels in `keep`.
Term contract(const Term& a0, const Term& b0, const std::string& keep) {
  std::string keep_a = keep, keep_b = keep;
  keep_a += b0.labels;
  keep_b += a0.labels;
  Term a = reduce_to(a0, keep_a), b = reduce_to(b0, keep_b);
  std::string batch, left, right, inner;
  for (char c : a.labels) {
    const bool in_b = b.labels.find(c) != std::string::npos;
    const bool kept = keep.find(c) != std::string::npos;
    if (in_b && kept)
      batch.push_back(c);
    else if (in_b)
      inner.push_back(c);
    else
      left.push_back(c);
  }
  for (char c : b.labels)
    if (a.labels.find(c) == std::string::npos) right.push_back(c);
  Term pa = permute_to(a, batch + left + inner), pb = permute_to(b, batch + inner + right);
  const int64_t nb = size_of(pa, pa.labels, 0, batch.size());
  const int64_t m = size_of(pa, pa.labels, batch.size(), batch.size() + left.size());
  const int64_t k = size_of(pa, pa.labels, batch.size() + left.size(), pa.labels.size());
  const int64_t n = size_of(pb, pb.labels, batch.size() + inner.size(), pb.labels.size());
  Tensor r = bmm(pa.t.reshape({nb, m, k}), pb.t.reshape({nb, k, n}));
  std::vector<int64_t> shape;
  for (char c : batch + left) shape.push_back(pa.t.size(static_cast<int64_t>(pa.labels.find(c))));
  for (char c : right) shape.push_back(pb.t.size(static_cast<int64_t>(pb.labels.find(c))));
  return {r.reshape(shape), batch + left + right};
}

}  // namespace

Tensor einsum(std::string_view equation, const std::vector<Tensor>& operands) {
  std::string eq;
  for (char c : equation)
    if (c != ' ') eq.push_back(c);
  BRASA_CHECK_NOT_IMPLEMENTED(eq.find("...") == std::string::npos,
                              "einsum(): ellipsis is not supported");
  const size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> subs(1);
  for (char c : lhs) {
    if (c == ',')
      subs.emplace_back();
    else {
      BRASA_CHECK(is_label(c), "einsum(): invalid subscript given at index ", subs.back().size(),
                  " in the equation string, subscripts must be in [a-zA-Z]");
      subs.back().push_back(c);
    }
  }
  BRASA_CHECK(!operands.empty(), "einsum(): must provide at least one operand");
  BRASA_CHECK(subs.size() == operands.size(), "einsum(): ", subs.size(),
              " operands specified in the equation, but ", operands.size(), " were given");
  std::array<int64_t, 128> sizes;
  sizes.fill(-1);
  std::array<int, 128> count{};
  for (size_t i = 0; i < subs.size(); ++i) {
    const Tensor& t = operands[i];
    BRASA_CHECK(t.defined(), "einsum(): operand ", i, " is undefined");
    BRASA_CHECK(static_cast<int64_t>(subs[i].size()) == t.dim(), "einsum(): the number of ",
                "subscripts in the equation (", subs[i].size(), ") does not match the number of ",
                "dimensions (", t.dim(), ") for operand ", i);
    for (size_t d = 0; d < subs[i].size(); ++d) {
      const char c = subs[i][d];
      BRASA_CHECK_NOT_IMPLEMENTED(subs[i].find(c) == d, "einsum(): repeated subscript ", c,
                                  " in one operand is not "
                                  "supported");
      const int64_t s = t.size(static_cast<int64_t>(d));
      BRASA_CHECK(sizes[c] == -1 || sizes[c] == s, "einsum(): subscript ", c, " has size ", s,
                  " for operand ", i, " which does not broadcast with previously seen size ",
                  sizes[c]);
      sizes[c] = s;
      ++count[c];
    }
  }
  std::string out;
  if (arrow == std::string::npos) {
    for (int c = 0; c < 128; ++c)
      if (count[c] == 1) out.push_back(static_cast<char>(c));
  } else {
    out = eq.substr(arrow + 2);
    for (size_t i = 0; i < out.size(); ++i) {
      BRASA_CHECK(is_label(out[i]), "einsum(): invalid subscript in the output: ", out[i]);
      BRASA_CHECK(count[out[i]] > 0, "einsum(): output subscript ", out[i],
                  " does not appear in the equation for any input operand");
      BRASA_CHECK(out.find(out[i]) == i, "einsum(): output subscript ", out[i],
                  " appears more than once in the output");
    }
  }
  Term acc{operands[0], subs[0]};
  for (size_t i = 1; i < operands.size(); ++i) {
    std::string keep = out;
    for (size_t j = i + 1; j < subs.size(); ++j) keep += subs[j];
    acc = contract(acc, {operands[i], subs[i]}, keep);
  }
  acc = reduce_to(acc, out);
  return permute_to(acc, out).t;
}

}  // namespace brasa
