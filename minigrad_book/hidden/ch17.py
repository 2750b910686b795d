"""Hidden cases for chapter 17: half-precision hooks on a graph that saves int64 indices and on a float64 graph,
and checkpointed blocks with dropout (the recomputation must drop what the forward dropped) and a single block.
"""
import minigrad as torch
from minigrad.autograd.graph import saved_tensors_hooks

from widgets.exercises import check, expect
from widgets.exercises.ch17 import _blocks, _half_round_trip, _plain_then_checkpointed


@check("pack_half and unpack_half also leave int64 indices and float64 tensors as they are.")
def check_half_hooks(pack_half, unpack_half):
    for t in (torch.tensor([3, 0, 2]), torch.tensor([0.1, 1e-5, 3.0], dtype=torch.float64)):
        back = _half_round_trip(pack_half, unpack_half, t)
        expect(torch.equal(back, t), f"a {t.dtype} tensor did not come back unchanged: {back.tolist()} for "
                                     f"{t.tolist()}.")
    b = torch.tensor([[1.0, 5.0], [3.0, 2.0]], requires_grad=True)
    want = torch.autograd.grad(b.max(dim=1).values.exp().sum(), b)[0]
    with saved_tensors_hooks(pack_half, unpack_half):
        loss = b.max(dim=1).values.exp().sum()          # max saves its int64 indices
    (got,) = torch.autograd.grad(loss, b)
    expect(torch.allclose(got, want, rtol=1e-2), "through a max over rows, the gradient is wrong.")
    w = torch.tensor([0.3, -1.2], dtype=torch.float64, requires_grad=True)
    want = torch.autograd.grad((w.sin() * w).sum(), w)[0]
    with saved_tensors_hooks(pack_half, unpack_half):
        loss = (w.sin() * w).sum()
    (got,) = torch.autograd.grad(loss, w)
    expect(got.dtype == torch.float64 and torch.equal(got, want),
           "a float64 graph should give exactly its float64 gradient: its saved tensors must stay float64.")


@check("checkpointed also recomputes blocks with dropout exactly, and works for a single block.")
def check_checkpointed(checkpointed):
    for count, dropout in ((3, 0.5), (1, 0.0)):
        runs = []
        torch.manual_seed(2)
        blocks = _blocks(runs, dropout=dropout, count=count)
        (want, want_grads, _f, _b), (got, grads, _forward, backward) = _plain_then_checkpointed(
            checkpointed, blocks, lambda: torch.randn(6, 4, requires_grad=True), 3, runs)
        expect(torch.allclose(got, want, atol=1e-6), f"for {count} block(s), the output is not the plain run's.")
        expect(backward == list(range(count))[::-1], f"for {count} block(s), backward ran the blocks {backward}.")
        expect(all(g is not None and torch.allclose(g, w, atol=1e-6) for g, w in zip(grads, want_grads)),
               f"for {count} block(s){' with dropout' if dropout else ''}, the gradients are not the plain run's.")
