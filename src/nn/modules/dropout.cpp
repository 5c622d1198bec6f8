// Dropout modules over torch::nn::functional's dropouts.

#include "brasa/nn/modules/dropout.h"

#include "brasa/core/error.h"
#include "brasa/nn/functional/dropout.h"
#include "brasa/nn/native_dropout_functions.h"

namespace brasa::nn {
namespace F = functional;

#define BRASA_DEFINE_DROPOUT(Name, call, Func)                                                   \
  void Name##Impl::reset() {                                                                     \
    BRASA_CHECK(options.p() >= 0 && options.p() <= 1,                                            \
                #Name ": dropout probability has to be between 0 and 1, but got ", options.p()); \
  }                                                                                              \
  void Name##Impl::pretty_print(std::ostream& s) const {                                         \
    s << std::boolalpha << "torch::nn::" #Name "(p=" << options.p()                              \
      << ", inplace=" << options.inplace() << ")";                                               \
  }                                                                                              \
  Tensor Name##Impl::forward(Tensor input) {                                                     \
    return F::call(input,                                                                        \
                   F::Func().p(options.p()).inplace(options.inplace()).training(is_training())); \
  }

BRASA_DEFINE_DROPOUT(Dropout, dropout, DropoutFuncOptions)
BRASA_DEFINE_DROPOUT(Dropout2d, dropout2d, Dropout2dFuncOptions)
BRASA_DEFINE_DROPOUT(Dropout3d, dropout3d, Dropout3dFuncOptions)
BRASA_DEFINE_DROPOUT(AlphaDropout, alpha_dropout, AlphaDropoutFuncOptions)
BRASA_DEFINE_DROPOUT(FeatureAlphaDropout, feature_alpha_dropout, FeatureAlphaDropoutFuncOptions)
#undef BRASA_DEFINE_DROPOUT

}  // namespace brasa::nn
