"""Parity of the nn functions that the `torch` namespace also exposes with ATen's signatures (torch.conv1d,
torch.batch_norm, torch.dropout, torch.embedding, torch.kl_div, torch.max_pool1d, ...:
minigrad/nn/functional/aten_signatures.py): values, graphs, gradients and random draws, on real torch and on
minigrad."""
import numpy as np
import pytest

from torch_reference import import_torch

torch = import_torch()

CASES = {}
X = np.random.default_rng(0).standard_normal((2, 3, 5))


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def leaf(lib, values):
    return lib.tensor(np.array(values, np.float64), requires_grad=True)


def outcome(lib, out, *leaves):
    """The result, its node's name, and the gradients of a sum of it."""
    out.sum().backward()
    return out, out.grad_fn.name(), [x.grad for x in leaves]


@case
def convolutions_take_positional_arguments(lib):
    x, w = leaf(lib, X), leaf(lib, np.linspace(-1, 1, 24).reshape(4, 3, 2))
    x2, w2 = leaf(lib, X[None]), leaf(lib, np.linspace(-1, 1, 36).reshape(2, 2, 3, 3))
    return [outcome(lib, lib.conv1d(x, w, None, 2, 1), x, w),
            outcome(lib, lib.conv2d(x2, w2, None, 1, 1, 1, 2)[:, :, :, :], x2, w2)]


@case
def activations(lib):
    x = leaf(lib, X)
    return [outcome(lib, lib.celu(x, 0.5), x), outcome(lib, lib.selu(x * 1), x),
            outcome(lib, lib.threshold(x, 0.1, 20.0), x), outcome(lib, lib.hardshrink(x, 0.7), x),
            outcome(lib, lib.prelu(x, leaf(lib, [0.1, 0.2, 0.3])), x)]


@case
def inplace_activations(lib):
    x = leaf(lib, X)
    return [lib.celu_(x * 1), lib.selu_(x * 1).grad_fn.name(), lib.threshold_(x * 1, 0.0, -1.0)]


@case
def rrelu_draws_torchs_slopes(lib):
    lib.manual_seed(1)
    x = leaf(lib, X)
    gen = lib.Generator().manual_seed(5)
    return [outcome(lib, lib.rrelu(x, 0.1, 0.3, True), x), lib.rrelu(x.detach(), 0.1, 0.3, True, gen),
            lib.rrelu(x.detach(), training=False), lib.rrelu_(x.detach() * 1, 0.2, 0.4, True, gen)]


@case
def dropout_takes_p_and_train(lib):
    lib.manual_seed(2)
    x = leaf(lib, X)
    return [outcome(lib, lib.dropout(x, 0.5, True), x), lib.dropout(x, 0.5, False) is x,
            lib.dropout(x, 0.3, False).grad_fn]


@case
def normalizations_take_every_argument(lib):
    x = leaf(lib, X)
    mean, var = lib.zeros(3, dtype=lib.float64), lib.ones(3, dtype=lib.float64)
    w, b = leaf(lib, [0.5, 1.0, 2.0]), leaf(lib, [0.0, 0.1, -0.1])
    return [outcome(lib, lib.batch_norm(x, w, b, mean, var, True, 0.1, 1e-5, False), x, w, b), mean, var,
            outcome(lib, lib.instance_norm(x, None, None, None, None, True, 0.1, 1e-5, False), x),
            outcome(lib, lib.group_norm(x, 3, w, b), x, w, b), outcome(lib, lib.layer_norm(x, [5]), x)]


@case
def embedding_takes_the_weight_first(lib):
    w, v = leaf(lib, np.arange(6.0).reshape(3, 2)), leaf(lib, np.arange(6.0).reshape(3, 2))
    padded = lib.embedding(w, lib.tensor([0, 2, 0]), 0)
    return [outcome(lib, padded, w), outcome(lib, lib.embedding(v, lib.tensor([[1, 2]]), -1), v)]  # -1: none


@case
def max_pool2d_stride_defaults_to_the_kernel(lib):
    x = leaf(lib, X[None])
    return [outcome(lib, lib.max_pool2d(x, 2), x), lib.max_pool2d(x.detach(), 2, 1),
            lib.max_pool2d(x.detach(), 3, [], 1, 1, True)]


