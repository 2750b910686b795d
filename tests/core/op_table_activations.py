"""Op-table rows for the activations and distance functions of `nn.functional` (issue 26). Format: see op_table.py."""
import numpy as np

from .op_table_base import A, B, C, Arg, Case, I, Ix, N, P, _sigmoid  # noqa: F401

CASES = []
ERRORS = []


def _fn(L):
    return L.nn.functional


def _softplus(x):
    return np.log1p(np.exp(x))


def _hardswish(x):
    return x * np.clip(x + 3, 0, 6) / 6


def _softshrink(x, lambd=0.5):
    return np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, 0))


def _celu(x, alpha=1.0):
    return np.where(x > 0, x, alpha * np.expm1(x / alpha))


def _glu(x, dim):
    a, b = np.split(x, 2, axis=dim)
    return a * _sigmoid(b)


def _softmax(x, dim):
    e = np.exp(x - x.max(axis=dim, keepdims=True))
    return e / e.sum(axis=dim, keepdims=True)


def _leaky(x, slope):
    return np.where(x > 0, x, slope * x)


# ---- the piecewise-linear family: hardtanh, relu6, hardswish, threshold, the shrinks ----------------------------
# (hardsigmoid is tested in tests/nn/test_nn_parity_activations.py: torch does not differentiate its gradient, and
# the coverage test of test_ops.py takes third derivatives of every row)
CASES.extend([
    Case("hardtanh", lambda L, x: _fn(L).hardtanh(x * 2), (A(3, 4),), lambda x: np.clip(x * 2, -1, 1)),
    Case("hardtanh_bounds", lambda L, x: _fn(L).hardtanh(x, -0.5, 0.25), (A(6),), lambda x: np.clip(x, -0.5, 0.25)),
    Case("hardtanh_inplace", lambda L, x: _fn(L).hardtanh(x * 2, inplace=True), (A(2, 3),),
         lambda x: np.clip(x * 2, -1, 1)),
    Case("hardtanh_", lambda L, x: _fn(L).hardtanh_(x * 1, -0.25, 0.75), (A(5),), lambda x: np.clip(x, -0.25, 0.75)),
    Case("hardtanh_int", lambda L, i: _fn(L).hardtanh(i, -1.5, 2.5), (I(6),), lambda i: np.clip(i, -1, 2),
         grad=False),
    Case("hardtanh_module", lambda L, x: L.nn.Hardtanh(-0.5, 0.5)(x), (A(4),), lambda x: np.clip(x, -0.5, 0.5)),
    Case("relu6", lambda L, x: _fn(L).relu6(x * 5), (A(3, 4),), lambda x: np.clip(x * 5, 0, 6)),
    Case("relu6_inplace", lambda L, x: _fn(L).relu6(x * 5, inplace=True), (A(6),), lambda x: np.clip(x * 5, 0, 6)),
    Case("relu6_int", lambda L, i: _fn(L).relu6(i * 3), (I(6),), lambda i: np.clip(i * 3, 0, 6), grad=False),
    Case("relu6_module", lambda L, x: L.nn.ReLU6()(x * 5), (A(4),), lambda x: np.clip(x * 5, 0, 6)),
    Case("hardswish", lambda L, x: _fn(L).hardswish(x * 4), (A(3, 4),), lambda x: _hardswish(x * 4)),
    Case("hardswish_inplace", lambda L, x: _fn(L).hardswish(x * 4, inplace=True), (A(6),),
         lambda x: _hardswish(x * 4)),
    Case("hardswish_module", lambda L, x: L.nn.Hardswish()(x * 4), (A(2, 3),), lambda x: _hardswish(x * 4)),
    Case("threshold", lambda L, x: _fn(L).threshold(x, 0.5, 20.0), (A(3, 4),), lambda x: np.where(x > 0.5, x, 20.0)),
    Case("threshold_inplace", lambda L, x: _fn(L).threshold(x * 1, -0.5, -2.0, inplace=True), (A(6),),
         lambda x: np.where(x > -0.5, x, -2.0)),
    Case("threshold_", lambda L, x: _fn(L).threshold_(x * 1, 0.0, 1.0), (A(2, 3),), lambda x: np.where(x > 0, x, 1.0)),
    Case("threshold_int", lambda L, i: _fn(L).threshold(i, 1.5, 7.5), (I(6),), lambda i: np.where(i > 1.5, i, 7),
         grad=False),
    Case("threshold_module", lambda L, x: L.nn.Threshold(0.5, -1.0)(x), (A(5),), lambda x: np.where(x > 0.5, x, -1.0)),
    Case("softshrink", lambda L, x: _fn(L).softshrink(x), (A(2, 3),), _softshrink),
    Case("softshrink_lambd", lambda L, x: _fn(L).softshrink(x, 0.25), (A(6),), lambda x: _softshrink(x, 0.25)),
    Case("softshrink_module", lambda L, x: L.nn.Softshrink(1.0)(x * 2), (A(5),), lambda x: _softshrink(x * 2, 1.0)),
    Case("hardshrink", lambda L, x: _fn(L).hardshrink(x), (A(3, 4),), lambda x: np.where(np.abs(x) > 0.5, x, 0)),
    Case("hardshrink_module", lambda L, x: L.nn.Hardshrink(0.25)(x), (A(6),),
         lambda x: np.where(np.abs(x) > 0.25, x, 0)),
])

