#pragma once
// Note [Module instantiations]
// Every library module derives from Cloneable<ItsImpl>, whose clone() a program that includes the
// module headers would otherwise instantiate (with its vtable) once per module in every translation
// unit: a third of the time `#include <torch/torch.h>` takes to compile. The library instantiates
// them once (src/nn/modules/instantiations.cpp) and this header, included last by
// brasa/nn/modules.h, tells the compiler so. A module missing from the list still works; it only
// compiles more slowly in programs that use it. The list comes from the library's symbols
// (`nm -C libbrasa.so | grep 'Cloneable<.*>::clone'`); ctest check_module_instantiations checks it.

#include "brasa/nn/modules/activation.h"
#include "brasa/nn/modules/adaptive.h"
#include "brasa/nn/modules/batchnorm.h"
#include "brasa/nn/modules/container.h"
#include "brasa/nn/modules/conv.h"
#include "brasa/nn/modules/ctc_loss.h"
#include "brasa/nn/modules/distance.h"
#include "brasa/nn/modules/dropout.h"
#include "brasa/nn/modules/embedding.h"
#include "brasa/nn/modules/fold.h"
#include "brasa/nn/modules/linear.h"
#include "brasa/nn/modules/local_response_norm.h"
#include "brasa/nn/modules/loss.h"
#include "brasa/nn/modules/margin_loss.h"
#include "brasa/nn/modules/multihead_attention.h"
#include "brasa/nn/modules/normalization.h"
#include "brasa/nn/modules/padding.h"
#include "brasa/nn/modules/pixelshuffle.h"
#include "brasa/nn/modules/pooling.h"
#include "brasa/nn/modules/rnn.h"
#include "brasa/nn/modules/transformer.h"
#include "brasa/nn/modules/unpooling.h"
#include "brasa/nn/modules/upsampling.h"

