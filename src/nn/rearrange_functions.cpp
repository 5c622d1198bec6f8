// at::pad (nn::functional::pad, one computation for both spellings) and channel_shuffle (a view
// and one copy).

#include "brasa/nn/rearrange_functions.h"

#include <algorithm>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/nn/functional/padding.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/pool.h"

namespace brasa {

Tensor pad(const Tensor& self, IntArrayRef pad, std::string_view mode,
           std::optional<double> value) {
  namespace F = nn::functional;
  F::PadFuncOptions options(pad.vec());
  if (mode == "constant") {
    return F::pad(self, options.value(value.value_or(0.0)));
  }
  BRASA_CHECK(!value.has_value(), "pad: padding mode \"", mode,
              "\" doesn't take in value argument");
  if (mode == "reflect") return F::pad(self, options.mode(enumtype::kReflect{}));
  if (mode == "replicate") return F::pad(self, options.mode(enumtype::kReplicate{}));
  if (mode == "circular") return F::pad(self, options.mode(enumtype::kCircular{}));
  BRASA_CHECK(false, "pad: unrecognised padding mode \"", mode,
              "\" (expected constant, reflect, replicate or circular)");
  return Tensor();
}

Tensor pad_sequence(ArrayRef<Tensor> sequences, bool batch_first, double padding_value) {
  BRASA_CHECK(!sequences.empty(), "pad_sequence: received an empty list of sequences");
  const Tensor& first = sequences[0];
  BRASA_CHECK(first.defined() && first.dim() >= 1,
              "pad_sequence: expected sequences of at least 1 dim [L, *], got ",
              first.defined() ? first.sizes() : IntArrayRef{});
  int64_t longest = 0;
  for (const Tensor& s : sequences) {
    BRASA_CHECK(
        s.defined() && s.dim() == first.dim() && s.sizes().slice(1) == first.sizes().slice(1),
        "pad_sequence: expected sequences of shape [L, ", first.sizes().slice(1), "], got ",
        s.defined() ? s.sizes() : IntArrayRef{});
    longest = std::max(longest, s.size(0));
  }
  std::vector<Tensor> padded;
  for (const Tensor& s : sequences) {
    // constant_pad_nd's pairs run from the last dim: zeros, then (0, longest - L) for dim 0.
    std::vector<int64_t> amounts(static_cast<size_t>(2 * s.dim()), 0);
    amounts.back() = longest - s.size(0);
    padded.push_back(constant_pad_nd(s, amounts, padding_value));
  }
  return stack(padded, batch_first ? 0 : 1);
}

Tensor channel_shuffle(const Tensor& self, int64_t groups) {
  BRASA_CHECK(self.defined() && self.dim() > 2,
              "channel_shuffle: expected an input of more than 2 dims [N, C, *], got ",
              self.defined() ? self.sizes() : IntArrayRef{});
  BRASA_CHECK(groups > 0, "channel_shuffle: the number of groups must be positive, got ", groups);
  const int64_t c = self.size(1);
  BRASA_CHECK(c % groups == 0, "channel_shuffle: the number of channels must be divisible by ",
              "groups, got ", c, " channels and ", groups, " groups (input ", self.sizes(), ")");
  std::vector<int64_t> grouped = self.sizes().vec();
  grouped[1] = c / groups;
  grouped.insert(grouped.begin() + 1, groups);
  return self.reshape(grouped).transpose(1, 2).reshape(self.sizes());
}

Tensor native_channel_shuffle(const Tensor& self, int64_t groups) {
  return channel_shuffle(self, groups);
}

}  // namespace brasa
