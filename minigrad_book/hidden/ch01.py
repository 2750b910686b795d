"""Hidden cases for chapter 1: deeper graphs, other gradients, other learning rates, float64 and 2-D tensors."""
import minigrad as torch

from widgets.exercises import check, expect


@check("leaves_of also finds every leaf of a deep graph with a leaf used at several depths.")
def check_leaves_of(leaves_of):
    x = torch.tensor([[1.0, -2.0], [0.5, 3.0]], dtype=torch.float64, requires_grad=True)
    w = torch.tensor([[0.5], [-1.0]], dtype=torch.float64, requires_grad=True)
    s = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
    c = torch.tensor([[2.0], [4.0]], dtype=torch.float64)
    h = x @ w + c
    for _ in range(12):                               # twelve more levels, s entering at each of them
        h = h * s + h
    out = (h.tanh() * s).sum() + (x * x).mean()
    got = leaves_of(out)
    expect(isinstance(got, (list, tuple, set)), f"leaves_of returned {type(got).__name__}, not a list.")
    got = list(got)
    expect(all(isinstance(g, torch.Tensor) for g in got), "on a deep graph, leaves_of returned something that "
                                                          "is not a tensor.")
    ids = [id(g) for g in got]
    expect(len(ids) == len(set(ids)), "on a deep graph that uses s at every level, a leaf came back more than once.")
    expect(id(c) not in ids, "on a deep graph, leaves_of returned a constant that does not require grad.")
    expect(set(ids) == {id(x), id(w), id(s)}, f"on a graph some 30 nodes deep with three leaves, leaves_of "
                                              f"returned {len(got)} leaf tensor(s) instead of the 3 leaves.")
    none = leaves_of(torch.tensor([1.0, 2.0]) * 3)
    expect(isinstance(none, (list, tuple, set)) and len(none) == 0, "for a result computed from constants only "
           "(its grad_fn is None), leaves_of should return an empty list.")


@check("the hook also clips another gradient, of another shape and dtype, and leaves it alone inside [-1, 1].")
def check_clip_hook(clip_hook):
    scale = torch.tensor([[-1.5, 0.25, 1.0], [7.0, -1.0, -0.75]], dtype=torch.float64)
    a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=torch.float64, requires_grad=True)
    a.register_hook(clip_hook)
    (a * scale).sum().backward()
    want = [[-1.0, 0.25, 1.0], [1.0, -1.0, -0.75]]
    expect(a.grad is not None and a.grad.shape == (2, 3), "on a 2-D float64 leaf, a.grad does not have the "
                                                          "leaf's shape after the hook.")
    expect(a.grad.dtype == torch.float64, f"on a float64 leaf, the hook turned the gradient into {a.grad.dtype}.")
    expect(a.grad.tolist() == want, "on a 2-D float64 gradient with values inside and outside [-1, 1], the "
                                    "hook's result is not the gradient clipped to [-1, 1].")


@check("sgd_update also moves a 2-D float64 w by another learning rate, and leaves w.grad alone.")
def check_sgd_update(sgd_update):
    w = torch.tensor([[0.5, -1.0, 2.0], [3.0, 0.0, -4.0]], dtype=torch.float64, requires_grad=True)
    (w ** 3).sum().backward()                          # w.grad = 3 w**2
    grad = [[3 * v * v for v in row] for row in w.tolist()]
    before = w.tolist()
    sgd_update(w, 0.25)
    want = [[v - 0.25 * g for v, g in zip(r, gr)] for r, gr in zip(before, grad)]
    expect(w.grad_fn is None and w.is_leaf and w.requires_grad, "on a 2-D float64 w, after the update w is no "
                                                                "longer a leaf that requires grad.")
    expect(w.dtype == torch.float64 and w.shape == (2, 3), "on a 2-D float64 w, the update changed w's dtype "
                                                           "or shape.")
    expect(torch.allclose(w.detach(), torch.tensor(want, dtype=torch.float64)),
           "with lr = 0.25 and a 2-D float64 w, w did not become w - lr * w.grad: use the lr argument.")
    expect(w.grad is not None and w.grad.tolist() == grad, "the update changed w.grad; it should only read it.")