# ---- the smooth ones: logsigmoid, mish, celu, glu, softsign, tanhshrink, softmin ------------------------------
CASES.extend([
    Case("relu_functional_", lambda L, x: _fn(L).relu_(x * 1), (A(2, 3),), lambda x: np.maximum(x, 0)),
    Case("logsigmoid", lambda L, x: _fn(L).logsigmoid(x * 3), (N(3, 4),), lambda x: -np.log1p(np.exp(-x * 3))),
    Case("logsigmoid_large", lambda L, x: _fn(L).logsigmoid(x * 100), (A(6),),
         lambda x: np.minimum(x * 100, 0) - np.log1p(np.exp(-np.abs(x * 100)))),
    Case("logsigmoid_module", lambda L, x: L.nn.LogSigmoid()(x), (N(4),), lambda x: -np.log1p(np.exp(-x))),
    Case("mish", lambda L, x: _fn(L).mish(x * 2), (N(3, 4),), lambda x: x * 2 * np.tanh(_softplus(x * 2))),
    Case("mish_inplace", lambda L, x: _fn(L).mish(x * 1, inplace=True), (N(5),), lambda x: x * np.tanh(_softplus(x))),
    Case("mish_module", lambda L, x: L.nn.Mish()(x), (N(2, 3),), lambda x: x * np.tanh(_softplus(x))),
    Case("celu", lambda L, x: _fn(L).celu(x), (N(3, 4),), _celu),
    Case("celu_alpha", lambda L, x: _fn(L).celu(x, 2.5), (N(6),), lambda x: _celu(x, 2.5)),
    Case("celu_inplace", lambda L, x: _fn(L).celu(x * 1, 0.5, inplace=True), (N(2, 3),), lambda x: _celu(x, 0.5)),
    Case("celu_", lambda L, x: _fn(L).celu_(x * 1, 1.5), (N(5),), lambda x: _celu(x, 1.5)),
    Case("celu_module", lambda L, x: L.nn.CELU(0.75)(x), (N(4),), lambda x: _celu(x, 0.75)),
    Case("glu", lambda L, x: _fn(L).glu(x), (N(3, 4),), lambda x: _glu(x, -1)),
    Case("glu_dim0", lambda L, x: _fn(L).glu(x, 0), (N(4, 3),), lambda x: _glu(x, 0)),
    Case("glu_module", lambda L, x: L.nn.GLU(1)(x), (N(2, 6, 2),), lambda x: _glu(x, 1)),
    Case("softsign", lambda L, x: _fn(L).softsign(x), (N(3, 4),), lambda x: x / (1 + np.abs(x))),
    Case("softsign_module", lambda L, x: L.nn.Softsign()(x), (A(5),), lambda x: x / (1 + np.abs(x))),
    Case("tanhshrink", lambda L, x: _fn(L).tanhshrink(x), (N(3, 4),), lambda x: x - np.tanh(x)),
    Case("tanhshrink_module", lambda L, x: L.nn.Tanhshrink()(x), (N(5),), lambda x: x - np.tanh(x)),
    Case("softmin", lambda L, x: _fn(L).softmin(x, 1), (N(3, 4),), lambda x: _softmax(-x, 1)),
    Case("softmin_dtype", lambda L, x: _fn(L).softmin(x, -1, dtype=L.float64), (N(2, 3, dtype="float32"),),
         lambda x: _softmax(-x.astype("float64"), -1)),
    Case("softmin_module", lambda L, x: L.nn.Softmin(0)(x), (N(4, 2),), lambda x: _softmax(-x, 0)),
])

