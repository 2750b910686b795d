"""The layer classes, one file per kind, as in `torch.nn.modules`: linear, activation, loss, containers,
convolution, pooling, normalization, embedding (sparse), dropout, lazy layers.

`Module` itself is `nn/module.py`, next to `Parameter`; `nn.modules.module` names it too, so that PyTorch code
such as `nn.modules.module.register_module_forward_hook(hook)` runs unchanged.
"""
import sys

from .. import module
from .activation import ELU, GELU, SELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax, Softplus, Tanh
from .activation import (CELU, GLU, Hardshrink, Hardsigmoid, Hardswish, Hardtanh, LogSigmoid, Mish, PReLU,
                         ReLU6, RReLU, Softmax2d, Softmin, Softshrink, Softsign, Tanhshrink, Threshold)
from .attention import MultiheadAttention, NonDynamicallyQuantizableLinear
from .container import ModuleDict, ModuleList, Sequential
from .conv import Conv2d
from .data_parallel import DataParallel
from .distance import CosineSimilarity, PairwiseDistance
from .dropout import Dropout
from .lazy import LazyLinear, UninitializedParameter
from .linear import Flatten, Identity, Linear, Unflatten
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, L1Loss, MSELoss, NLLLoss, SmoothL1Loss
from .loss import KLDivLoss
from .normalization import BatchNorm1d, BatchNorm2d, LayerNorm
from .parameter_containers import ParameterDict, ParameterList
from .pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .sparse import Embedding
from .transformer import (Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder,
                          TransformerEncoderLayer)

sys.modules[f"{__name__}.module"] = module

__all__ = ["Linear", "LazyLinear", "UninitializedParameter", "Identity", "Flatten", "Unflatten", "ReLU", "Sigmoid",
           "Tanh", "Softmax", "LogSoftmax", "LeakyReLU", "ELU", "SELU", "GELU", "SiLU", "Softplus", "Sequential",
           "ModuleList", "ModuleDict", "ParameterList", "ParameterDict", "MSELoss", "NLLLoss", "CrossEntropyLoss",
           "BCELoss", "BCEWithLogitsLoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "Conv2d", "MaxPool2d", "AvgPool2d",
           "AdaptiveAvgPool2d", "Dropout", "Embedding", "LayerNorm", "BatchNorm1d", "BatchNorm2d",
           "MultiheadAttention", "NonDynamicallyQuantizableLinear", "Transformer", "TransformerEncoder",
           "TransformerDecoder", "TransformerEncoderLayer", "TransformerDecoderLayer", "DataParallel",
           "RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]
__all__ += ["Hardtanh", "ReLU6", "Hardsigmoid", "Hardswish", "Threshold", "Softshrink", "Hardshrink",
            "LogSigmoid", "Mish", "CELU", "GLU", "Softsign", "Tanhshrink", "Softmin", "Softmax2d", "PReLU", "RReLU",
            "CosineSimilarity", "PairwiseDistance", "KLDivLoss"]
from .conv import Conv1d  # noqa: E402
__all__ += ["Conv1d"]
from .normalization import GroupNorm, InstanceNorm1d, InstanceNorm2d, InstanceNorm3d  # noqa: E402
__all__ += ["GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"]
from .upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d  # noqa: E402
__all__ += ["Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"]
from .padding import *  # noqa: E402,F401,F403 - ZeroPad1d, ConstantPad2d, ReflectionPad3d, CircularPad1d, ...
__all__ += padding.__all__  # noqa: F405
from .dropout import AlphaDropout, Dropout1d, Dropout2d, Dropout3d, FeatureAlphaDropout  # noqa: E402
__all__ += ["Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout"]
from .loss_margin import *  # noqa: E402,F401,F403 - MarginRankingLoss, TripletMarginLoss, PoissonNLLLoss, ...
__all__ += ["MarginRankingLoss", "HingeEmbeddingLoss", "CosineEmbeddingLoss", "TripletMarginLoss",
            "TripletMarginWithDistanceLoss", "MultiLabelSoftMarginLoss", "PoissonNLLLoss", "GaussianNLLLoss",
            "SoftMarginLoss"]
from .pooling import AdaptiveAvgPool1d, AvgPool1d, MaxPool1d  # noqa: E402
__all__ += ["MaxPool1d", "AvgPool1d", "AdaptiveAvgPool1d"]
from .shuffle import ChannelShuffle, PixelShuffle, PixelUnshuffle  # noqa: E402
__all__ += ["PixelShuffle", "PixelUnshuffle", "ChannelShuffle"]
from .normalization import BatchNorm3d  # noqa: E402
__all__ += ["BatchNorm3d"]
from .normalization import RMSNorm  # noqa: E402
__all__ += ["RMSNorm"]
from .fold import Fold, Unfold  # noqa: E402
__all__ += ["Fold", "Unfold"]
from .conv import ConvTranspose1d, ConvTranspose2d  # noqa: E402
__all__ += ["ConvTranspose1d", "ConvTranspose2d"]
from .pooling import AdaptiveMaxPool1d, AdaptiveMaxPool2d  # noqa: E402
__all__ += ["AdaptiveMaxPool1d", "AdaptiveMaxPool2d"]
from .pooling import LPPool1d, LPPool2d, MaxUnpool1d, MaxUnpool2d  # noqa: E402
__all__ += ["MaxUnpool1d", "MaxUnpool2d", "LPPool1d", "LPPool2d"]
from .linear import Bilinear  # noqa: E402
__all__ += ["Bilinear"]
from .loss_margin import MultiLabelMarginLoss, MultiMarginLoss  # noqa: E402
__all__ += ["MultiMarginLoss", "MultiLabelMarginLoss"]
from .container import Container  # noqa: E402
from .lazy import UninitializedBuffer  # noqa: E402
from .loss import NLLLoss2d  # noqa: E402
__all__ += ["Container", "UninitializedBuffer", "NLLLoss2d"]
from .lazy import (LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d, LazyConv1d, LazyConv2d,  # noqa: E402
                   LazyConvTranspose1d, LazyConvTranspose2d, LazyInstanceNorm1d, LazyInstanceNorm2d, LazyInstanceNorm3d)
__all__ += ["LazyConv1d", "LazyConv2d", "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyBatchNorm1d",
            "LazyBatchNorm2d", "LazyBatchNorm3d", "LazyInstanceNorm1d", "LazyInstanceNorm2d", "LazyInstanceNorm3d"]
