"""Op-table rows for F.bilinear (its TrilinearBackward0 node) and the multi-class margin losses
F.multi_margin_loss and F.multilabel_margin_loss (issue 26). Format: see op_table.py. The references are loops
over samples and classes, the definitions. PyTorch does not differentiate the losses' gradients (their node is
NotImplemented), so those rows skip gradgradcheck."""
import numpy as np

from .op_table_base import C, Case, N
from .op_table_math import K

CASES = []
ERRORS = []
NO_SECOND = "torch's multi_margin_loss_backward and multilabel_margin_loss_backward have no derivative"


def F(L):
    return L.nn.functional


def bilinear(a, b, w, bias=None):
    out = np.zeros(a.shape[:-1] + (w.shape[0],), np.result_type(a, w))
    for idx in np.ndindex(a.shape[:-1]):
        for o in range(w.shape[0]):
            out[idx + (o,)] = a[idx] @ w[o] @ b[idx]
    return out if bias is None else out + bias


def multi_margin(x, y, p=1, margin=1.0, weight=None, reduction="mean"):
    x2 = x.reshape(-1, x.shape[-1])
    losses = []
    for n, t in enumerate(np.reshape(y, -1)):
        total = 0.0
        for i in range(x2.shape[1]):
            if i != t:
                total += max(0.0, margin - x2[n, t] + x2[n, i]) ** p * (1.0 if weight is None else weight[t])
        losses.append(total / x2.shape[1])
    losses = np.array(losses, x.dtype)
    return losses.mean() if reduction == "mean" else losses.sum() if reduction == "sum" else losses


def multilabel_margin(x, y, reduction="mean"):
    x2, y2 = x.reshape(-1, x.shape[-1]), y.reshape(-1, y.shape[-1])
    losses = []
    for n in range(x2.shape[0]):
        targets = []
        for t in y2[n]:
            if t < 0:
                break
            targets.append(t)
        total = sum(max(0.0, 1 - (x2[n, j] - x2[n, i])) for j in targets for i in range(x2.shape[1])
                    if i not in targets)
        losses.append(total / x2.shape[1])
    losses = np.array(losses, x.dtype)
    return losses.mean() if reduction == "mean" else losses.sum() if reduction == "sum" else losses


TARGETS = C([0, 3, 1], "int64")
LABELS = C([[0, 2, -1, 1], [3, -1, 0, 0], [-1, 0, 0, 0]], "int64")
# scores whose margin terms stay away from 0, where the hinge has a kink
SCORES = C([[0.3, -1.2, 2.0, 0.1], [1.5, 0.4, -0.7, 2.2], [-0.6, 0.9, 0.2, -1.8]])

CASES += [
    Case("bilinear", lambda L, a, b, w, bias: F(L).bilinear(a, b, w, bias), (N(4, 3), N(4, 2), N(5, 3, 2), N(5)),
         bilinear),
    Case("bilinear_batched_no_bias", lambda L, a, b, w: L.bilinear(a, b, w), (N(2, 3, 3), N(2, 3, 4), N(2, 3, 4)),
         bilinear),
    Case("multi_margin_loss", lambda L, x, y: F(L).multi_margin_loss(x, y), (SCORES, TARGETS), multi_margin,
         gradgrad=NO_SECOND),
    Case("multi_margin_loss_p2_margin_sum", lambda L, x, y: F(L).multi_margin_loss(x, y, p=2, margin=0.5,
                                                                                  reduction="sum"),
         (SCORES, TARGETS), lambda x, y: multi_margin(x, y, 2, 0.5, reduction="sum"), gradgrad=NO_SECOND),
    Case("multi_margin_loss_weight_none", lambda L, x, y, w: F(L).multi_margin_loss(x, y, weight=w, reduction="none"),
         (SCORES, TARGETS, K([1.0, 2.0, 0.5, 3.0])), lambda x, y, w: multi_margin(x, y, weight=w, reduction="none"),
         gradgrad=NO_SECOND),
    Case("multi_margin_loss_vector", lambda L, x, y: F(L).multi_margin_loss(x, y), (C([0.3, -1.2, 2.0, 0.1]),
                                                                                   C(2, "int64")),
         multi_margin, gradgrad=NO_SECOND),
    Case("MultiMarginLoss", lambda L, x, y: L.nn.MultiMarginLoss(p=2)(x, y), (SCORES, TARGETS),
         lambda x, y: multi_margin(x, y, 2), gradgrad=NO_SECOND),
    Case("multilabel_margin_loss", lambda L, x, y: F(L).multilabel_margin_loss(x, y), (SCORES, LABELS),
         multilabel_margin, gradgrad=NO_SECOND),
    Case("multilabel_margin_loss_none", lambda L, x, y: F(L).multilabel_margin_loss(x, y, reduction="none"),
         (SCORES, LABELS), lambda x, y: multilabel_margin(x, y, "none"), gradgrad=NO_SECOND),
    Case("MultiLabelMarginLoss_sum", lambda L, x, y: L.nn.MultiLabelMarginLoss(reduction="sum")(x, y),
         (SCORES, LABELS), lambda x, y: multilabel_margin(x, y, "sum"), gradgrad=NO_SECOND),
]

