"""Op-table rows for the nn ops added for the tutorials' PyTorch (issue 11). Format: see op_table.py."""
from .op_table_base import A, B, C, Case, I, Ix, N, P  # noqa: F401

CASES = []
ERRORS = []


# ==== activations, losses, one_hot and the softmax functions/methods (issue 11, nn point 4) ===================
# (a block of its own: other rows of this file come from other work)
import math as _math  # noqa: E402

import numpy as _np  # noqa: E402

from .op_table_base import FLOAT as _FLOAT, Arg as _Arg, _sigmoid  # noqa: E402

def _erf(x):
    return _np.vectorize(_math.erf)(x).astype(x.dtype)


def _const(*values):
    """A constant float input that does not require grad, e.g. a weight or pos_weight."""
    return _Arg((len(values),), "constant", _FLOAT, values=values, const=True)


def _gelu_tanh(x):
    return 0.5 * x * (1 + _np.tanh(_math.sqrt(2 / _math.pi) * (x + 0.044715 * x ** 3)))


def _softplus(x, beta=1.0, threshold=20.0):
    return _np.where(beta * x > threshold, x, _np.log1p(_np.exp(beta * x)) / beta)


def _log_softmax(x, dim):
    s = x - x.max(axis=dim, keepdims=True)
    return s - _np.log(_np.exp(s).sum(axis=dim, keepdims=True))


def _bce(p, t, w=1.0):
    return -w * (t * _np.maximum(_np.log(p), -100) + (1 - t) * _np.maximum(_np.log(1 - p), -100))


def _bce_logits(x, t, w=1.0, pw=1.0):
    log_sig = _np.minimum(x, 0) - _np.log1p(_np.exp(-_np.abs(x)))
    log_sig_neg = _np.minimum(-x, 0) - _np.log1p(_np.exp(-_np.abs(x)))
    return -w * (pw * t * log_sig + (1 - t) * log_sig_neg)


def _smooth_l1(d, beta):
    return _np.where(_np.abs(d) < beta, 0.5 * d * d / beta, _np.abs(d) - 0.5 * beta)


def _huber(d, delta):
    return _np.where(_np.abs(d) < delta, 0.5 * d * d, delta * (_np.abs(d) - 0.5 * delta))


def _one_hot(i, n):
    return (i[..., None] == _np.arange(n)).astype("int64")


_F = "nn.functional"


def _selu(x):
    alpha, scale = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
    return scale * _np.where(x > 0, x, alpha * _np.expm1(x))


def _fn(L):
    return L.nn.functional


