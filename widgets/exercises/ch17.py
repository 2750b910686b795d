"""Checks for chapter 17: pack/unpack hooks that keep saved tensors in half precision, and a stack of blocks run
through non-reentrant checkpoints.

Example (a book cell):
    >>> from widgets.exercises import ch17
    >>> ch17.check_checkpointed(checkpointed)
    ✗ not yet — checkpointed returned None: it is still the stub, or it forgot to return.
"""
import minigrad as torch
from minigrad import nn
from minigrad.autograd.graph import saved_tensors_hooks

from ..i18n import N_, _
from . import Hint, check, expect


def _tensors_in(packed):
    """The tensors in what a pack hook returned: the object itself, or the items of a tuple, list or dict."""
    if isinstance(packed, dict):
        packed = list(packed.values())
    items = packed if isinstance(packed, (tuple, list)) else [packed]
    return [t for t in items if isinstance(t, torch.Tensor)]


def _half_round_trip(pack_half, unpack_half, t):
    """pack then unpack `t`; checks that a float32 tensor is kept as float16 and comes back as float32."""
    packed = pack_half(t)
    expect(packed is not None, _("pack_half returned None: it is still the stub, or it forgot to return."))
    kept = _tensors_in(packed)
    expect(kept, _("pack_half returned {type} with no tensor in it: keep the tensor (in float16) in what it "
                   "returns.").format(type=type(packed).__name__))
    if t.dtype == torch.float32:
        if any(k.dtype == torch.float32 for k in kept):
            raise Hint(_("pack_half kept a float32 tensor: the graph holds as much memory as before. Keep "
                         "t.half() instead."))
        expect(any(k.dtype == torch.float16 for k in kept),
               _("pack_half kept {dtypes} for a float32 tensor, expected a float16 one (t.half()).")
               .format(dtypes=[str(k.dtype) for k in kept]))
    back = unpack_half(packed)
    expect(isinstance(back, torch.Tensor), _("unpack_half returned {type}, expected a tensor.")
           .format(type=type(back).__name__))
    if t.dtype == torch.float32 and back.dtype == torch.float16:
        raise Hint(_("unpack_half gave a float16 tensor back: backward would then compute in half precision. "
                     "Convert it back to float32: t.float(), or t.to() with the dtype pack_half kept."))
    expect(back.dtype == t.dtype, _("unpack_half gave {got} back for a {want} tensor.")
           .format(got=back.dtype, want=t.dtype))
    expect(back.shape == t.shape and torch.allclose(back, t, rtol=1e-3),
           _("unpack_half(pack_half(t)) gave {got} for t = {want}.").format(got=back.tolist(), want=t.tolist()))
    return back


@check(N_("pack_half and unpack_half keep float32 saved tensors in float16, and backward gives nearly the same "
          "gradients."))
def check_half_hooks(pack_half, unpack_half):
    """`pack_half(t)` keeps a float32 `t` in float16; `unpack_half(pack_half(t))` is float32 again."""
    _half_round_trip(pack_half, unpack_half, torch.tensor([1.0, 2.5, -3.0]))
    for other in (torch.tensor([3, 0, 2]), torch.tensor([0.5, -2.0]).half()):   # indices (max saves them), float16
        expect(torch.equal(_half_round_trip(pack_half, unpack_half, other), other),
               _("an int64 tensor did not come back unchanged: leave tensors of other dtypes as they are.")
               if other.dtype == torch.int64 else
               _("a float16 tensor did not come back unchanged: leave tensors of other dtypes as they are."))
    x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
    want = torch.autograd.grad((x.exp() * x.sin()).sum(), x)[0]
    packs = []

    def counted(t):
        packs.append(t.dtype)
        return pack_half(t)
    with saved_tensors_hooks(counted, unpack_half):
        loss = (x.exp() * x.sin()).sum()
    (got,) = torch.autograd.grad(loss, x)
    expect(packs, _("nothing was packed: the check runs the graph inside saved_tensors_hooks(pack_half, "
                    "unpack_half), so pack_half should be called for each saved tensor."))
    expect(got.dtype == torch.float32, _("the gradient came out as {dtype}, expected float32: unpack_half must "
                                         "give float32 back.").format(dtype=got.dtype))
    expect(torch.allclose(got, want, rtol=1e-2),
           _("with your hooks the gradient of (x.exp() * x.sin()).sum() is {got}, expected about {want}.")
           .format(got=got.tolist(), want=want.tolist()))