/// X(Impl) for every module class of the library.
#define BRASA_NN_LIBRARY_MODULES(X)    \
  X(AdaptiveAvgPool1dImpl)             \
  X(AdaptiveAvgPool2dImpl)             \
  X(AdaptiveAvgPool3dImpl)             \
  X(AdaptiveLogSoftmaxWithLossImpl)    \
  X(AdaptiveMaxPool1dImpl)             \
  X(AdaptiveMaxPool2dImpl)             \
  X(AdaptiveMaxPool3dImpl)             \
  X(AlphaDropoutImpl)                  \
  X(AvgPool1dImpl)                     \
  X(AvgPool2dImpl)                     \
  X(AvgPool3dImpl)                     \
  X(BCELossImpl)                       \
  X(BCEWithLogitsLossImpl)             \
  X(BatchNorm1dImpl)                   \
  X(BatchNorm2dImpl)                   \
  X(BatchNorm3dImpl)                   \
  X(BilinearImpl)                      \
  X(CELUImpl)                          \
  X(CTCLossImpl)                       \
  X(ConstantPad1dImpl)                 \
  X(ConstantPad2dImpl)                 \
  X(ConstantPad3dImpl)                 \
  X(Conv1dImpl)                        \
  X(Conv2dImpl)                        \
  X(Conv3dImpl)                        \
  X(ConvTranspose1dImpl)               \
  X(ConvTranspose2dImpl)               \
  X(ConvTranspose3dImpl)               \
  X(CosineEmbeddingLossImpl)           \
  X(CosineSimilarityImpl)              \
  X(CrossEntropyLossImpl)              \
  X(CrossMapLRN2dImpl)                 \
  X(Dropout2dImpl)                     \
  X(Dropout3dImpl)                     \
  X(DropoutImpl)                       \
  X(ELUImpl)                           \
  X(EmbeddingBagImpl)                  \
  X(EmbeddingImpl)                     \
  X(FeatureAlphaDropoutImpl)           \
  X(FlattenImpl)                       \
  X(FoldImpl)                          \
  X(FractionalMaxPool2dImpl)           \
  X(FractionalMaxPool3dImpl)           \
  X(FunctionalImpl)                    \
  X(GELUImpl)                          \
  X(GLUImpl)                           \
  X(GRUCellImpl)                       \
  X(GRUImpl)                           \
  X(GroupNormImpl)                     \
  X(HardshrinkImpl)                    \
  X(HardsigmoidImpl)                   \
  X(HardswishImpl)                     \
  X(HardtanhImpl)                      \
  X(HingeEmbeddingLossImpl)            \
  X(HuberLossImpl)                     \
  X(IdentityImpl)                      \
  X(InstanceNorm1dImpl)                \
  X(InstanceNorm2dImpl)                \
  X(InstanceNorm3dImpl)                \
  X(KLDivLossImpl)                     \
  X(L1LossImpl)                        \
  X(LPPool1dImpl)                      \
  X(LPPool2dImpl)                      \
  X(LSTMCellImpl)                      \
  X(LSTMImpl)                          \
  X(LayerNormImpl)                     \
  X(LeakyReLUImpl)                     \
  X(LinearImpl)                        \
  X(LocalResponseNormImpl)             \
  X(LogSigmoidImpl)                    \
  X(LogSoftmaxImpl)                    \
  X(MSELossImpl)                       \
  X(MarginRankingLossImpl)             \
  X(MaxPool1dImpl)                     \
  X(MaxPool2dImpl)                     \
  X(MaxPool3dImpl)                     \
  X(MaxUnpool1dImpl)                   \
  X(MaxUnpool2dImpl)                   \
  X(MaxUnpool3dImpl)                   \
  X(MishImpl)                          \
  X(ModuleDictImpl)                    \
  X(ModuleListImpl)                    \
  X(MultiLabelMarginLossImpl)          \
  X(MultiLabelSoftMarginLossImpl)      \
  X(MultiMarginLossImpl)               \
  X(MultiheadAttentionImpl)            \
  X(NLLLossImpl)                       \
  X(PReLUImpl)                         \
  X(PairwiseDistanceImpl)              \
  X(ParameterDictImpl)                 \
  X(ParameterListImpl)                 \
  X(PixelShuffleImpl)                  \
  X(PixelUnshuffleImpl)                \
  X(PoissonNLLLossImpl)                \
  X(RMSNormImpl)                       \
  X(RNNCellImpl)                       \
  X(RNNImpl)                           \
  X(RReLUImpl)                         \
  X(ReLU6Impl)                         \
  X(ReLUImpl)                          \
  X(ReflectionPad1dImpl)               \
  X(ReflectionPad2dImpl)               \
  X(ReflectionPad3dImpl)               \
  X(ReplicationPad1dImpl)              \
  X(ReplicationPad2dImpl)              \
  X(ReplicationPad3dImpl)              \
  X(SELUImpl)                          \
  X(SequentialImpl)                    \
  X(SiLUImpl)                          \
  X(SigmoidImpl)                       \
  X(SmoothL1LossImpl)                  \
  X(SoftMarginLossImpl)                \
  X(Softmax2dImpl)                     \
  X(SoftmaxImpl)                       \
  X(SoftminImpl)                       \
  X(SoftplusImpl)                      \
  X(SoftshrinkImpl)                    \
  X(SoftsignImpl)                      \
  X(TanhImpl)                          \
  X(TanhshrinkImpl)                    \
  X(ThresholdImpl)                     \
  X(TransformerDecoderImpl)            \
  X(TransformerDecoderLayerImpl)       \
  X(TransformerEncoderImpl)            \
  X(TransformerEncoderLayerImpl)       \
  X(TransformerImpl)                   \
  X(TripletMarginLossImpl)             \
  X(TripletMarginWithDistanceLossImpl) \
  X(UnflattenImpl)                     \
  X(UnfoldImpl)                        \
  X(UpsampleImpl)                      \
  X(ZeroPad2dImpl)                     \
  X(detail::TransformerNormImpl)

namespace brasa::nn {
#define BRASA_EXTERN_CLONEABLE(Impl) extern template class Cloneable<Impl>;
BRASA_NN_LIBRARY_MODULES(BRASA_EXTERN_CLONEABLE)
#undef BRASA_EXTERN_CLONEABLE
}  // namespace brasa::nn