CASES.extend([
    # ---- activations ------------------------------------------------------------------------------------
    Case("leaky_relu", lambda L, x: _fn(L).leaky_relu(x), (N(3, 4),), lambda x: _np.where(x > 0, x, 0.01 * x)),
    Case("leaky_relu_slope", lambda L, x: _fn(L).leaky_relu(x, 0.2), (N(5),), lambda x: _np.where(x > 0, x, 0.2 * x)),
    Case("leaky_relu_0d", lambda L, x: _fn(L).leaky_relu(x, 0.3), (N(),), lambda x: _np.where(x > 0, x, 0.3 * x)),
    Case("leaky_relu_inplace", lambda L, x: _fn(L).leaky_relu(x * 1, 0.1, inplace=True), (N(2, 3),),
         lambda x: _np.where(x > 0, x, 0.1 * x)),
    Case("leaky_relu_module", lambda L, x: L.nn.LeakyReLU(0.05)(x), (N(2, 3),),
         lambda x: _np.where(x > 0, x, 0.05 * x)),
    Case("elu", lambda L, x: _fn(L).elu(x), (N(3, 4),), lambda x: _np.where(x > 0, x, _np.expm1(x))),
    Case("elu_alpha", lambda L, x: _fn(L).elu(x, 1.5), (N(6),), lambda x: _np.where(x > 0, x, 1.5 * _np.expm1(x))),
    Case("elu_inplace", lambda L, x: _fn(L).elu(x * 1, 0.7, inplace=True), (N(2, 3),),
         lambda x: _np.where(x > 0, x, 0.7 * _np.expm1(x))),
    Case("elu_module", lambda L, x: L.nn.ELU(2.0)(x), (N(4),), lambda x: _np.where(x > 0, x, 2.0 * _np.expm1(x))),
    Case("selu", lambda L, x: _fn(L).selu(x), (N(3, 4),), _selu),
    Case("selu_inplace_module", lambda L, x: L.nn.SELU(inplace=True)(x * 1), (N(5),), _selu),
    Case("gelu", lambda L, x: _fn(L).gelu(x), (N(3, 4),), lambda x: x * 0.5 * (1 + _erf(x / _math.sqrt(2)))),
    Case("gelu_tanh", lambda L, x: _fn(L).gelu(x, approximate="tanh"), (N(3, 4),), _gelu_tanh),
    Case("gelu_0d", lambda L, x: _fn(L).gelu(x), (N(),), lambda x: x * 0.5 * (1 + _erf(x / _math.sqrt(2)))),
    Case("gelu_module_tanh", lambda L, x: L.nn.GELU("tanh")(x), (N(5),), _gelu_tanh),
    Case("silu", lambda L, x: _fn(L).silu(x), (N(3, 4),), lambda x: x * _sigmoid(x)),
    Case("silu_inplace", lambda L, x: _fn(L).silu(x * 1, inplace=True), (N(4),), lambda x: x * _sigmoid(x)),
    Case("silu_module", lambda L, x: L.nn.SiLU()(x), (N(2, 2),), lambda x: x * _sigmoid(x)),
    Case("softplus", lambda L, x: _fn(L).softplus(x), (N(3, 4),), _softplus),
    Case("softplus_beta_threshold", lambda L, x: _fn(L).softplus(x * 4, beta=2, threshold=3), (N(10),),
         lambda x: _softplus(x * 4, 2, 3)),
    Case("softplus_module", lambda L, x: L.nn.Softplus(0.5, 1.0)(x), (N(8),), lambda x: _softplus(x, 0.5, 1.0)),
    # ---- softmax as a method and a torch function -------------------------------------------------------
    Case("softmax_method", lambda L, x: x.softmax(1), (N(3, 4),), lambda x: _np.exp(_log_softmax(x, 1))),
    Case("softmax_method_neg_dim", lambda L, x: x.softmax(dim=-2), (N(3, 4),), lambda x: _np.exp(_log_softmax(x, 0))),
    Case("torch_softmax", lambda L, x: L.softmax(x, 0), (N(5),), lambda x: _np.exp(_log_softmax(x, 0))),
    Case("torch_softmax_dtype", lambda L, x: L.softmax(x, -1, dtype=L.float64), (N(2, 3, dtype="float32"),),
         lambda x: _np.exp(_log_softmax(x.astype("float64"), -1))),
    Case("log_softmax_method", lambda L, x: x.log_softmax(-1), (N(2, 5),), lambda x: _log_softmax(x, -1)),
    Case("torch_log_softmax", lambda L, x: L.log_softmax(x, 1), (N(2, 3, 2),), lambda x: _log_softmax(x, 1)),
    Case("torch_log_softmax_dtype", lambda L, x: L.log_softmax(x, 0, L.float64), (N(4, dtype="float32"),),
         lambda x: _log_softmax(x.astype("float64"), 0)),
    # ---- binary cross-entropy (probabilities made with sigmoid, so they stay inside (0, 1)) --------------
    Case("bce", lambda L, x, t: _fn(L).binary_cross_entropy(x.sigmoid(), t.sigmoid()), (N(3, 4), N(3, 4)),
         lambda x, t: _bce(_sigmoid(x), _sigmoid(t)).mean()),
    Case("bce_sum", lambda L, x, t: _fn(L).binary_cross_entropy(x.sigmoid(), t.sigmoid(), reduction="sum"),
         (N(5), N(5)), lambda x, t: _bce(_sigmoid(x), _sigmoid(t)).sum()),
    Case("bce_none", lambda L, x, t: _fn(L).binary_cross_entropy(x.sigmoid(), t.sigmoid(), reduction="none"),
         (N(2, 3), N(2, 3)), lambda x, t: _bce(_sigmoid(x), _sigmoid(t))),
    Case("bce_weight_broadcast", lambda L, x, t, w: _fn(L).binary_cross_entropy(x.sigmoid(), t.sigmoid(), w),
         (N(2, 3), N(2, 3), _const(0.5, 2.0, 1.0)), lambda x, t, w: _bce(_sigmoid(x), _sigmoid(t), w).mean()),
    Case("bce_clamped_log", lambda L, t: _fn(L).binary_cross_entropy(L.tensor([0.0, 1.0, 0.5], dtype=t.dtype), t),
         (_Arg((3,), "constant", _FLOAT, values=(1.0, 0.0, 1.0), const=True),), lambda t: _np.array(
             (100 + 100 + _math.log(2)) / 3, dtype=t.dtype), grad=False),
    Case("bce_module", lambda L, x, t: L.nn.BCELoss()(x.sigmoid(), t.sigmoid()), (N(4), N(4)),
         lambda x, t: _bce(_sigmoid(x), _sigmoid(t)).mean()),
    Case("bce_with_logits", lambda L, x, t: _fn(L).binary_cross_entropy_with_logits(x * 5, t.sigmoid()),
         (N(3, 4), N(3, 4)), lambda x, t: _bce_logits(x * 5, _sigmoid(t)).mean()),
    Case("bce_with_logits_none", lambda L, x, t: _fn(L).binary_cross_entropy_with_logits(
        x, t.sigmoid(), reduction="none"), (N(2, 3), N(2, 3)), lambda x, t: _bce_logits(x, _sigmoid(t))),
    Case("bce_with_logits_weights", lambda L, x, t, w, pw: _fn(L).binary_cross_entropy_with_logits(
        x, t.sigmoid(), w, reduction="sum", pos_weight=pw), (N(2, 3), N(2, 3), _const(1.0, 0.5, 2.0),
                                                             _const(3.0, 1.0, 0.25)),
         lambda x, t, w, pw: _bce_logits(x, _sigmoid(t), w, pw).sum()),
    Case("bce_with_logits_module_pos_weight", lambda L, x, t, pw: L.nn.BCEWithLogitsLoss(pos_weight=pw)(
        x, t.sigmoid()), (N(4, 2), N(4, 2), _const(2.0, 0.5)),
         lambda x, t, pw: _bce_logits(x, _sigmoid(t), 1, pw).mean()),
    Case("bce_with_logits_large", lambda L, x: _fn(L).binary_cross_entropy_with_logits(
        x * 100, L.ones_like(x)), (N(6),), lambda x: _bce_logits(x * 100, _np.ones_like(x)).mean()),
    # ---- l1, smooth l1, huber ---------------------------------------------------------------------------
    Case("l1_loss", lambda L, x, t: _fn(L).l1_loss(x, t), (N(3, 4), N(3, 4)), lambda x, t: _np.abs(x - t).mean()),
    Case("l1_loss_sum", lambda L, x, t: _fn(L).l1_loss(x, t, reduction="sum"), (N(5), N(5)),
         lambda x, t: _np.abs(x - t).sum()),
    Case("l1_loss_none", lambda L, x, t: _fn(L).l1_loss(x, t, reduction="none"), (N(2, 3), N(2, 3)),
         lambda x, t: _np.abs(x - t)),
    Case("l1_loss_module", lambda L, x, t: L.nn.L1Loss()(x, t), (N(4), N(4)), lambda x, t: _np.abs(x - t).mean()),
    Case("smooth_l1_loss", lambda L, x, t: _fn(L).smooth_l1_loss(x, t), (N(3, 4), N(3, 4)),
         lambda x, t: _smooth_l1(x - t, 1.0).mean()),
    Case("smooth_l1_loss_beta", lambda L, x, t: _fn(L).smooth_l1_loss(x, t, reduction="none", beta=0.5),
         (N(2, 5), N(2, 5)), lambda x, t: _smooth_l1(x - t, 0.5)),
    Case("smooth_l1_loss_beta0", lambda L, x, t: _fn(L).smooth_l1_loss(x, t, beta=0.0), (N(6), N(6)),
         lambda x, t: _np.abs(x - t).mean()),
    Case("smooth_l1_loss_module_sum", lambda L, x, t: L.nn.SmoothL1Loss(reduction="sum", beta=2.0)(x, t),
         (N(3, 3), N(3, 3)), lambda x, t: _smooth_l1(x - t, 2.0).sum()),
    Case("huber_loss", lambda L, x, t: _fn(L).huber_loss(x, t), (N(3, 4), N(3, 4)),
         lambda x, t: _huber(x - t, 1.0).mean()),
    Case("huber_loss_delta_none", lambda L, x, t: _fn(L).huber_loss(x, t, reduction="none", delta=0.5),
         (N(2, 5), N(2, 5)), lambda x, t: _huber(x - t, 0.5)),
    Case("huber_loss_module", lambda L, x, t: L.nn.HuberLoss(reduction="sum", delta=2.0)(x, t), (N(6), N(6)),
         lambda x, t: _huber(x - t, 2.0).sum()),
    # ---- one_hot ----------------------------------------------------------------------------------------
    Case("one_hot", lambda L, i: _fn(L).one_hot(i, 4), (Ix(5, high=4),), lambda i: _one_hot(i, 4), grad=False),
    Case("one_hot_infer", lambda L, i: _fn(L).one_hot(i), (C((0, 3, 1), dtype="int64"),),
         lambda i: _one_hot(i, 4), grad=False),
    Case("one_hot_2d", lambda L, i: _fn(L).one_hot(i, num_classes=3), (Ix(2, 3, high=3),),
         lambda i: _one_hot(i, 3), grad=False),
    Case("one_hot_0d", lambda L, i: _fn(L).one_hot(i, 3), (C(2, dtype="int64"),), lambda i: _one_hot(i, 3),
         grad=False),
    Case("one_hot_empty", lambda L, i: _fn(L).one_hot(i, 3), (C((), dtype="int64"),), lambda i: _np.zeros(
        (0, 3), "int64"), grad=False),
])

