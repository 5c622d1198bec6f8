// Op map of the fft family (cases_fft.py): torch.fft's functions by their aten names.

#include "brasa/ops/fft.h"
#include "brasa/ops/stft.h"
#include "registry.h"

namespace brasa::conformance {
namespace {

// norm / s / dim keywords; the optionals hold their values for the duration of the call.
struct FftArgs {
  std::optional<std::string> norm;
  std::optional<std::vector<int64_t>> s, dim;
  explicit FftArgs(const Args& a)
      : norm(a.kw_str("norm")),
        s(a.kw_ints("s")),
        dim(a.has("dim") ? a.kw_ints("dim") : std::nullopt) {}
  FftNorm norm_arg() const { return norm ? FftNorm(*norm) : std::nullopt; }
  OptionalDims s_arg() const { return s ? OptionalDims(IntArrayRef(*s)) : std::nullopt; }
  OptionalDims dim_arg() const { return dim ? OptionalDims(IntArrayRef(*dim)) : std::nullopt; }
};

template <Tensor (*fn)(const Tensor&, std::optional<int64_t>, int64_t, FftNorm)>
Value one_dim(const Args& a) {
  const std::optional<std::string> norm = a.kw_str("norm");
  return fn(a.tensor(0), a.kw_int("n"), a.kw_int("dim").value_or(-1),
            norm ? FftNorm(*norm) : std::nullopt);
}
template <Tensor (*fn)(const Tensor&, OptionalDims, OptionalDims, FftNorm)>
Value n_dim(const Args& a) {
  FftArgs f(a);
  return fn(a.tensor(0), f.s_arg(), f.dim_arg(), f.norm_arg());
}
template <Tensor (*fn)(const Tensor&, OptionalDims, IntArrayRef, FftNorm)>
Value two_dim(const Args& a) {
  FftArgs f(a);
  const int64_t last_two[] = {-2, -1};
  return fn(a.tensor(0), f.s_arg(), f.dim ? IntArrayRef(*f.dim) : IntArrayRef(last_two, 2),
            f.norm_arg());
}
Value stft_case(const Args& a) {
  const std::optional<std::string> pad_mode = a.kw_str("pad_mode");
  const Tensor w = a.kw_tensor("window");
  return stft(a.tensor(0), a.integer(1), a.kw_int("hop_length"), a.kw_int("win_length"),
              w.defined() ? std::optional<Tensor>(w) : std::nullopt,
              a.kw_bool("center").value_or(true), pad_mode.value_or("reflect"),
              a.kw_bool("normalized").value_or(false), a.kw_bool("onesided"),
              a.kw_bool("return_complex"));
}

Value istft_case(const Args& a) {
  const Tensor w = a.kw_tensor("window");
  return istft(a.tensor(0), a.integer(1), a.kw_int("hop_length"), a.kw_int("win_length"),
               w.defined() ? std::optional<Tensor>(w) : std::nullopt,
               a.kw_bool("center").value_or(true), a.kw_bool("normalized").value_or(false),
               a.kw_bool("onesided"), a.kw_int("length"),
               a.kw_bool("return_complex").value_or(false));
}

template <Tensor (*fn)(int64_t, double, const TensorOptions&)>
Value freq(const Args& a) {
  return fn(a.integer(0), a.size() > 1 ? a.real(1) : 1.0, a.options());
}
template <Tensor (*fn)(const Tensor&, OptionalDims)>
Value shift(const Args& a) {
  FftArgs f(a);
  return fn(a.tensor(0), f.dim_arg());
}

const OpTable kFft("fft", {
                              {"fft_fft", one_dim<fft_fft>},
                              {"fft_ifft", one_dim<fft_ifft>},
                              {"fft_rfft", one_dim<fft_rfft>},
                              {"fft_irfft", one_dim<fft_irfft>},
                              {"fft_fftn", n_dim<fft_fftn>},
                              {"fft_ifftn", n_dim<fft_ifftn>},
                              {"fft_rfftn", n_dim<fft_rfftn>},
                              {"fft_irfftn", n_dim<fft_irfftn>},
                              {"fft_fft2", two_dim<fft_fft2>},
                              {"fft_ifft2", two_dim<fft_ifft2>},
                              {"fft_rfft2", two_dim<fft_rfft2>},
                              {"fft_irfft2", two_dim<fft_irfft2>},
                              {"fft_hfft", one_dim<fft_hfft>},
                              {"stft", stft_case},
                              {"istft", istft_case},
                              {"fft_ihfft", one_dim<fft_ihfft>},
                              {"fft_hfftn", n_dim<fft_hfftn>},
                              {"fft_ihfftn", n_dim<fft_ihfftn>},
                              {"fft_hfft2", two_dim<fft_hfft2>},
                              {"fft_ihfft2", two_dim<fft_ihfft2>},
                              {"fft_fftfreq", freq<fft_fftfreq>},
                              {"fft_rfftfreq", freq<fft_rfftfreq>},
                              {"fft_fftshift", shift<fft_fftshift>},
                              {"fft_ifftshift", shift<fft_ifftshift>},
                          });

}  // namespace
}  // namespace brasa::conformance
