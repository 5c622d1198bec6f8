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
#include "brasa/nn/modules/batchnorm.h"
#include "brasa/nn/modules/container.h"
#include "brasa/nn/modules/conv.h"
#include "brasa/nn/modules/dropout.h"
#include "brasa/nn/modules/embedding.h"
#include "brasa/nn/modules/linear.h"
#include "brasa/nn/modules/loss.h"
#include "brasa/nn/modules/multihead_attention.h"
#include "brasa/nn/modules/normalization.h"
#include "brasa/nn/modules/pixelshuffle.h"
#include "brasa/nn/modules/pooling.h"
#include "brasa/nn/modules/rnn.h"
#include "brasa/nn/modules/transformer.h"
#include "brasa/nn/modules/upsampling.h"

/// X(Impl) for every module class of the library.
#define BRASA_NN_LIBRARY_MODULES(X) \
  X(AdaptiveAvgPool1dImpl)          \
  X(AdaptiveAvgPool2dImpl)          \
  X(AdaptiveAvgPool3dImpl)          \
  X(AdaptiveMaxPool1dImpl)          \
  X(AdaptiveMaxPool2dImpl)          \
  X(AdaptiveMaxPool3dImpl)          \
  X(AlphaDropoutImpl)               \
  X(AvgPool1dImpl)                  \
  X(AvgPool2dImpl)                  \
  X(AvgPool3dImpl)                  \
  X(BCELossImpl)                    \
  X(BCEWithLogitsLossImpl)          \
  X(BatchNorm1dImpl)                \
  X(BatchNorm2dImpl)                \
  X(BatchNorm3dImpl)                \
  X(BilinearImpl)                   \
  X(CELUImpl)                       \
  X(Conv1dImpl)                     \
  X(Conv2dImpl)                     \
  X(Conv3dImpl)                     \
  X(ConvTranspose1dImpl)            \
  X(ConvTranspose2dImpl)            \
  X(ConvTranspose3dImpl)            \
  X(CosineEmbeddingLossImpl)        \
  X(CrossEntropyLossImpl)           \
  X(Dropout2dImpl)                  \
  X(Dropout3dImpl)                  \
  X(DropoutImpl)                    \
  X(ELUImpl)                        \
  X(EmbeddingBagImpl)               \
  X(EmbeddingImpl)                  \
  X(FlattenImpl)                    \
  X(FunctionalImpl)                 \
  X(GELUImpl)                       \
  X(GLUImpl)                        \
  X(GRUCellImpl)                    \
  X(GRUImpl)                        \
  X(GroupNormImpl)                  \
  X(HardsigmoidImpl)                \
  X(HardswishImpl)                  \
  X(HardtanhImpl)                   \
  X(HuberLossImpl)                  \
  X(IdentityImpl)                   \
  X(InstanceNorm1dImpl)             \
  X(InstanceNorm2dImpl)             \
  X(InstanceNorm3dImpl)             \
  X(KLDivLossImpl)                  \
  X(L1LossImpl)                     \
  X(LSTMCellImpl)                   \
  X(LSTMImpl)                       \
  X(LayerNormImpl)                  \
  X(LeakyReLUImpl)                  \
  X(LinearImpl)                     \
  X(LogSigmoidImpl)                 \
  X(LogSoftmaxImpl)                 \
  X(MSELossImpl)                    \
  X(MarginRankingLossImpl)          \
  X(MaxPool1dImpl)                  \
  X(MaxPool2dImpl)                  \
  X(MaxPool3dImpl)                  \
  X(MishImpl)                       \
  X(ModuleDictImpl)                 \
  X(ModuleListImpl)                 \
  X(MultiheadAttentionImpl)         \
  X(NLLLossImpl)                    \
  X(ParameterDictImpl)              \
  X(ParameterListImpl)              \
  X(PixelShuffleImpl)               \
  X(PixelUnshuffleImpl)             \
  X(RMSNormImpl)                    \
  X(RNNCellImpl)                    \
  X(RNNImpl)                        \
  X(ReLU6Impl)                      \
  X(ReLUImpl)                       \
  X(SELUImpl)                       \
  X(SequentialImpl)                 \
  X(SiLUImpl)                       \
  X(SigmoidImpl)                    \
  X(SmoothL1LossImpl)               \
  X(SoftmaxImpl)                    \
  X(SoftplusImpl)                   \
  X(SoftsignImpl)                   \
  X(TanhImpl)                       \
  X(TransformerDecoderImpl)         \
  X(TransformerDecoderLayerImpl)    \
  X(TransformerEncoderImpl)         \
  X(TransformerEncoderLayerImpl)    \
  X(TransformerImpl)                \
  X(UnflattenImpl)                  \
  X(UpsampleImpl)                   \
  X(detail::TransformerNormImpl)

namespace brasa::nn {
#define BRASA_EXTERN_CLONEABLE(Impl) extern template class Cloneable<Impl>;
BRASA_NN_LIBRARY_MODULES(BRASA_EXTERN_CLONEABLE)
#undef BRASA_EXTERN_CLONEABLE
}  // namespace brasa::nn