ERRORS += [
    ("multi_margin_loss_p3", lambda L: F(L).multi_margin_loss(L.ones(3, 4), L.tensor([0, 3, 1]), p=3)),
    ("multi_margin_loss_target_size", lambda L: F(L).multi_margin_loss(L.ones(3, 4), L.tensor([0, 3]))),
    ("multi_margin_loss_target_range", lambda L: F(L).multi_margin_loss(L.ones(3, 4), L.tensor([0, 4, 1]))),
    ("multi_margin_loss_weight_size", lambda L: F(L).multi_margin_loss(L.ones(3, 4), L.tensor([0, 3, 1]),
                                                                       weight=L.ones(3))),
    ("multi_margin_loss_weight_2d", lambda L: F(L).multi_margin_loss(L.ones(3, 4), L.tensor([0, 3, 1]),
                                                                     weight=L.ones(4, 1))),
    ("multi_margin_loss_float_target", lambda L: F(L).multi_margin_loss(L.ones(3, 4), L.ones(3))),
    ("multi_margin_loss_3d", lambda L: F(L).multi_margin_loss(L.ones(1, 3, 4), L.tensor([0, 3, 1]))),
    ("multi_margin_loss_twice", lambda L: _twice(L)),
    ("multilabel_margin_loss_size", lambda L: F(L).multilabel_margin_loss(L.ones(3, 4), L.zeros(2, 4, dtype=L.long))),
    ("multilabel_margin_loss_range", lambda L: F(L).multilabel_margin_loss(L.ones(1, 4), L.tensor([[5, -1, 0, 0]]))),
    ("multilabel_margin_loss_float", lambda L: F(L).multilabel_margin_loss(L.ones(1, 4), L.ones(1, 4))),
    ("bilinear_batch", lambda L: F(L).bilinear(L.ones(5, 3), L.ones(4, 2), L.ones(1, 3, 2))),
    ("bilinear_input1_size", lambda L: F(L).bilinear(L.ones(4, 2), L.ones(4, 2), L.ones(1, 3, 2))),
    ("bilinear_bias_size", lambda L: F(L).bilinear(L.ones(4, 3), L.ones(4, 2), L.ones(1, 3, 2), L.ones(2))),
    ("MultiMarginLoss_p3", lambda L: L.nn.MultiMarginLoss(p=3)),
]


def _twice(L):
    """A second derivative of multi_margin_loss: PyTorch's NotImplemented node raises."""
    x = L.tensor([[0.3, -1.2, 2.0], [1.5, 0.4, -0.7]], requires_grad=True)
    (g,) = L.autograd.grad(F(L).multi_margin_loss(x, L.tensor([0, 1]), p=2), x, create_graph=True)
    return L.autograd.grad(g.sum(), x)