def _blocks(runs, dropout=0.0, count=3):
    """`count` small blocks (Linear, Tanh, Linear, and a dropout if asked), each logging its runs in `runs`."""
    blocks = []
    for i in range(count):
        layers = [nn.Linear(4, 8), nn.Tanh()] + ([nn.Dropout(dropout)] if dropout else []) + [nn.Linear(8, 4)]
        block = nn.Sequential(*layers)
        block.register_forward_pre_hook(lambda module, args, i=i: runs.append(i))
        blocks.append(block)
    return blocks


def _plain_then_checkpointed(checkpointed, blocks, make_x, seed, runs):
    """Run `blocks` plainly, then through `checkpointed`, from the same random state; return both (output,
    gradients) and the blocks each pass ran."""
    results = []
    for fn in (None, checkpointed):
        for p in (p for b in blocks for p in b.parameters()):
            p.grad = None
        torch.manual_seed(seed)
        x = make_x()
        runs.clear()
        if fn is None:
            out = x
            for layer in blocks:
                out = layer(out)
        else:
            out = fn(blocks, x)
            expect(out is not None, _("checkpointed returned None: it is still the stub, or it forgot to return."))
            expect(isinstance(out, torch.Tensor), _("checkpointed returned {type}, expected a tensor.")
                   .format(type=type(out).__name__))
        forward = list(runs)
        runs.clear()
        if fn is not None and out.grad_fn is not None and out.grad_fn.name() == "CheckpointFunctionBackward":
            raise Hint(_("the output's grad_fn is CheckpointFunctionBackward: that is use_reentrant=True. Pass "
                         "use_reentrant=False, as PyTorch recommends."))
        out.pow(2).sum().backward()
        grads = [x.grad] + [p.grad for b in blocks for p in b.parameters()]
        results.append((out.detach(), grads, forward, list(runs)))
    return results


@check(N_("checkpointed runs each block through a non-reentrant checkpoint: the same output and gradients, each "
          "block run once more in backward."))
def check_checkpointed(checkpointed):
    """`checkpointed(blocks, x)` is blocks[-1](...blocks[0](x)), each block under checkpoint(use_reentrant=False)."""
    runs = []
    torch.manual_seed(0)
    blocks = _blocks(runs)
    (want, want_grads, _f, _b), (got, grads, forward, backward) = _plain_then_checkpointed(
        checkpointed, blocks, lambda: torch.randn(5, 4, requires_grad=True), 1, runs)
    expect(got.shape == want.shape and torch.allclose(got, want, atol=1e-6),
           _("checkpointed(blocks, x) is not the output of the blocks run one after another on x."))
    expect(sorted(forward) == [0, 1, 2],
           _("in the forward pass the blocks ran {runs}, expected each once, in order: [0, 1, 2].")
           .format(runs=forward))
    if not backward:
        raise Hint(_("no block ran again in backward: nothing was checkpointed. Run each block through "
                     "checkpoint(..., use_reentrant=False) instead of calling it."))
    expect(backward == [2, 1, 0],
           _("in backward the blocks ran again {runs}, expected each once more, the last first: [2, 1, 0] (one "
             "checkpoint per block; one around all of them recomputes them in forward order).")
           .format(runs=backward))
    expect(all(g is not None and w is not None and torch.allclose(g, w, atol=1e-6) for g, w in zip(grads, want_grads)),
           _("the gradients of x and of the blocks' parameters are not those of the plain run."))