ERRORS.extend([
    ("gelu_approximate", lambda L: L.nn.functional.gelu(L.ones(2), approximate="foo")),
    ("gelu_int", lambda L: L.nn.functional.gelu(L.tensor([1, 2]))),
    ("leaky_relu_int", lambda L: L.nn.functional.leaky_relu(L.tensor([1, -2]))),
    ("elu_int", lambda L: L.nn.functional.elu(L.tensor([1, -2]))),
    ("silu_int", lambda L: L.nn.functional.silu(L.tensor([1, -2]))),
    ("softplus_int", lambda L: L.nn.functional.softplus(L.tensor([1, -2]))),
    ("leaky_relu_inplace_leaf", lambda L: L.nn.functional.leaky_relu(L.ones(2, requires_grad=True), inplace=True)),
    ("leaky_relu_inplace_negative_slope", lambda L: L.nn.functional.leaky_relu(
        L.ones(2, requires_grad=True) * 1, -0.1, inplace=True).sum().backward()),
    ("elu_inplace_negative_alpha", lambda L: L.nn.functional.elu(
        L.ones(2, requires_grad=True) * -1, -1.0, inplace=True).sum().backward()),
    ("softmax_no_dim", lambda L: L.softmax(L.ones(2))),
    ("softmax_method_no_dim", lambda L: L.ones(2).softmax()),
    ("softmax_dim_none", lambda L: L.softmax(L.ones(2), dim=None)),
    ("softmax_dim_range", lambda L: L.ones(2, 3).softmax(2)),
    ("log_softmax_dim_range", lambda L: L.ones(2, 3).log_softmax(-3)),
    ("softmax_int_lastdim", lambda L: L.softmax(L.tensor([1, 2]), 0)),
    ("softmax_int", lambda L: L.softmax(L.tensor([[1, 2]]), 0)),
    ("log_softmax_int", lambda L: L.log_softmax(L.tensor([[1, 2]]), 0)),
    ("bce_input_range", lambda L: L.nn.functional.binary_cross_entropy(L.tensor([0.5, 1.5]), L.tensor([0.0, 1.0]))),
    ("bce_target_range", lambda L: L.nn.functional.binary_cross_entropy(L.tensor([0.5, 0.5]), L.tensor([0.0, 1.5]))),
    ("bce_sizes", lambda L: L.nn.functional.binary_cross_entropy(L.tensor([0.5, 0.5]), L.tensor([0.0, 1.0, 1.0]))),
    ("bce_target_long", lambda L: L.nn.functional.binary_cross_entropy(L.tensor([0.5, 0.5]), L.tensor([0, 1]))),
    ("bce_reduction", lambda L: L.nn.functional.binary_cross_entropy(L.tensor([0.5]), L.tensor([1.0]),
                                                                     reduction="foo")),
    ("bce_legacy_size_average", lambda L: L.nn.functional.binary_cross_entropy(
        L.tensor([0.5]), L.tensor([1.0]), size_average=False)),
    ("bce_with_logits_sizes", lambda L: L.nn.functional.binary_cross_entropy_with_logits(
        L.tensor([0.5, 0.5]), L.tensor([0.0, 1.0, 1.0]))),
    ("smooth_l1_negative_beta", lambda L: L.nn.functional.smooth_l1_loss(L.ones(2), L.zeros(2), beta=-1.0)),
    ("huber_delta_zero", lambda L: L.nn.functional.huber_loss(L.ones(2), L.zeros(2), delta=0.0)),
    ("l1_loss_broadcast_warns", lambda L: L.nn.functional.l1_loss(L.ones(2, 3), L.zeros(3))),
    ("l1_loss_reduction", lambda L: L.nn.functional.l1_loss(L.ones(2), L.zeros(2), reduction="avg")),
    ("huber_broadcast_mismatch", lambda L: L.nn.functional.huber_loss(L.ones(2, 3), L.zeros(2))),
    ("one_hot_float", lambda L: L.nn.functional.one_hot(L.tensor([0.0, 1.0]))),
    ("one_hot_int32", lambda L: L.nn.functional.one_hot(L.tensor([0, 1], dtype=L.int32))),
    ("one_hot_bool", lambda L: L.nn.functional.one_hot(L.tensor([True, False]))),
    ("one_hot_negative", lambda L: L.nn.functional.one_hot(L.tensor([0, -1, 1]))),
    ("one_hot_too_small", lambda L: L.nn.functional.one_hot(L.tensor([0, 2, 1]), 2)),
    ("one_hot_zero_classes", lambda L: L.nn.functional.one_hot(L.tensor([0, 1]), 0)),
    ("one_hot_empty_infer", lambda L: L.nn.functional.one_hot(L.zeros(0, dtype=L.int64))),
    ("unflatten_size_type", lambda L: L.nn.Unflatten(1, 6)),
    ("unflatten_size_element", lambda L: L.nn.Unflatten(1, (2, 3.0))),
])


# ==== the layers' functional forms: conv2d, pooling, pad, norms, embedding, dropout (issue 11, nn point 4) ====
# (their rows live in op_table_layers.py and op_table_layers_errors.py, with numpy references in op_table_layers_ref.py)
from .op_table_layers import CASES as _LAYER_CASES  # noqa: E402
from .op_table_layers_errors import ERRORS as _LAYER_ERRORS  # noqa: E402

CASES.extend(_LAYER_CASES)
ERRORS.extend(_LAYER_ERRORS)
