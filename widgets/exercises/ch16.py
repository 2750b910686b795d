"""Checks for chapter 16: per-sample gradients with vmap(grad), and an ensemble run with vmap over
functional_call.

Example (a book cell):
    >>> from widgets.exercises import ch16
    >>> ch16.check_per_sample_grads(per_sample_grads)
    ✗ not yet — this is still the stub: replace the `...` with your code, then run the cell again.
"""
import minigrad as torch
from minigrad import autograd, nn

from ..i18n import N_, _
from . import Hint, check, expect


def _squared_error(w, x, y):
    return (x @ w - y) ** 2


@check(N_("per_sample_grads gives one gradient per sample, each the gradient of that sample's loss."))
def check_per_sample_grads(per_sample_grads):
    """`per_sample_grads(loss_fn, w, xs, ys)`: row i is d loss_fn(w, xs[i], ys[i]) / dw."""
    w = torch.tensor([1.0, -1.0, 0.5])
    xs = torch.tensor([[1.0, 2.0, 0.0], [0.5, 0.0, -1.0], [2.0, 1.0, 1.0], [0.0, -1.0, 3.0]])
    ys = torch.tensor([0.5, 1.0, -1.0, 2.0])
    try:
        got = per_sample_grads(_squared_error, w, xs, ys)
    except ValueError as error:
        if "same size in the mapped dimension" in str(error):
            raise Hint(_("vmap said: {error}. It maps w too, whose dimension 0 is not the samples': give w "
                         "in_dims None, in_dims=(None, 0, 0).").format(error=error))
        raise
    expect(got is not None, _("per_sample_grads returned None: it is still the stub."))
    expect(isinstance(got, torch.Tensor), _("per_sample_grads returned {type}, expected a tensor.")
           .format(type=type(got).__name__))
    rows = []
    for x, y in zip(xs, ys):
        w_leaf = w.clone().requires_grad_()
        (g,) = autograd.grad(_squared_error(w_leaf, x, y), w_leaf)
        rows.append(g)
    want = torch.stack(rows)
    if got.shape == w.shape:
        raise Hint(_("per_sample_grads returned one gradient of w's shape {shape}: that is a single gradient (of "
                     "a sum, or of one sample). vmap over the samples gives one row per sample.")
                   .format(shape=tuple(w.shape)))
    expect(got.shape == want.shape,
           _("per_sample_grads returned a tensor of shape {got}, expected {want}: one gradient of w's shape per "
             "sample. Is w mapped over too? Give it in_dims None.")
           .format(got=tuple(got.shape), want=tuple(want.shape)))
    expect(torch.allclose(got, want, atol=1e-6),
           _("per_sample_grads gave {got}, expected {want} (row i: the gradient of sample i's loss).")
           .format(got=got.tolist(), want=want.tolist()))


@check(N_("ensemble_predict runs every model on x in one vmap: the stack of each model's output."))
def check_ensemble_predict(ensemble_predict):
    """`ensemble_predict(models, x)` is torch.stack([m(x) for m in models]), with one vmap."""
    torch.manual_seed(0)
    models = [nn.Linear(3, 2) for _ in range(4)]
    x = torch.tensor([[1.0, 0.0, -1.0], [0.5, 2.0, 1.0]])
    got = ensemble_predict(models, x)
    expect(got is not None, _("ensemble_predict returned None: it is still the stub."))
    expect(isinstance(got, torch.Tensor), _("ensemble_predict returned {type}, expected a tensor.")
           .format(type=type(got).__name__))
    want = torch.stack([m(x) for m in models]).detach()
    expect(got.shape == want.shape,
           _("ensemble_predict returned shape {got}, expected {want}: one output of shape {one} per model.")
           .format(got=tuple(got.shape), want=tuple(want.shape), one=tuple(want.shape[1:])))
    if torch.allclose(got.detach(), models[0](x).detach().expand_as(want)) and not torch.allclose(got.detach(), want):
        raise Hint(_("every model gave the output of the first one: pass the stacked parameters to "
                     "functional_call, and map over them with in_dims 0."))
    expect(torch.allclose(got.detach(), want, atol=1e-6),
           _("ensemble_predict gave {got}, expected {want}.").format(got=got.tolist(), want=want.tolist()))

