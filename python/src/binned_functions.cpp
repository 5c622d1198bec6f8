// torch functions over libbrasa's C++ composites that group elements into frames, bins or segments:
// stft / istft, histogram / histogramdd, segment_reduce and index_reduce(_) (Note [Composite
// functions in Python]). Tuple results come back as tuples; python/brasa/_composite_functions.py
// makes torch's named tuples and Tensor methods of them. The GIL is released around each C++ call.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "brasa/ops/shaping.h"
#include "brasa/ops/statistics.h"
#include "brasa/ops/stft.h"
#include "composites.h"
#include "convert.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

using T = const Tensor&;
using OptTensor = std::optional<Tensor>;
using OptInt = std::optional<int64_t>;
using OptBool = std::optional<bool>;
using OptDoubles = std::optional<std::vector<double>>;
using G = nb::gil_scoped_release;

OptionalArrayRef<double> range_ref(const OptDoubles& range) {
  return range ? OptionalArrayRef<double>(ArrayRef<double>(*range)) : std::nullopt;
}

void bind_spectral(nb::module_& m) {
  m.def(
      "stft",
      [](T a, int64_t n_fft, OptInt hop, OptInt win_length, OptTensor window, bool center,
         const std::string& pad_mode, bool normalized, OptBool onesided, OptBool return_complex) {
        G g;
        return stft(a, n_fft, hop, win_length, window, center, pad_mode, normalized, onesided,
                    return_complex);
      },
      nb::arg("input"), nb::arg("n_fft"), nb::arg("hop_length").none() = nb::none(),
      nb::arg("win_length").none() = nb::none(), nb::arg("window").none() = nb::none(),
      nb::arg("center") = true, nb::arg("pad_mode") = "reflect", nb::arg("normalized") = false,
      nb::arg("onesided").none() = nb::none(), nb::arg("return_complex").none() = nb::none());
  m.def(
      "istft",
      [](T a, int64_t n_fft, OptInt hop, OptInt win_length, OptTensor window, bool center,
         bool normalized, OptBool onesided, OptInt length, bool return_complex) {
        G g;
        return istft(a, n_fft, hop, win_length, window, center, normalized, onesided, length,
                     return_complex);
      },
      nb::arg("input"), nb::arg("n_fft"), nb::arg("hop_length").none() = nb::none(),
      nb::arg("win_length").none() = nb::none(), nb::arg("window").none() = nb::none(),
      nb::arg("center") = true, nb::arg("normalized") = false,
      nb::arg("onesided").none() = nb::none(), nb::arg("length").none() = nb::none(),
      nb::arg("return_complex") = false);
}

void bind_histograms(nb::module_& m) {
  // bins: a count or a tensor of edges.
  m.def(
      "_histogram",
      [](T a, nb::handle bins, OptDoubles range, OptTensor weight, bool density) {
        if (nb::isinstance<Tensor>(bins)) {
          Tensor edges = nb::cast<Tensor>(bins);
          BRASA_CHECK_TYPE(!range, "histogram: range= cannot be given with bin edges");
          G g;
          return histogram(a, edges, weight, density);
        }
        const int64_t n = nb::cast<int64_t>(bins);
        G g;
        return histogram(a, n, range_ref(range), weight, density);
      },
      nb::arg("input"), nb::arg("bins"), nb::arg("range").none(), nb::arg("weight").none(),
      nb::arg("density"));
  // bins: one count, a count per dim, or a sequence of edge tensors.
  m.def(
      "_histogramdd",
      [](T a, nb::handle bins, OptDoubles range, OptTensor weight, bool density) {
        std::tuple<Tensor, std::vector<Tensor>> r;
        if (std::optional<int64_t> n = to_int(bins)) {
          G g;
          r = histogramdd(a, *n, range_ref(range), weight, density);
        } else if (std::optional<std::vector<int64_t>> counts = to_int_list(bins)) {
          G g;
          r = histogramdd(a, IntArrayRef(*counts), range_ref(range), weight, density);
        } else {
          std::vector<Tensor> edges = nb::cast<std::vector<Tensor>>(bins);
          G g;
          r = histogramdd(a, TensorList(edges), range_ref(range), weight, density);
        }
        return nb::make_tuple(std::get<0>(r), tensor_tuple(std::get<1>(r)));
      },
      nb::arg("input"), nb::arg("bins"), nb::arg("range").none(), nb::arg("weight").none(),
      nb::arg("density"));
}

void bind_segment_and_index_reductions(nb::module_& m) {
  m.def(
      "segment_reduce",
      [](T data, const std::string& reduce, OptTensor lengths, OptTensor indices, OptTensor offsets,
         int64_t axis, bool unsafe, nb::handle initial) {
        std::optional<Scalar> init;
        if (!initial.is_none()) init = scalar_arg(initial, "segment_reduce", "initial");
        G g;
        return segment_reduce(data, reduce, lengths, indices, offsets, axis, unsafe, init);
      },
      nb::arg("data"), nb::arg("reduce"), nb::kw_only(), nb::arg("lengths").none() = nb::none(),
      nb::arg("indices").none() = nb::none(), nb::arg("offsets").none() = nb::none(),
      nb::arg("axis") = 0, nb::arg("unsafe") = false, nb::arg("initial").none() = nb::none());
  m.def(
      "index_reduce",
      [](T a, int64_t dim, T index, T source, const std::string& reduce, bool include_self) {
        G g;
        return index_reduce(a, dim, index, source, reduce, include_self);
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("index"), nb::arg("source"), nb::arg("reduce"),
      nb::kw_only(), nb::arg("include_self") = true);
  m.def(
      "index_reduce_",
      [](T a, int64_t dim, T index, T source, const std::string& reduce, bool include_self) {
        G g;
        return a.index_reduce_(dim, index, source, reduce, include_self);
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("index"), nb::arg("source"), nb::arg("reduce"),
      nb::kw_only(), nb::arg("include_self") = true);
}

}  // namespace

void bind_binned_functions(nb::module_& m) {
  bind_spectral(m);
  bind_histograms(m);
  bind_segment_and_index_reductions(m);
}

}  // namespace brasa::python