@case
def distances(lib):
    a, b = leaf(lib, X[0]), leaf(lib, X[1])
    return [outcome(lib, lib.cosine_similarity(a, b), a, b), outcome(lib, lib.pairwise_distance(a, b, 3.0), a, b),
            lib.cosine_similarity(a.detach(), b.detach(), 0, 1e-3)]


@case
def dropouts_in_the_torch_namespace(lib):
    lib.manual_seed(0)
    x = leaf(lib, X)
    outs = [lib.feature_dropout(x, 0.5, True), lib.alpha_dropout(x, 0.3, True), lib.feature_alpha_dropout(x, 0.2, True),
            lib.alpha_dropout(x, 0.3, False), lib.feature_dropout(x, 0.5, False)]
    y = x * 1
    lib.dropout_(y, 0.5, True)
    z = x * 1
    lib.alpha_dropout_(z, 0.5, True)
    lib.feature_dropout_(z, 0.5, True)
    lib.feature_alpha_dropout_(z, 0.5, True)
    return outcome(lib, sum(o.sum() for o in outs) + y.sum() + z.sum(), x) + [o.grad_fn for o in outs[:3]]


@case
def pools_shuffles_and_rms_norm_in_the_torch_namespace(lib):
    x = leaf(lib, X)
    values, indices = lib.max_pool1d_with_indices(x, 3, 2)
    outs = [lib.max_pool1d(x, 2), values, lib.avg_pool1d(x, 3, 1, 1), lib.avg_pool1d(x, 2, (), 0, True, False),
            lib.adaptive_avg_pool1d(x, 3), lib.rms_norm(x, [5]), lib.rms_norm(x, [3, 5], lib.ones(3, 5, dtype=lib.float64), 1e-3),
            lib.channel_shuffle(x.reshape(1, 6, 5), 3), lib.pixel_shuffle(x.reshape(1, 6, 5)[:, :4, :4].reshape(1, 4, 2, 2)
                                                                       .contiguous(), 2)]
    unshuffled = lib.pixel_unshuffle(lib.arange(16.0).reshape(1, 1, 4, 4), 2)
    return [o.grad_fn.name() for o in outs] + [indices, unshuffled] + outcome(lib, sum(o.sum() for o in outs), x)


@case
def losses_take_aten_reductions(lib):
    """ATen's reduction ints: 0 none, 1 mean, 2 sum; left out, torch's losses are unreduced (its stubs say mean)."""
    x, t = leaf(lib, X[0]), lib.tensor(np.abs(X[1]))
    y = lib.tensor([1.0, -1.0, 1.0])
    outs = [lib.kl_div(x, t), lib.kl_div(x, t, 1), lib.kl_div(x, t, 2, log_target=True),
            lib.binary_cross_entropy_with_logits(x, t.sigmoid()),
            lib.binary_cross_entropy_with_logits(x, t.sigmoid(), None, lib.ones(5) * 2, 2),
            lib.margin_ranking_loss(x[0, :3], x[1, :3], y), lib.margin_ranking_loss(x[0, :3], x[1, :3], y, 0.5, 1),
            lib.cosine_embedding_loss(x, t, y, 0.1, 2), lib.cosine_embedding_loss(x, t, y),
            lib.hinge_embedding_loss(x, lib.ones(3, 5)), lib.hinge_embedding_loss(x, -lib.ones(3, 5), 0.5, 2),
            lib.poisson_nll_loss(x, t, True, False, 1e-8, 1), lib.poisson_nll_loss(x.abs(), t, False, True, 1e-6, 0),
            lib.triplet_margin_loss(x, t, t * 2), lib.triplet_margin_loss(x, t, t * 2, 0.5, 1, 1e-6, True, 2)]
    return [(tuple(o.shape), o.grad_fn.name()) for o in outs] + outcome(lib, sum(o.sum() for o in outs), x)


@pytest.mark.parametrize("name", sorted(CASES))
def test_parity(run_both, name):
    run_both(CASES[name])
