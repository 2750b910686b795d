"""minigrad: PyTorch's Tensor, autograd, nn and optim, re-implemented in numpy to be read.

Same names, same behaviour, same error messages as PyTorch, so that `import minigrad as torch` runs
PyTorch code unchanged. Start reading at `core/` (README.md in this folder maps the tree).
"""
from .compat import refused as _refused
__getattr__ = _refused.module_getattr(__name__)  # what minigrad leaves out on purpose, and why
import warnings as _warnings

# PyTorch makes inf and nan without a word; numpy warns when an op makes them ("invalid value encountered in
# multiply"). Ignore the RuntimeWarnings raised on minigrad's own lines only: a learner's numpy code keeps its
# warnings. perf: an np.errstate around each op instead costs 1 us, a fifth of a 16-element Mul's 5 us forward.
_warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"minigrad(\.|$)")

# The layers, bottom up: core (TensorBase, the graph, Function, the engine) on compat; the built-in ops;
# Tensor, which is TensorBase plus the methods that call the ops; the torch.* functions; nn, optim and utils.
from ._tensor.tensor import Tensor
from . import autograd, ops  # noqa: F401
from .core.dtype import (Size, bool, cdouble, cfloat, complex64, complex128, double, dtype, float, float16, float32,
                         float64, half, int, int8, int16, int32, int64, long, short, uint8, uint16, uint32, uint64)
from ._tensor.creation import (Generator, arange, as_tensor, empty, empty_like, eye, from_numpy, full, full_like,
                               get_default_dtype, is_tensor, linspace, manual_seed, ones, ones_like, rand, randint,
                               randn, randperm, tensor, zeros, zeros_like)
from ._tensor.functions import (abs, add, argmax, argmin, cat, clamp, clip, clone, div, dot, exp, flatten, log, matmul,
                                max, mean, min, mm, mul, mv, neg, norm, pow, relu, reshape, sigmoid, sort, sqrt,
                                squeeze, stack, sub, sum, t, tanh, transpose, unsqueeze, where)
from ._tensor.math_functions import *  # noqa: F401,F403 - torch.sin, torch.std, ...: see its __all__
from ._tensor.shape_functions import *  # noqa: F401,F403 - torch.split, torch.gather, ...: see its __all__
from ._tensor.dtype_functions import *  # noqa: F401,F403 - torch.device, torch.iinfo, torch.equal, ...: see its __all__
from ._tensor.alias_functions import *  # noqa: F401,F403 - torch.eq, torch.subtract, torch.concat, ...: its __all__
from ._tensor.settings_functions import *  # noqa: F401,F403 - torch.pi, set_default_dtype, set_printoptions, ...
from ._tensor.elementwise_functions import *  # noqa: F401,F403 - torch.logaddexp, hypot, lgamma, xlogy, ...
from ._tensor.selection_functions import *  # noqa: F401,F403 - torch.median, unique, isin, searchsorted, ...
from ._tensor.layout_functions import *  # noqa: F401,F403 - torch.meshgrid, atleast_2d, hstack, tensordot, ...
from ._tensor.formula_factories import *  # noqa: F401,F403 - torch.logspace, hann_window, ...: see its __all__
from .random.functions import *  # noqa: F401,F403 - torch.normal, torch.multinomial, torch.seed, ...: see its __all__
from .autograd import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .autograd import functional  # noqa: F401 - Jacobians and Hessians, built on the ops
from .autograd.grad_mode import is_inference, is_inference_mode_enabled
from .autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled, set_anomaly_enabled
from . import func, nn, optim, utils
from .func import vmap  # noqa: F401 - torch.vmap is torch.func.vmap
from . import backends, cpu, cuda, linalg, return_types, special, testing, types, version
from ._tensor.functions import log_softmax, softmax
from .serialization import load, save  # also binds minigrad.serialization, as torch.serialization
from .nn.functional.distance_matrix import cdist, pdist  # torch.cdist and torch.pdist

__version__ = version.__version__      # a TorchVersion: `torch.__version__ >= "2.0"` compares as versions
from .nn.functional.aten_signatures import *  # noqa: E402,F401,F403 - torch.conv1d, torch.batch_norm, ...: ATen signatures
