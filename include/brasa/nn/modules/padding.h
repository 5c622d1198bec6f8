#pragma once
// Padding modules: ReflectionPad{1,2,3}d, ReplicationPad{1,2,3}d, ZeroPad2d and
// ConstantPad{1,2,3}d over F::pad, with libtorch's options (`ReflectionPad2d({1, 1, 2, 0})`,
// `ConstantPad1d(ConstantPad1dOptions(2, 3.5))`). `padding` lists (left, right) pairs from the
// last dim; one value pads every side. Errors as F::pad.

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/expanding_array.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

template <size_t D>
struct ReflectionPadOptions {
  ReflectionPadOptions(ExpandingArray<D * 2> padding) : padding_(padding) {}  // NOLINT
  BRASA_ARG(ExpandingArray<D * 2>, padding);
};
using ReflectionPad1dOptions = ReflectionPadOptions<1>;
using ReflectionPad2dOptions = ReflectionPadOptions<2>;
using ReflectionPad3dOptions = ReflectionPadOptions<3>;

template <size_t D>
struct ReplicationPadOptions {
  ReplicationPadOptions(ExpandingArray<D * 2> padding) : padding_(padding) {}  // NOLINT
  BRASA_ARG(ExpandingArray<D * 2>, padding);
};
using ReplicationPad1dOptions = ReplicationPadOptions<1>;
using ReplicationPad2dOptions = ReplicationPadOptions<2>;
using ReplicationPad3dOptions = ReplicationPadOptions<3>;

struct BRASA_API ZeroPad2dOptions {
  ZeroPad2dOptions(ExpandingArray<4> padding) : padding_(padding) {}  // NOLINT
  BRASA_ARG(ExpandingArray<4>, padding);
};

template <size_t D>
struct ConstantPadOptions {
  ConstantPadOptions(ExpandingArray<D * 2> padding, double value)
      : padding_(padding), value_(value) {}
  BRASA_ARG(ExpandingArray<D * 2>, padding);
  BRASA_ARG(double, value);
};
using ConstantPad1dOptions = ConstantPadOptions<1>;
using ConstantPad2dOptions = ConstantPadOptions<2>;
using ConstantPad3dOptions = ConstantPadOptions<3>;

#define BRASA_PAD_MODULE(Name, Options, ...)                            \
  class BRASA_API Name##Impl : public Cloneable<Name##Impl> {           \
   public:                                                              \
    Name##Impl(__VA_ARGS__); /* NOLINT(google-explicit-constructor) */  \
    explicit Name##Impl(const Options& options_) : options(options_) {} \
    void reset() override {}                                            \
    void pretty_print(std::ostream& stream) const override;             \
    Tensor forward(const Tensor& input);                                \
    Options options;                                                    \
  };                                                                    \
  BRASA_MODULE(Name)

BRASA_PAD_MODULE(ReflectionPad1d, ReflectionPad1dOptions, ExpandingArray<2> padding);
BRASA_PAD_MODULE(ReflectionPad2d, ReflectionPad2dOptions, ExpandingArray<4> padding);
BRASA_PAD_MODULE(ReflectionPad3d, ReflectionPad3dOptions, ExpandingArray<6> padding);
BRASA_PAD_MODULE(ReplicationPad1d, ReplicationPad1dOptions, ExpandingArray<2> padding);
BRASA_PAD_MODULE(ReplicationPad2d, ReplicationPad2dOptions, ExpandingArray<4> padding);
BRASA_PAD_MODULE(ReplicationPad3d, ReplicationPad3dOptions, ExpandingArray<6> padding);
BRASA_PAD_MODULE(ZeroPad2d, ZeroPad2dOptions, ExpandingArray<4> padding);
BRASA_PAD_MODULE(ConstantPad1d, ConstantPad1dOptions, ExpandingArray<2> padding, double value);
BRASA_PAD_MODULE(ConstantPad2d, ConstantPad2dOptions, ExpandingArray<4> padding, double value);
BRASA_PAD_MODULE(ConstantPad3d, ConstantPad3dOptions, ExpandingArray<6> padding, double value);
#undef BRASA_PAD_MODULE

}  // namespace brasa::nn
