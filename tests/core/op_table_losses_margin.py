"""Op-table rows for the margin, embedding and likelihood losses of issue 26 (nn/functional/loss_margin.py and
loss_likelihood.py): margin_ranking, hinge_embedding, cosine_embedding, triplet_margin(_with_distance),
multilabel_soft_margin, poisson_nll and gaussian_nll, with their reductions and options, and their misuses.
Format: see op_table.py. Inputs stay away from the kinks of max(0, .) so that finite differences are valid."""
import numpy as np

from .op_table_base import FLOAT, Arg, Case, N, P


def F(L):
    return L.nn.functional


def Y(*values):
    """A constant target of ±1 labels (or 0/1 ones) that does not require grad."""
    return Arg((len(values),), "constant", FLOAT, values=values, const=True)


def _log_sigmoid(x):
    return np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))


def _reduce(losses, reduction="mean"):
    return losses.mean() if reduction == "mean" else losses.sum() if reduction == "sum" else losses


def _distance(a, b, p=2.0, eps=1e-6):
    return (np.abs(a - b + eps) ** p).sum(-1) ** (1 / p)


def _cos(a, b):
    return (a * b).sum(-1) / np.sqrt(((a * a).sum(-1) + 1e-12) * ((b * b).sum(-1) + 1e-12))


def _hinge(x, y, margin=1.0):
    return np.where(y != 1, np.maximum(margin - x, 0), 0) + np.where(y != -1, x, 0)


def _triplet(a, p, n, margin=1.0, norm=2.0, swap=False):
    neg = _distance(a, n, norm)
    if swap:
        neg = np.minimum(neg, _distance(p, n, norm))
    return np.maximum(margin + _distance(a, p, norm) - neg, 0)


def _poisson(x, y, log_input=True, full=False, eps=1e-8):
    loss = np.exp(x) - y * x if log_input else x - y * np.log(x + eps)
    if full:
        loss = loss + np.where(y <= 1, 0, y * np.log(y) - y + 0.5 * np.log(2 * np.pi * y))
    return loss


def _gaussian(x, y, var, full=False, eps=1e-6):
    var = np.maximum(var, eps)
    return 0.5 * (np.log(var) + (x - y) ** 2 / var) + (float(0.5 * np.log(2 * np.pi)) if full else 0)


def _multilabel_soft(x, y, w=1.0):
    return (-(y * _log_sigmoid(x) + (1 - y) * _log_sigmoid(-x)) * w).sum(-1) / x.shape[-1]


def _l1_distance(L):
    return lambda a, b: (a - b).abs().sum(-1)


