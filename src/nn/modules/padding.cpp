// Padding modules over F::pad.

#include "brasa/nn/modules/padding.h"

#include <vector>

#include "brasa/nn/functional/padding.h"
#include "print_util.h"

namespace brasa::nn {
namespace F = functional;
namespace {

template <size_t N>
std::vector<int64_t> pads(const ExpandingArray<N>& p) {
  return std::vector<int64_t>(p->begin(), p->end());
}

}  // namespace

#define BRASA_DEFINE_PAD(Name, tag, VALUE)                                         \
  void Name##Impl::pretty_print(std::ostream& stream) const {                      \
    stream << "torch::nn::" #Name "(padding=" << detail::print(options.padding()); \
    VALUE(stream << ", value=" << options.value());                                \
    stream << ")";                                                                 \
  }                                                                                \
  Tensor Name##Impl::forward(const Tensor& input) {                                \
    return F::pad(input, F::PadFuncOptions(pads(options.padding()))                \
                             .mode(enumtype::tag{})                                \
                             .value(VALUE(options.value()) + 0.0));                \
  }

#define BRASA_PAD_VALUE(x) x
#define BRASA_PAD_NO_VALUE(x)

#define BRASA_DEFINE_SHAPED_PAD(Name, tag, D)                                                   \
  Name##Impl::Name##Impl(ExpandingArray<D * 2> padding) : Name##Impl(Name##Options(padding)) {} \
  BRASA_DEFINE_PAD(Name, tag, BRASA_PAD_NO_VALUE)

#define BRASA_DEFINE_CONSTANT_PAD(D)                                                        \
  ConstantPad##D##dImpl::ConstantPad##D##dImpl(ExpandingArray<D * 2> padding, double value) \
      : ConstantPad##D##dImpl(ConstantPad##D##dOptions(padding, value)) {}                  \
  BRASA_DEFINE_PAD(ConstantPad##D##d, kConstant, BRASA_PAD_VALUE)

BRASA_DEFINE_SHAPED_PAD(ReflectionPad1d, kReflect, 1)
BRASA_DEFINE_SHAPED_PAD(ReflectionPad2d, kReflect, 2)
BRASA_DEFINE_SHAPED_PAD(ReflectionPad3d, kReflect, 3)
BRASA_DEFINE_SHAPED_PAD(ReplicationPad1d, kReplicate, 1)
BRASA_DEFINE_SHAPED_PAD(ReplicationPad2d, kReplicate, 2)
BRASA_DEFINE_SHAPED_PAD(ReplicationPad3d, kReplicate, 3)
BRASA_DEFINE_SHAPED_PAD(ZeroPad2d, kConstant, 2)
BRASA_DEFINE_CONSTANT_PAD(1)
BRASA_DEFINE_CONSTANT_PAD(2)
BRASA_DEFINE_CONSTANT_PAD(3)

}  // namespace brasa::nn
