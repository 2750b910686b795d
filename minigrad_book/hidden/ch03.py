"""Hidden cases for chapter 3: 2-D and float64 tensors, another function, and a tensor too big to loop over."""
import minigrad as torch

from widgets.exercises import check, expect


def _node_count(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(n for n, _ in node.next_functions)
    return len(seen)


@check("apply_copy also copies a 2-D float64 tensor, keeps its dtype and shape, and leaves it alone.")
def check_apply_copy(apply_copy):
    data = [[1.5, -2.0, 0.0], [4.0, -0.5, 3.0]]
    t = torch.tensor(data, dtype=torch.float64, requires_grad=True)
    result = apply_copy(t, lambda v: v * v - 1)
    expect(isinstance(result, torch.Tensor), f"on a 2-D float64 tensor, apply_copy returned "
                                             f"{type(result).__name__}, not a tensor.")
    expect(result.shape == (2, 3) and result.dtype == torch.float64,
           f"on a 2-D float64 tensor, the result has shape {tuple(result.shape)} and dtype {result.dtype}: keep "
           "both of t.")
    expect(result.tolist() == [[v * v - 1 for v in row] for row in data],
           "on a 2-D float64 tensor with fn = lambda v: v * v - 1, the result is not fn of each element.")
    expect(t.tolist() == data and t.requires_grad, "on a 2-D float64 tensor, apply_copy changed t.")
    i = torch.tensor([[7, -3], [0, 10]])
    result = apply_copy(i, lambda v: v / 4)
    expect(result.dtype == torch.int64 and result.tolist() == [[1, 0], [0, 2]] and i.tolist() == [[7, -3], [0, 10]],
           "on a 2-D int64 tensor with fn = lambda v: v / 4, the result is not the int64 copy that apply_ "
           "gives (each result cast back like int(...)), or t changed.")


@check("fast also works on a 2-D float64 tensor of 1000 elements, with a graph of a few nodes, not one per element.")
def check_fast(fast):
    t = (torch.arange(1000, dtype=torch.float64).reshape(40, 25) / 100 - 5).requires_grad_()
    out = fast(t)
    expect(isinstance(out, torch.Tensor), f"on a 2-D float64 tensor, fast returned {type(out).__name__}.")
    expect(out.shape == (40, 25) and out.dtype == torch.float64,
           f"on a (40, 25) float64 tensor, fast gave shape {tuple(out.shape)} and dtype {out.dtype}.")
    expect(torch.allclose(out.detach(), 3 * t.detach() * t.detach() - 1), "on a (40, 25) float64 tensor, fast "
                                                                          "did not give 3 * t * t - 1.")
    expect(_node_count(out) <= 10, f"on a tensor of 1000 elements, the result's graph has {_node_count(out)} "
                                   "nodes: it grows with the number of elements, so fast still works element "
                                   "by element. Use operations on the whole tensor.")
    out.sum().backward()
    expect(t.grad is not None and torch.allclose(t.grad, 6 * t.detach()), "on a (40, 25) float64 tensor, "
                                                                         "t.grad is not 6t.")