CASES = [
    # ---- margin_ranking_loss -------------------------------------------------------------------------------
    Case("margin_ranking_loss", lambda L, a, b, y: F(L).margin_ranking_loss(a, b, y, margin=0.3),
         (N(5), N(5), Y(1, -1, 1, -1, 1)), lambda a, b, y: np.maximum(-y * (a - b) + 0.3, 0).mean()),
    Case("margin_ranking_loss_target_grad_sum", lambda L, a, b, y: F(L).margin_ranking_loss(a, b, y,
                                                                                            reduction="sum"),
         (N(4), N(4), N(4)), lambda a, b, y: np.maximum(-y * (a - b), 0).sum()),
    Case("margin_ranking_loss_none", lambda L, a, b, y: F(L).margin_ranking_loss(a, b, y, 0.5, reduction="none"),
         (N(2, 3), N(2, 3), Arg((2, 3), "constant", FLOAT, values=((1, -1, 1), (-1, -1, 1)), const=True)),
         lambda a, b, y: np.maximum(-y * (a - b) + 0.5, 0)),
    Case("MarginRankingLoss", lambda L, a, b, y: L.nn.MarginRankingLoss(0.2)(a, b, y),
         (N(4), N(4), Y(-1, 1, 1, -1)), lambda a, b, y: np.maximum(-y * (a - b) + 0.2, 0).mean()),
    # ---- hinge_embedding_loss ------------------------------------------------------------------------------
    Case("hinge_embedding_loss", lambda L, x, y: F(L).hinge_embedding_loss(x, y),
         (N(6), Y(1, -1, 1, -1, -1, 1)), lambda x, y: _hinge(x, y).mean()),
    Case("hinge_embedding_loss_margin_sum", lambda L, x, y: F(L).hinge_embedding_loss(x, y, 2.0, reduction="sum"),
         (N(5), Y(-1, -1, 1, -1, 1)), lambda x, y: _hinge(x, y, 2.0).sum()),
    Case("HingeEmbeddingLoss_none", lambda L, x, y: L.nn.HingeEmbeddingLoss(0.5, reduction="none")(x, y),
         (N(4), Y(1, -1, -1, 1)), lambda x, y: _hinge(x, y, 0.5)),
    # ---- cosine_embedding_loss -----------------------------------------------------------------------------
    Case("cosine_embedding_loss", lambda L, a, b, y: F(L).cosine_embedding_loss(a, b, y),
         (N(4, 3), N(4, 3), Y(1, -1, 1, -1)), lambda a, b, y: np.where(y == 1, 1 - _cos(a, b),
                                                                        np.maximum(_cos(a, b), 0)).mean()),
    Case("cosine_embedding_loss_margin_none", lambda L, a, b, y: F(L).cosine_embedding_loss(a, b, y, -0.5,
                                                                                            reduction="none"),
         (N(3, 4), N(3, 4), Y(-1, 1, -1)), lambda a, b, y: np.where(y == 1, 1 - _cos(a, b),
                                                                     np.maximum(_cos(a, b) + 0.5, 0))),
    Case("cosine_embedding_loss_0d_target", lambda L, a, b, y: F(L).cosine_embedding_loss(a, b, y.sum(),
                                                                                          reduction="sum"),
         (N(5), N(5), Y(1)), lambda a, b, y: 1 - _cos(a, b)),
    Case("CosineEmbeddingLoss", lambda L, a, b, y: L.nn.CosineEmbeddingLoss(margin=-1.0)(a, b, y),
         (N(2, 3), N(2, 3), Y(-1, -1)), lambda a, b, y: np.maximum(_cos(a, b) + 1.0, 0).mean()),
    # ---- triplet_margin_loss and triplet_margin_with_distance_loss ------------------------------------------
    Case("triplet_margin_loss", lambda L, a, p, n: F(L).triplet_margin_loss(a, p, n, margin=3.0),
         (N(4, 3), N(4, 3), N(4, 3)), lambda a, p, n: _triplet(a, p, n, 3.0).mean()),
    Case("triplet_margin_loss_p1_swap_sum", lambda L, a, p, n: F(L).triplet_margin_loss(a, p, n, 5.0, p=1,
                                                                                        swap=True, reduction="sum"),
         (N(3, 4), N(3, 4), N(3, 4)), lambda a, p, n: _triplet(a, p, n, 5.0, 1.0, swap=True).sum()),
    Case("triplet_margin_loss_1d_none", lambda L, a, p, n: F(L).triplet_margin_loss(a, p, n, 4.0, reduction="none"),
         (N(5), N(5), N(5)), lambda a, p, n: _triplet(a, p, n, 4.0)),
    Case("TripletMarginLoss_swap", lambda L, a, p, n: L.nn.TripletMarginLoss(margin=4.0, swap=True)(a, p, n),
         (N(3, 2), N(3, 2), N(3, 2)), lambda a, p, n: _triplet(a, p, n, 4.0, swap=True).mean()),
    Case("triplet_margin_with_distance_loss", lambda L, a, p, n: F(L).triplet_margin_with_distance_loss(
        a, p, n, margin=3.0), (N(4, 3), N(4, 3), N(4, 3)), lambda a, p, n: _triplet(a, p, n, 3.0).mean()),
    Case("triplet_margin_with_distance_loss_l1_swap", lambda L, a, p, n: F(L).triplet_margin_with_distance_loss(
        a, p, n, distance_function=_l1_distance(L), margin=6.0, swap=True, reduction="sum"),
         (N(3, 4), N(3, 4), N(3, 4)),
         lambda a, p, n: np.maximum(6.0 + np.abs(a - p).sum(-1)
                                    - np.minimum(np.abs(a - n).sum(-1), np.abs(p - n).sum(-1)), 0).sum()),
    Case("TripletMarginWithDistanceLoss", lambda L, a, p, n: L.nn.TripletMarginWithDistanceLoss(
        distance_function=L.nn.PairwiseDistance(), margin=3.0, reduction="none")(a, p, n),
         (N(2, 3), N(2, 3), N(2, 3)), lambda a, p, n: _triplet(a, p, n, 3.0)),
    # ---- multilabel_soft_margin_loss -----------------------------------------------------------------------
    Case("multilabel_soft_margin_loss", lambda L, x, y: F(L).multilabel_soft_margin_loss(x, y),
         (N(2, 3), Arg((2, 3), "constant", FLOAT, values=((1, 0, 1), (0, 0, 1)), const=True)),
         lambda x, y: _multilabel_soft(x, y).mean()),
    Case("multilabel_soft_margin_loss_weight_none", lambda L, x, y, w: F(L).multilabel_soft_margin_loss(
        x, y, weight=w, reduction="none"), (N(3, 4), N(3, 4), P(4)), _multilabel_soft),
    Case("MultiLabelSoftMarginLoss_sum", lambda L, x, y: L.nn.MultiLabelSoftMarginLoss(reduction="sum")(x, y),
         (N(4), Y(0, 1, 1, 0)), lambda x, y: _multilabel_soft(x, y).sum()),
    # ---- soft_margin_loss: an ATen kernel, SoftMarginLossBackward0 ---------------------------------------------
    Case("soft_margin_loss", lambda L, x, y: F(L).soft_margin_loss(x, y), (N(5), Y(1, -1, -1, 1, 1)),
         lambda x, y: np.log1p(np.exp(-x * y)).mean()),
    Case("soft_margin_loss_sum_2d", lambda L, x, y: F(L).soft_margin_loss(x, y, reduction="sum"),
         (N(2, 3), Arg((2, 3), "constant", FLOAT, values=((1, -1, 1), (-1, -1, 1)), const=True)),
         lambda x, y: np.log1p(np.exp(-x * y)).sum()),
    Case("SoftMarginLoss_none", lambda L, x, y: L.nn.SoftMarginLoss(reduction="none")(x, y),
         (N(4), Arg((4,), "normal", FLOAT, const=True)), lambda x, y: np.log1p(np.exp(-x * y))),
    # ---- poisson_nll_loss ----------------------------------------------------------------------------------
    Case("poisson_nll_loss", lambda L, x, y: F(L).poisson_nll_loss(x, y), (N(2, 3), P(2, 3)),
         lambda x, y: _poisson(x, y).mean()),
    Case("poisson_nll_loss_rate_full_sum", lambda L, x, y: F(L).poisson_nll_loss(x, y * 2, log_input=False,
                                                                                 full=True, reduction="sum"),
         (P(5), P(5)), lambda x, y: _poisson(x, y * 2, False, True).sum()),
    Case("PoissonNLLLoss_none", lambda L, x, y: L.nn.PoissonNLLLoss(full=True, reduction="none")(x, y * 2),
         (N(4), P(4)), lambda x, y: _poisson(x, y * 2, True, True)),
    # ---- gaussian_nll_loss ---------------------------------------------------------------------------------
    Case("gaussian_nll_loss", lambda L, x, y, v: F(L).gaussian_nll_loss(x, y, v), (N(3, 2), N(3, 2), P(3, 2)),
         lambda x, y, v: _gaussian(x, y, v).mean()),
    Case("gaussian_nll_loss_homoscedastic_full", lambda L, x, y, v: F(L).gaussian_nll_loss(x, y, v, full=True,
                                                                                           reduction="sum"),
         (N(3, 2), N(3, 2), P(3)), lambda x, y, v: _gaussian(x, y, v[:, None], True).sum()),
    Case("gaussian_nll_loss_broadcast_var_none", lambda L, x, y, v: F(L).gaussian_nll_loss(x, y, v,
                                                                                           reduction="none"),
         (N(2, 3), N(2, 3), P(2, 1)), lambda x, y, v: _gaussian(x, y, v)),
    Case("gaussian_nll_loss_float_var", lambda L, x, y: F(L).gaussian_nll_loss(x, y, 0.5), (N(4), N(4)),
         lambda x, y: _gaussian(x, y, np.full_like(x, 0.5)).mean()),
    Case("GaussianNLLLoss_eps", lambda L, x, y, v: L.nn.GaussianNLLLoss(eps=0.7)(x, y, v), (N(4), N(4), P(4)),
         lambda x, y, v: _gaussian(x, y, v, eps=0.7).mean()),
]