# ---- prelu and rrelu (in eval mode, or with lower == upper: no randomness in the values) ----------------------
CASES.extend([
    Case("prelu", lambda L, x, w: _fn(L).prelu(x, w), (A(2, 3, 4), N(3)),
         lambda x, w: np.where(x > 0, x, w[:, None] * x)),
    Case("prelu_one_weight", lambda L, x, w: _fn(L).prelu(x, w), (A(3, 4), N(1)),
         lambda x, w: np.where(x > 0, x, w * x)),
    Case("prelu_1d", lambda L, x, w: _fn(L).prelu(x, w), (A(5), N(1)), lambda x, w: np.where(x > 0, x, w * x)),
    Case("prelu_0d_weight", lambda L, x, w: _fn(L).prelu(x, w), (A(2, 3), N()), lambda x, w: np.where(x > 0, x, w * x)),
    Case("rrelu_eval", lambda L, x: _fn(L).rrelu(x), (A(3, 4),), lambda x: _leaky(x, (1 / 8 + 1 / 3) / 2)),
    Case("rrelu_eval_bounds", lambda L, x: _fn(L).rrelu(x, 0.1, 0.3), (A(5),), lambda x: _leaky(x, 0.2)),
    Case("rrelu_inplace", lambda L, x: _fn(L).rrelu(x * 1, inplace=True), (A(2, 3),),
         lambda x: _leaky(x, (1 / 8 + 1 / 3) / 2)),
    Case("rrelu_", lambda L, x: _fn(L).rrelu_(x * 1, 0.2, 0.4), (A(5),), lambda x: _leaky(x, 0.3)),
    Case("rrelu_training_constant_slope", lambda L, x: _fn(L).rrelu(x, 0.25, 0.25, training=True), (A(3, 4),),
         lambda x: _leaky(x, 0.25)),
    Case("rrelu_module_eval", lambda L, x: L.nn.RReLU(0.1, 0.5).eval()(x), (A(4),), lambda x: _leaky(x, 0.3)),
])

# Misuses: each must raise PyTorch's exception type with PyTorch's message.
ERRORS.extend([
    ("logsigmoid_int", lambda L: _fn(L).logsigmoid(L.tensor([1, 2]))),
    ("hardtanh_bool", lambda L: _fn(L).hardtanh(L.tensor([True]))),
    ("hardtanh_min_above_max", lambda L: _fn(L).hardtanh(L.ones(2), 1.0, -1.0)),
    ("relu6_bool", lambda L: _fn(L).relu6(L.tensor([True]))),
    ("hardswish_int", lambda L: _fn(L).hardswish(L.tensor([1, 2]))),
    ("hardsigmoid_int", lambda L: _fn(L).hardsigmoid(L.tensor([1, 2]))),
    ("hardsigmoid_double_backward", lambda L: _hardsigmoid_twice(L)),
    ("mish_int", lambda L: _fn(L).mish(L.tensor([1, 2]))),
    ("mish_inplace_leaf", lambda L: _fn(L).mish(L.ones(2, requires_grad=True), inplace=True)),
    ("celu_int", lambda L: _fn(L).celu(L.tensor([1, 2]))),
    ("celu_alpha_zero", lambda L: _fn(L).celu(L.ones(2), 0.0)),
    ("threshold_bool", lambda L: _fn(L).threshold(L.tensor([True]), 0.5, 1.0)),
    ("softshrink_negative", lambda L: _fn(L).softshrink(L.ones(2), -1.0)),
    ("softshrink_negative_double", lambda L: _fn(L).softshrink(L.ones(2, dtype=L.float64), -0.25)),
    ("softshrink_int", lambda L: _fn(L).softshrink(L.tensor([1, 2]))),
    ("hardshrink_int", lambda L: _fn(L).hardshrink(L.tensor([1, 2]))),
    ("glu_odd", lambda L: _fn(L).glu(L.ones(2, 3))),
    ("glu_0d", lambda L: _fn(L).glu(L.tensor(1.0))),
    ("glu_dim", lambda L: _fn(L).glu(L.ones(2, 4), 2)),
    ("glu_int", lambda L: _fn(L).glu(L.tensor([1, 2]))),
    ("softmin_int", lambda L: _fn(L).softmin(L.tensor([1, 2]), 0)),
    ("softmin_no_dim_warns", lambda L: _fn(L).softmin(L.ones(2, 3))),
    ("prelu_channels", lambda L: _fn(L).prelu(L.ones(2, 3), L.ones(2))),
    ("prelu_0d_input", lambda L: _fn(L).prelu(L.tensor(1.0), L.ones(2))),
    ("prelu_2d_weight", lambda L: _fn(L).prelu(L.ones(2, 3), L.ones(3, 1))),
    ("prelu_dtypes", lambda L: _fn(L).prelu(L.tensor([1, 2]), L.tensor([0.25]))),
    ("rrelu_bounds", lambda L: _fn(L).rrelu(L.ones(2), 0.5, 0.1)),
    ("rrelu_int", lambda L: _fn(L).rrelu(L.tensor([1, -1]))),
    ("rrelu_int_training", lambda L: _fn(L).rrelu(L.tensor([1, -1]), training=True)),
])


