#pragma once
// torch::nn::init: in-place initialisers of parameters (run under NoGradGuard, so they work on
// leaves that require grad); each fills `tensor` and returns it. Random ones draw from the default
// generator (see manual_seed). Fan-based ones need at least 2 dims (ValueError otherwise).

#include <cstdint>
#include <tuple>

#include "brasa/core/scalar.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/enum_variant.h"
#include "brasa/nn/init_modes.h"
#include "brasa/nn/modes.h"

namespace brasa::nn::init {

using NonlinearityType =
    EnumVariant<enumtype::kLinear, enumtype::kConv1D, enumtype::kConv2D, enumtype::kConv3D,
                enumtype::kConvTranspose1D, enumtype::kConvTranspose2D, enumtype::kConvTranspose3D,
                enumtype::kSigmoid, enumtype::kTanh, enumtype::kReLU, enumtype::kLeakyReLU>;
using FanModeType = EnumVariant<enumtype::kFanIn, enumtype::kFanOut>;

/// The recommended gain for a nonlinearity (param: LeakyReLU's negative slope).
BRASA_API double calculate_gain(NonlinearityType nonlinearity, double param = 0.01);
/// (fan_in, fan_out) of a weight [out, in, *kernel]; ValueError below 2 dims.
BRASA_API std::tuple<int64_t, int64_t> _calculate_fan_in_and_fan_out(const Tensor& tensor);

BRASA_API Tensor constant_(Tensor tensor, Scalar value);
BRASA_API Tensor zeros_(Tensor tensor);
BRASA_API Tensor ones_(Tensor tensor);
/// Identity matrix; ValueError unless 2-d.
BRASA_API Tensor eye_(Tensor matrix);
/// Identity convolution kernel for a 3/4/5-d weight (ValueError otherwise).
BRASA_API Tensor dirac_(Tensor tensor, int64_t groups = 1);
BRASA_API Tensor uniform_(Tensor tensor, double low = 0, double high = 1);
BRASA_API Tensor normal_(Tensor tensor, double mean = 0, double std = 1);
/// Normal(mean, std) truncated to [a, b] (inverse-CDF sampling).
BRASA_API Tensor trunc_normal_(Tensor tensor, double mean = 0, double std = 1, double a = -2,
                               double b = 2);
/// Uniform(-b, b) with b = gain * sqrt(6 / (fan_in + fan_out)).
BRASA_API Tensor xavier_uniform_(Tensor tensor, double gain = 1.0);
/// Normal(0, gain * sqrt(2 / (fan_in + fan_out))).
BRASA_API Tensor xavier_normal_(Tensor tensor, double gain = 1.0);
/// Uniform(-b, b) with b = gain(nonlinearity, a) * sqrt(3 / fan).
BRASA_API Tensor kaiming_uniform_(Tensor tensor, double a = 0, FanModeType mode = kFanIn,
                                  NonlinearityType nonlinearity = kLeakyReLU);
/// Normal(0, gain(nonlinearity, a) / sqrt(fan)).
BRASA_API Tensor kaiming_normal_(Tensor tensor, double a = 0, FanModeType mode = kFanIn,
                                 NonlinearityType nonlinearity = kLeakyReLU);
/// A (semi-)orthogonal matrix (rows x prod(other dims)) scaled by gain; ValueError below 2 dims.
BRASA_API Tensor orthogonal_(Tensor tensor, double gain = 1.0);
/// Each column gets a `sparsity` fraction of zeros, the rest Normal(0, std); 2-d only.
BRASA_API Tensor sparse_(Tensor tensor, double sparsity, double std = 0.01);

}  // namespace brasa::nn::init
