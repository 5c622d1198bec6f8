"""The layers of brasa.nn, each a Python Module over nn.functional (Note [nn functions in
Python])."""
from .activation import (CELU, ELU, GELU, GLU, Hardshrink, Hardsigmoid, Hardswish,  # noqa: F401
                         Hardtanh, LeakyReLU, LogSigmoid, LogSoftmax, Mish, PReLU, ReLU, ReLU6,
                         SELU, Sigmoid, SiLU, Softmax, Softmin, Softplus, Softshrink, Softsign,
                         Tanh, Tanhshrink, Threshold)
from .container import (ModuleDict, ModuleList, ParameterDict, ParameterList,  # noqa: F401
                        Sequential)
from .conv import (Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d,  # noqa: F401
                   ConvTranspose3d)
from .dropout import (AlphaDropout, Dropout, Dropout1d, Dropout2d, Dropout3d,  # noqa: F401
                      FeatureAlphaDropout)
from .flatten import Flatten, Unflatten  # noqa: F401
from .linear import Identity, Linear  # noqa: F401
from .loss import (BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss,  # noqa
                   CTCLoss, HingeEmbeddingLoss, HuberLoss, KLDivLoss, L1Loss, MarginRankingLoss,
                   MSELoss, MultiLabelMarginLoss, MultiLabelSoftMarginLoss, MultiMarginLoss,
                   NLLLoss, PoissonNLLLoss, SmoothL1Loss, SoftMarginLoss, TripletMarginLoss,
                   TripletMarginWithDistanceLoss)
from .module import Module  # noqa: F401
from .normalization import (BatchNorm1d, BatchNorm2d, BatchNorm3d, GroupNorm,  # noqa: F401
                            InstanceNorm1d, InstanceNorm2d, InstanceNorm3d, LayerNorm)
from .pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d,  # noqa: F401
                      AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d, AvgPool1d,
                      AvgPool2d, AvgPool3d, MaxPool1d, MaxPool2d, MaxPool3d)
from .sparse import Embedding  # noqa: F401
from .rearrange import (ConstantPad1d, ConstantPad2d, ConstantPad3d, PixelShuffle,  # noqa: F401
                        PixelUnshuffle, ReflectionPad1d, ReflectionPad2d, ReflectionPad3d,
                        ReplicationPad1d, ReplicationPad2d, ReplicationPad3d, Upsample, ZeroPad2d)
from .rnn import GRU, GRUCell, LSTM, LSTMCell, RNN, RNNBase, RNNCell, RNNCellBase  # noqa: F401
from .activation_attention import MultiheadAttention  # noqa: F401
from .transformer import (Transformer, TransformerDecoder, TransformerDecoderLayer,  # noqa: F401
                          TransformerEncoder, TransformerEncoderLayer)
from .fold import Fold, Unfold  # noqa: F401
from .sparse import EmbeddingBag  # noqa: F401
from .pooling import (FractionalMaxPool2d, FractionalMaxPool3d, MaxUnpool1d,  # noqa: F401
                      MaxUnpool2d, MaxUnpool3d)
from .distance import (ChannelShuffle, CosineSimilarity, CrossMapLRN2d, GaussianNLLLoss,  # noqa

                       LocalResponseNorm, LPPool1d, LPPool2d, PairwiseDistance, RReLU, Softmax2d,
                       UpsamplingBilinear2d, UpsamplingNearest2d)
from .linear import Bilinear  # noqa: F401