def _hardsigmoid_twice(L):
    x = L.tensor([0.5, -1.0], requires_grad=True)
    (g,) = L.autograd.grad(_fn(L).hardsigmoid(x).sum(), x, create_graph=True)
    return L.autograd.grad(g.sum(), x)


# ---- distances: normalize, cosine_similarity, pairwise_distance; the KL divergence ------------------------------
def _norm(x, p, axis):
    if p == float("inf"):
        return np.abs(x).max(axis=axis, keepdims=True)
    return (np.abs(x) ** p).sum(axis=axis, keepdims=True) ** (1 / p)


def _cosine(a, b, dim=1, eps=1e-8):
    a, b = np.broadcast_arrays(a, b)
    na = np.maximum(_norm(a, 2, dim), eps)
    nb = np.maximum(_norm(b, 2, dim), eps)
    return ((a / na) * (b / nb)).sum(axis=dim)


def _pairwise(a, b, p=2.0, eps=1e-6, keepdim=False):
    d = _norm(a - b + eps, p, -1)
    return d if keepdim else d.squeeze(-1)


_MASK = np.array([0.0, 1.0, 0.0])


def _zero_row(x):
    return x * np.array([[0.0], [1.0]], dtype=x.dtype)


def _positive_const(*shape):
    """A positive input that does not require grad (d/dt of t log t is nan at t = 0, in torch too)."""
    return Arg(shape, "positive", const=True)


def _xlogy(t):
    return np.where(t == 0, 0, t * np.log(np.where(t == 0, 1, t)))


