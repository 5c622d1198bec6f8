// stft and istft: frames gathered with index_select (sample t * hop + k of frame t), windowed and
// transformed with rfft / fft; istft transforms back with irfft / ifft and overlap-adds with
// index_add, dividing by the overlap-added squared window. Autograd differentiates through those
// ops.
#include "brasa/ops/stft.h"

#include <cmath>

#include "brasa/core/error.h"
#include "brasa/core/warning.h"
#include "brasa/ops/complex.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/fft.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/pool.h"
#include "brasa/ops/reduce.h"

namespace brasa {
namespace {

/// int64 [frames * n_fft]: the sample index t * hop + k of element k of frame t.
Tensor frame_index(int64_t frames, int64_t n_fft, int64_t hop) {
  return arange(frames, kLong).mul(hop).unsqueeze(1).add(arange(n_fft, kLong)).reshape({-1});
}

/// The window (ones when absent) zero-padded to n_fft, centred.
Tensor full_window(const std::optional<Tensor>& window, int64_t n_fft, int64_t win_length,
                   const TensorOptions& options, const char* op) {
  BRASA_CHECK(win_length > 0 && win_length <= n_fft, op, ": expected 0 < win_length <= n_fft, ",
              "but got win_length=", win_length);
  Tensor w = window && window->defined() ? *window : ones({win_length}, options);
  BRASA_CHECK(w.dim() == 1 && w.size(0) == win_length, op, ": expected a 1D window tensor of ",
              "size equal to win_length=", win_length, ", but got window with size ", w.sizes());
  if (win_length == n_fft) return w;
  const int64_t left = (n_fft - win_length) / 2;
  return constant_pad_nd(w, {left, n_fft - win_length - left});
}

Tensor pad_signal(const Tensor& x, int64_t pad, std::string_view mode) {
  const Tensor x3 = x.unsqueeze(0);  // [1, B, L]: the pads take [N, C, L]
  Tensor padded;
  if (mode == "reflect") {
    padded = reflection_pad1d(x3, {pad, pad});
  } else if (mode == "replicate") {
    padded = replication_pad1d(x3, {pad, pad});
  } else if (mode == "circular") {
    padded = circular_pad1d(x3, {pad, pad});
  } else {
    BRASA_CHECK(mode == "constant", "stft: pad_mode must be \"reflect\", \"constant\", ",
                "\"replicate\" or \"circular\", got \"", mode, "\"");
    padded = constant_pad_nd(x3, {pad, pad});
  }
  return padded.squeeze(0);
}

}  // namespace

Tensor stft(const Tensor& self, int64_t n_fft, std::optional<int64_t> hop_length,
            std::optional<int64_t> win_length, const std::optional<Tensor>& window, bool normalized,
            std::optional<bool> onesided, std::optional<bool> return_complex) {
  return stft(self, n_fft, hop_length, win_length, window, /*center=*/false, "reflect", normalized,
              onesided, return_complex);
}

Tensor stft(const Tensor& self, int64_t n_fft, std::optional<int64_t> hop_length,
            std::optional<int64_t> win_length, const std::optional<Tensor>& window, bool center,
            std::string_view pad_mode, bool normalized, std::optional<bool> onesided,
            std::optional<bool> return_complex) {
  const bool complex_input =
      self.is_complex() || (window && window->defined() && window->is_complex());
  if (!return_complex && !complex_input) {
    static std::atomic<bool> warned{false};  // once per process (Note [Warn always])
    if (warning_due(warned))
      warn(
          "stft will soon require the return_complex parameter be given for real inputs, and "
          "will further require that return_complex=True in a future PyTorch release.");
  }
  BRASA_CHECK(self.dim() == 1 || self.dim() == 2, "stft: expected a 1D or 2D tensor, but got ",
              self.sizes());
  Tensor x = self.dim() == 1 ? self.unsqueeze(0) : self;
  if (center) x = pad_signal(x, n_fft / 2, pad_mode);
  const int64_t len = x.size(1);
  const int64_t hop = hop_length.value_or(n_fft / 4);
  BRASA_CHECK(n_fft > 0 && n_fft <= len, "stft: expected 0 < n_fft < ", len,
              ", but got n_fft=", n_fft);
  BRASA_CHECK(hop > 0, "stft: expected hop_length > 0, but got hop_length=", hop);
  const Tensor w = full_window(window, n_fft, win_length.value_or(n_fft), x.options(), "stft");
  const int64_t frames = 1 + (len - n_fft) / hop;
  const Tensor framed = x.index_select(1, frame_index(frames, n_fft, hop).to(x.device()))
                            .view({x.size(0), frames, n_fft})
                            .mul(w);
  const bool one = onesided.value_or(!complex_input);
  BRASA_CHECK(!(one && complex_input), "Cannot have onesided output if window or input is ",
              "complex");
  const FftNorm norm = normalized ? FftNorm("ortho") : FftNorm("backward");
  Tensor out =
      (one ? fft_rfft(framed, std::nullopt, -1, norm) : fft_fft(framed, std::nullopt, -1, norm))
          .transpose(1, 2);
  if (self.dim() == 1) out = out.squeeze(0);
  return return_complex.value_or(complex_input) ? out : view_as_real(out);
}

Tensor istft(const Tensor& self, int64_t n_fft, std::optional<int64_t> hop_length,
             std::optional<int64_t> win_length, const std::optional<Tensor>& window, bool center,
             bool normalized, std::optional<bool> onesided, std::optional<int64_t> length,
             bool return_complex) {
  const char* op = "istft";
  BRASA_CHECK_TYPE(self.is_complex(), op, " requires a complex-valued input tensor matching the ",
                   "output from stft with return_complex=True, got ", self.dtype());
  BRASA_CHECK(self.dim() == 2 || self.dim() == 3, op, ": expected a tensor with 2 or 3 ",
              "dimensions of complex dtype, but got ", self.sizes());
  const Tensor input = self.dim() == 2 ? self.unsqueeze(0) : self;
  const int64_t hop = hop_length.value_or(n_fft / 4);
  const int64_t bins = input.size(1), frames = input.size(2);
  BRASA_CHECK(n_fft > 0 && hop > 0 && hop <= win_length.value_or(n_fft), op,
              ": expected 0 < hop_length <= win_length, got hop_length=", hop);
  const bool one = onesided.value_or(bins != n_fft);
  if (one) {
    BRASA_CHECK(n_fft / 2 + 1 == bins, op, ": expected the frequency dimension (3rd to the last) ",
                "of the input tensor to match n_fft / 2 + 1 when onesided=True, but got ", bins);
  } else {
    BRASA_CHECK(n_fft == bins, op, ": expected the frequency dimension (3rd to the last) of the ",
                "input tensor to match n_fft when onesided=False, but got ", bins);
  }
  BRASA_CHECK(frames > 0, op, ": input tensor has no frames (shape ", self.sizes(), ")");
  const Tensor w =
      full_window(window, n_fft, win_length.value_or(n_fft),
                  TensorOptions(to_real_value_type(self.dtype())).device(self.device()), op);
  const FftNorm norm = normalized ? FftNorm("ortho") : FftNorm("backward");
  const Tensor spectra = input.transpose(1, 2);  // [B, frames, bins]
  Tensor framed;
  if (return_complex) {
    BRASA_CHECK(!one, op, ": cannot have onesided output if return_complex is true");
    framed = fft_ifft(spectra, n_fft, -1, norm);
  } else {
    framed = fft_irfft(one ? spectra : spectra.narrow(-1, 0, n_fft / 2 + 1), n_fft, -1, norm);
  }
  framed = framed.mul(w);
  const int64_t expected = n_fft + hop * (frames - 1);
  const Tensor index = frame_index(frames, n_fft, hop).to(self.device());
  Tensor y = zeros({input.size(0), expected}, framed.options())
                 .index_add(1, index, framed.reshape({input.size(0), -1}));
  Tensor envelope = zeros({expected}, w.options()).index_add(0, index, w.mul(w).repeat({frames}));
  const int64_t start = center ? n_fft / 2 : 0;
  const int64_t end = length ? start + *length : (center ? expected - n_fft / 2 : expected);
  const int64_t stop = std::min(end, expected);
  y = y.narrow(1, start, stop - start);
  envelope = envelope.narrow(0, start, stop - start);
  BRASA_CHECK_TYPED(RuntimeError,
                    envelope.numel() == 0 || !envelope.abs().lt(1e-11).any().item<bool>(), op,
                    ": window overlap add min: ", envelope.abs().min().item<double>());
  y = y.div(envelope);
  if (end > expected) y = constant_pad_nd(y, {0, end - expected});
  return self.dim() == 2 ? y.squeeze(0) : y;
}

}  // namespace brasa
