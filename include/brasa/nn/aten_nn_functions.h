#pragma once
// The nn-level functions of libtorch's at:: / torch:: namespace that brasa adds for issue 15, in
// one include (Note [nn-level at:: functions] in docs/contributing.md). compat's
// <ATen/Functions.h> includes it, and with it libtorch's older norms and tensor-list helpers
// (brasa/ops/legacy_norms.h, brasa/ops/dense_tensor_lists.h).

#include "brasa/nn/activation_functions.h"
#include "brasa/nn/ctc_loss_functions.h"
#include "brasa/nn/distance_functions.h"
#include "brasa/nn/margin_loss_functions.h"
#include "brasa/nn/native_dropout_functions.h"
#include "brasa/nn/normalization_functions.h"
#include "brasa/nn/packed_sequence_functions.h"
#include "brasa/nn/rearrange_functions.h"
#include "brasa/nn/resample_functions.h"
#include "brasa/nn/rnn_functions.h"
#include "brasa/ops/conv_variants.h"
#include "brasa/ops/dense_tensor_lists.h"
#include "brasa/ops/legacy_norms.h"
#include "brasa/ops/window.h"
