#include "fft_binding.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <vector>

#include "brasa/ops/fft.h"
#include "convert.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

using T = const Tensor&;
using OptInt = std::optional<int64_t>;
using OptInts = std::optional<std::vector<int64_t>>;
using OptStr = std::optional<std::string>;
using G = nb::gil_scoped_release;

FftNorm norm_of(const OptStr& s) { return s ? FftNorm(*s) : FftNorm(); }

using OneDim = Tensor (*)(T, OptInt, int64_t, FftNorm);
using ManyDims = Tensor (*)(T, OptionalDims, OptionalDims, FftNorm);
using TwoDims = Tensor (*)(T, OptionalDims, IntArrayRef, FftNorm);

void def_one_dim(nb::module_& m, const char* name, OneDim f) {
  m.def(
      name,
      [f](T a, OptInt n, int64_t dim, const OptStr& norm) {
        G g;
        return f(a, n, dim, norm_of(norm));
      },
      nb::arg("input"), nb::arg("n").none() = nb::none(), nb::arg("dim") = -1,
      nb::arg("norm").none() = nb::none());
}

void def_many_dims(nb::module_& m, const char* name, ManyDims f) {
  m.def(
      name,
      [f](T a, nb::handle s, nb::handle dim, const OptStr& norm) {
        OptInts sv = optional_int_list(s), dv = optional_int_list(dim);
        G g;
        return f(a, optional_dims(sv), optional_dims(dv), norm_of(norm));
      },
      nb::arg("input"), nb::arg("s").none() = nb::none(), nb::arg("dim").none() = nb::none(),
      nb::arg("norm").none() = nb::none());
}

void def_two_dims(nb::module_& m, const char* name, TwoDims f) {
  m.def(
      name,
      [f](T a, nb::handle s, std::vector<int64_t> dim, const OptStr& norm) {
        OptInts sv = optional_int_list(s);
        G g;
        return f(a, optional_dims(sv), dim, norm_of(norm));
      },
      nb::arg("input"), nb::arg("s").none() = nb::none(),
      nb::arg("dim") = std::vector<int64_t>{-2, -1}, nb::arg("norm").none() = nb::none());
}

}  // namespace

void bind_fft(nb::module_& parent) {
  nb::module_ m = parent.def_submodule("_fft", "torch.fft over brasa's C++ transforms");
  def_one_dim(m, "fft", &fft_fft);
  def_one_dim(m, "ifft", &fft_ifft);
  def_one_dim(m, "rfft", &fft_rfft);
  def_one_dim(m, "irfft", &fft_irfft);
  def_one_dim(m, "hfft", &fft_hfft);
  def_one_dim(m, "ihfft", &fft_ihfft);
  def_many_dims(m, "fftn", &fft_fftn);
  def_many_dims(m, "ifftn", &fft_ifftn);
  def_many_dims(m, "rfftn", &fft_rfftn);
  def_many_dims(m, "irfftn", &fft_irfftn);
  def_many_dims(m, "hfftn", &fft_hfftn);
  def_many_dims(m, "ihfftn", &fft_ihfftn);
  def_two_dims(m, "fft2", &fft_fft2);
  def_two_dims(m, "ifft2", &fft_ifft2);
  def_two_dims(m, "rfft2", &fft_rfft2);
  def_two_dims(m, "irfft2", &fft_irfft2);
  def_two_dims(m, "hfft2", &fft_hfft2);
  def_two_dims(m, "ihfft2", &fft_ihfft2);
  for (const char* name : {"fftfreq", "rfftfreq"}) {
    const bool real = name[0] == 'r';
    m.def(
        name,
        [real](int64_t n, double d, std::optional<DType> dtype) {
          TensorOptions o = dtype_options(dtype);
          G g;
          return real ? fft_rfftfreq(n, d, o) : fft_fftfreq(n, d, o);
        },
        nb::arg("n"), nb::arg("d") = 1.0, nb::kw_only(), nb::arg("dtype").none() = nb::none());
  }
  for (const char* name : {"fftshift", "ifftshift"}) {
    const bool inverse = name[0] == 'i';
    m.def(
        name,
        [inverse](T a, nb::handle dim) {
          OptInts dv = optional_int_list(dim);
          G g;
          return inverse ? fft_ifftshift(a, optional_dims(dv)) : fft_fftshift(a, optional_dims(dv));
        },
        nb::arg("input"), nb::arg("dim").none() = nb::none());
  }
}

}  // namespace brasa::python
