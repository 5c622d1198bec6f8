#pragma once
// Padding and channel shuffling in libtorch's at:: / torch:: spellings (`torch::pad(x, {1, 1},
// "reflect")`, `at::channel_shuffle(x, 2)`), with libtorch 1.13's signatures and defaults.

#include <cstdint>
#include <optional>
#include <string_view>

#include "brasa/core/array_ref.h"
#include "brasa/core/tensor.h"

namespace brasa {

/// nn::functional::pad with mode "constant" (any dims; negative pads crop), "reflect",
/// "replicate" or "circular"; `pad` lists (left, right) pairs from the last dim. ValueError for
/// another mode, or a value with a mode other than "constant".
BRASA_API Tensor pad(const Tensor& self, IntArrayRef pad, std::string_view mode = "constant",
                     std::optional<double> value = std::nullopt);
/// The sequences [L_i, *] padded with padding_value to the longest L and stacked: [L, B, *], or
/// [B, L, *] when batch_first. ValueError for an empty list or trailing sizes that differ.
BRASA_API Tensor pad_sequence(ArrayRef<Tensor> sequences, bool batch_first = false,
                              double padding_value = 0.0);
/// input [N, C, *] (3 dims or more): channels regrouped from [groups, C / groups] to
/// [C / groups, groups]. ValueError unless groups > 0 divides C.
BRASA_API Tensor channel_shuffle(const Tensor& self, int64_t groups);
/// channel_shuffle (libtorch's kernel of the same op).
BRASA_API Tensor native_channel_shuffle(const Tensor& self, int64_t groups);

}  // namespace brasa
