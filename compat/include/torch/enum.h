#pragma once
// torch::enumtype::get_enum_name and reduction_get_enum, for the enum options of nn
// (`torch::kMean`, `torch::kReflect`, ...): the name libtorch prints ("kMean") of the alternative a
// variant holds, and the at::Reduction value of a reduction variant. Both take the options'
// EnumVariants and a program's own c10::variant of the tags.

#include <string>

#include "brasa/core/error.h"
#include "brasa/nn/functional/conv.h"
#include "brasa/nn/init_modes.h"
#include "brasa/nn/modes.h"
#include "brasa/nn/modules/rnn.h"
#include "brasa/nn/reduction.h"
#include "c10/brasa_namespaces.h"
#include "c10/util/variant.h"

namespace brasa::enumtype {

/// The visitor of get_enum_name: one overload per enum option type.
struct _compute_enum_name {
  std::string operator()(const kArea&) const { return "kArea"; }
  std::string operator()(const kBatchMean&) const { return "kBatchMean"; }
  std::string operator()(const kBicubic&) const { return "kBicubic"; }
  std::string operator()(const kBilinear&) const { return "kBilinear"; }
  std::string operator()(const kBorder&) const { return "kBorder"; }
  std::string operator()(const kCircular&) const { return "kCircular"; }
  std::string operator()(const kConstant&) const { return "kConstant"; }
  std::string operator()(const kConv1D&) const { return "kConv1D"; }
  std::string operator()(const kConv2D&) const { return "kConv2D"; }
  std::string operator()(const kConv3D&) const { return "kConv3D"; }
  std::string operator()(const kConvTranspose1D&) const { return "kConvTranspose1D"; }
  std::string operator()(const kConvTranspose2D&) const { return "kConvTranspose2D"; }
  std::string operator()(const kConvTranspose3D&) const { return "kConvTranspose3D"; }
  std::string operator()(const kFanIn&) const { return "kFanIn"; }
  std::string operator()(const kFanOut&) const { return "kFanOut"; }
  std::string operator()(const kGELU&) const { return "kGELU"; }
  std::string operator()(const kGRU&) const { return "kGRU"; }
  std::string operator()(const kLSTM&) const { return "kLSTM"; }
  std::string operator()(const kLeakyReLU&) const { return "kLeakyReLU"; }
  std::string operator()(const kLinear&) const { return "kLinear"; }
  std::string operator()(const kMax&) const { return "kMax"; }
  std::string operator()(const kMean&) const { return "kMean"; }
  std::string operator()(const kNearest&) const { return "kNearest"; }
  std::string operator()(const kNearestExact&) const { return "kNearestExact"; }
  std::string operator()(const kNone&) const { return "kNone"; }
  std::string operator()(const kRNN_RELU&) const { return "kRNN_RELU"; }
  std::string operator()(const kRNN_TANH&) const { return "kRNN_TANH"; }
  std::string operator()(const kReLU&) const { return "kReLU"; }
  std::string operator()(const kReflect&) const { return "kReflect"; }
  std::string operator()(const kReflection&) const { return "kReflection"; }
  std::string operator()(const kReplicate&) const { return "kReplicate"; }
  std::string operator()(const kSame&) const { return "kSame"; }
  std::string operator()(const kSigmoid&) const { return "kSigmoid"; }
  std::string operator()(const kSum&) const { return "kSum"; }
  std::string operator()(const kTanh&) const { return "kTanh"; }
  std::string operator()(const kTrilinear&) const { return "kTrilinear"; }
  std::string operator()(const kValid&) const { return "kValid"; }
  std::string operator()(const kZeros&) const { return "kZeros"; }
};

template <typename V>
std::string get_enum_name(V variant_enum) {
  return c10::visit(_compute_enum_name{}, variant_enum);
}

/// at::Reduction::{None, Mean, Sum} of a reduction variant; ValueError for another alternative.
template <typename V>
::brasa::Reduction::Reduction reduction_get_enum(V variant_enum) {
  if (c10::get_if<kNone>(&variant_enum)) return ::brasa::Reduction::None;
  if (c10::get_if<kMean>(&variant_enum)) return ::brasa::Reduction::Mean;
  if (c10::get_if<kSum>(&variant_enum)) return ::brasa::Reduction::Sum;
  BRASA_CHECK(false, get_enum_name(variant_enum), " is not a valid value for reduction");
  return ::brasa::Reduction::END;
}

}  // namespace brasa::enumtype
