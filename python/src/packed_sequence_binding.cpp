#include "packed_sequence_binding.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>

#include <cstdint>
#include <optional>
#include <tuple>

#include "brasa/nn/utils/rnn.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

namespace rnn = brasa::nn::utils::rnn;
using OptTensor = std::optional<Tensor>;
using Packed = std::tuple<Tensor, Tensor, OptTensor, OptTensor>;

OptTensor opt(const Tensor& t) { return t.defined() ? OptTensor(t) : std::nullopt; }
Tensor or_undefined(const OptTensor& t) { return t ? *t : Tensor(); }

Packed to_tuple(const rnn::PackedSequence& p) {
  return {p.data(), p.batch_sizes(), opt(p.sorted_indices()), opt(p.unsorted_indices())};
}

}  // namespace

void bind_packed_sequence(nb::module_& nn) {
  nn.def(
      "_pack_padded_sequence",
      [](const Tensor& input, const Tensor& lengths, bool batch_first, bool enforce_sorted) {
        return to_tuple(rnn::pack_padded_sequence(input, lengths, batch_first, enforce_sorted));
      },
      nb::call_guard<nb::gil_scoped_release>());
  nn.def(
      "_pad_packed_sequence",
      [](const Tensor& data, const Tensor& batch_sizes, const OptTensor& sorted,
         const OptTensor& unsorted, bool batch_first, double padding_value,
         std::optional<int64_t> total_length) {
        rnn::PackedSequence p(data, batch_sizes, or_undefined(sorted), or_undefined(unsorted));
        return rnn::pad_packed_sequence(p, batch_first, padding_value, total_length);
      },
      nb::arg("data"), nb::arg("batch_sizes"), nb::arg("sorted").none(), nb::arg("unsorted").none(),
      nb::arg("batch_first"), nb::arg("padding_value"), nb::arg("total_length").none(),
      nb::call_guard<nb::gil_scoped_release>());
  nn.def(
      "_invert_permutation",
      [](const OptTensor& p) { return opt(rnn::invert_permutation(or_undefined(p))); },
      nb::arg("permutation").none(), nb::call_guard<nb::gil_scoped_release>());
}

}  // namespace brasa::python