CASES.extend([
    Case("normalize", lambda L, x: _fn(L).normalize(x), (N(3, 4),), lambda x: x / _norm(x, 2, 1)),
    Case("normalize_p1_dim0", lambda L, x: _fn(L).normalize(x, 1, 0), (A(3, 4),), lambda x: x / _norm(x, 1, 0)),
    Case("normalize_zero_row", lambda L, x: _fn(L).normalize(x * L.tensor([[0.0], [1.0]], dtype=x.dtype), dim=-1),
         (N(2, 3),), lambda x: _zero_row(x) / np.maximum(_norm(_zero_row(x), 2, -1), 1e-12),
         gradcheck=False),      # the norm is not differentiable at the zero row (torch's gradient: checked below)
    Case("cosine_similarity", lambda L, a, b: _fn(L).cosine_similarity(a, b), (N(3, 4), N(3, 4)),
         lambda a, b: _cosine(a, b)),
    Case("cosine_similarity_broadcast", lambda L, a, b: _fn(L).cosine_similarity(a, b, dim=-1), (N(2, 3), N(3)),
         lambda a, b: _cosine(a, b, -1)),
    Case("cosine_similarity_int", lambda L, a, i: _fn(L).cosine_similarity(a, i, 0), (N(4), I(4)),
         lambda a, i: _cosine(a, i.astype(a.dtype), 0)),
    Case("cosine_similarity_module", lambda L, a, b: L.nn.CosineSimilarity(0, 1e-6)(a, b), (N(3, 2), N(3, 2)),
         lambda a, b: _cosine(a, b, 0, 1e-6)),
    Case("pairwise_distance", lambda L, a, b: _fn(L).pairwise_distance(a, b), (N(3, 4), N(3, 4)),
         lambda a, b: _pairwise(a, b)),
    Case("pairwise_distance_p1_keepdim", lambda L, a, b: _fn(L).pairwise_distance(a, b, 1, keepdim=True),
         (N(3, 4), N(4)), lambda a, b: _pairwise(a, b, 1, keepdim=True)),
    Case("pairwise_distance_p3", lambda L, a, b: _fn(L).pairwise_distance(a, b, 3.0, 1e-3), (N(2, 5), N(2, 5)),
         lambda a, b: _pairwise(a, b, 3.0, 1e-3)),
    Case("pairwise_distance_inf", lambda L, a, b: _fn(L).pairwise_distance(a, b, float("inf")), (N(3, 4), N(3, 4)),
         lambda a, b: _pairwise(a, b, float("inf"))),
    Case("pairwise_distance_1d", lambda L, a, b: _fn(L).pairwise_distance(a, b), (N(5), N(5)),
         lambda a, b: _pairwise(a, b)),
    Case("pairwise_distance_module", lambda L, a, b: L.nn.PairwiseDistance(2.0, 1e-5, True)(a, b),
         (N(3, 4), N(3, 4)), lambda a, b: _pairwise(a, b, 2.0, 1e-5, True)),
    Case("kl_div_batchmean", lambda L, x, t: _fn(L).kl_div(x.log_softmax(1), t.softmax(1), reduction="batchmean"),
         (N(3, 4), N(3, 4)), lambda x, t: (_xlogy(_softmax(t, 1)) - _softmax(t, 1) * np.log(_softmax(x, 1))).sum() / 3),
    Case("kl_div_sum", lambda L, x, t: _fn(L).kl_div(x, t, reduction="sum"), (N(2, 3), P(2, 3)),
         lambda x, t: (_xlogy(t) - t * x).sum()),
    Case("kl_div_none", lambda L, x, t: _fn(L).kl_div(x, t, reduction="none"), (N(2, 3), P(2, 3)),
         lambda x, t: _xlogy(t) - t * x),
    Case("kl_div_zero_target", lambda L, x, t: _fn(L).kl_div(x, t * L.tensor([0.0, 1.0, 0.0], dtype=t.dtype),
                                                             reduction="none"), (N(2, 3), _positive_const(2, 3)),
         lambda x, t: _xlogy(t * _MASK.astype(t.dtype)) - t * _MASK.astype(t.dtype) * x),
    Case("kl_div_log_target", lambda L, x, t: _fn(L).kl_div(x, t, reduction="batchmean", log_target=True),
         (N(2, 3), N(2, 3)), lambda x, t: (np.exp(t) * (t - x)).sum() / 2),
    Case("kl_div_0d_batchmean", lambda L, x, t: _fn(L).kl_div(x, t, reduction="batchmean"), (N(), P()),
         lambda x, t: _xlogy(t) - t * x),
    Case("kl_div_module", lambda L, x, t: L.nn.KLDivLoss(reduction="sum", log_target=True)(x, t), (N(4), N(4)),
         lambda x, t: (np.exp(t) * (t - x)).sum()),
])

ERRORS.extend([
    ("normalize_int", lambda L: _fn(L).normalize(L.ones(2, 3, dtype=L.int64))),
    ("cosine_similarity_int", lambda L: _fn(L).cosine_similarity(L.ones(2, 3, dtype=L.int64), L.ones(2, 3,
                                                                                                   dtype=L.int64))),
    ("cosine_similarity_shapes", lambda L: _fn(L).cosine_similarity(L.ones(2, 3), L.ones(2, 4))),
    ("pairwise_distance_shapes", lambda L: _fn(L).pairwise_distance(L.ones(2, 3), L.ones(2, 4))),
    ("pairwise_distance_bool", lambda L: _fn(L).pairwise_distance(L.tensor([True]), L.tensor([False]))),
    ("kl_div_int", lambda L: _fn(L).kl_div(L.ones(2), L.ones(2, dtype=L.int64), reduction="sum")),
    ("kl_div_reduction", lambda L: _fn(L).kl_div(L.ones(2), L.ones(2), reduction="avg")),
    ("kl_div_mean_warns", lambda L: _fn(L).kl_div(L.ones(2), L.ones(2))),
    ("kl_div_legacy_flags_warn", lambda L: _fn(L).kl_div(L.ones(2), L.ones(2), size_average=False)),
])