def _o(L, *shape):
    return L.ones(*shape)


ERRORS = [
    ("margin_ranking_loss_dims", lambda L: F(L).margin_ranking_loss(_o(L, 3), _o(L, 3), _o(L, 1, 3))),
    ("margin_ranking_loss_reduction", lambda L: F(L).margin_ranking_loss(_o(L, 3), _o(L, 3), _o(L, 3),
                                                                         reduction="avg")),
    ("hinge_embedding_loss_reduction", lambda L: F(L).hinge_embedding_loss(_o(L, 3), _o(L, 3), reduction="all")),
    ("cosine_embedding_loss_2d_target", lambda L: F(L).cosine_embedding_loss(_o(L, 2, 3), _o(L, 2, 3),
                                                                             _o(L, 2, 1))),
    ("cosine_embedding_loss_1d_inputs", lambda L: F(L).cosine_embedding_loss(_o(L, 3), _o(L, 3), _o(L, 3))),
    ("cosine_embedding_loss_2d_inputs_0d_target", lambda L: F(L).cosine_embedding_loss(_o(L, 2, 3), _o(L, 2, 3),
                                                                                       L.tensor(1.0))),
    ("triplet_margin_loss_margin", lambda L: F(L).triplet_margin_loss(_o(L, 3), _o(L, 3), _o(L, 3), margin=0)),
    ("triplet_margin_loss_dims", lambda L: F(L).triplet_margin_loss(_o(L, 2, 3), _o(L, 3), _o(L, 2, 3))),
    ("TripletMarginLoss_margin", lambda L: L.nn.TripletMarginLoss(margin=-1.0)),
    ("triplet_margin_with_distance_loss_reduction", lambda L: F(L).triplet_margin_with_distance_loss(
        _o(L, 3), _o(L, 3), _o(L, 3), reduction="avg")),
    ("triplet_margin_with_distance_loss_margin", lambda L: F(L).triplet_margin_with_distance_loss(
        _o(L, 3), _o(L, 3), _o(L, 3), margin=-0.5)),
    ("triplet_margin_with_distance_loss_dims", lambda L: F(L).triplet_margin_with_distance_loss(
        _o(L, 3), _o(L, 2, 3), _o(L, 3))),
    ("TripletMarginWithDistanceLoss_margin", lambda L: L.nn.TripletMarginWithDistanceLoss(margin=0)),
    ("multilabel_soft_margin_loss_reduction", lambda L: F(L).multilabel_soft_margin_loss(_o(L, 2, 3), _o(L, 2, 3),
                                                                                         reduction="avg")),
    ("soft_margin_loss_target_requires_grad", lambda L: F(L).soft_margin_loss(_o(L, 3),
                                                                              _o(L, 3).requires_grad_())),
    ("soft_margin_loss_sizes", lambda L: F(L).soft_margin_loss(_o(L, 4), _o(L, 3))),
    ("soft_margin_loss_reduction", lambda L: F(L).soft_margin_loss(_o(L, 3), _o(L, 3), reduction="avg")),
    ("poisson_nll_loss_reduction", lambda L: F(L).poisson_nll_loss(_o(L, 3), _o(L, 3), reduction="avg")),
    ("gaussian_nll_loss_negative_var", lambda L: F(L).gaussian_nll_loss(_o(L, 3), _o(L, 3), -_o(L, 3))),
    ("gaussian_nll_loss_negative_float_var", lambda L: F(L).gaussian_nll_loss(_o(L, 3), _o(L, 3), -1.0)),
    ("gaussian_nll_loss_var_size", lambda L: F(L).gaussian_nll_loss(_o(L, 2, 3), _o(L, 2, 3), _o(L, 3, 2))),
    ("gaussian_nll_loss_reduction", lambda L: F(L).gaussian_nll_loss(_o(L, 3), _o(L, 3), _o(L, 3),
                                                                     reduction="avg")),
]
