"""`torch.func.jvp` and `jacfwd`: Jacobian-vector products and Jacobians in forward mode.

`jvp(f, primals, tangents)` runs `f` once on dual tensors (autograd/forward_ad.py) and reads the outputs'
tangents: `J v` for one direction `v`, in one forward pass. `jacfwd` is PyTorch's `vmap(jvp)` over the basis
vectors: one column of the Jacobian per input element (minigrad's vmap is a loop, so one pass per column).
"""
from .._tensor.creation import eye, zeros
from .._tensor.tensor import Tensor
from ..autograd import forward_ad as fwAD
from ..core import forward_ad
from .grad import _positions, _split_aux
from .pytree import tree_flatten, tree_unflatten
from .transforms import running
from .vmap import vmap

__all__ = ["jvp", "jacfwd"]


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """Return `(func(*primals), J v)` with `v = tangents` (the same structure as primals), and aux if has_aux.

    Example:
        >>> torch.func.jvp(torch.sin, (torch.tensor([0., 1.]),), (torch.tensor([1., 0.]),))
        (tensor([0.0000, 0.8415]), tensor([1., 0.]))
    """
    name = "jvp(f, primals, tangents)"
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{name}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals).")
    flat_primals, primals_spec = tree_flatten(primals)
    flat_tangents, tangents_spec = tree_flatten(tangents)
    if primals_spec != tangents_spec:
        raise RuntimeError(f"{name}: Expected primals and tangents to have the same python structure. For example, "
                           "if primals is a tuple of 3 tensors, tangents also must be. Got primals with structure "
                           f"{primals_spec} and tangents with structure {tangents_spec}")
    for leaf in flat_primals + flat_tangents:
        if not isinstance(leaf, Tensor):
            raise RuntimeError(f"{name}: Expected primals and tangents to only contain Tensors, got unsupported "
                               f"type {type(leaf)}")
    level = forward_ad.enter_level("func")          # func.jvp nests: jacfwd(jacfwd(f))
    try:
        duals = [fwAD.make_dual(p, t, level=level) for p, t in zip(flat_primals, flat_tangents)]
        with running("jvp"):
            output = func(*tree_unflatten(duals, primals_spec))
        output, aux = _split_aux(output, has_aux, name)
        out_leaves, out_spec = tree_flatten(output)
        for leaf in out_leaves:
            if not isinstance(leaf, Tensor):
                raise RuntimeError(f"{name}: expected f(*primals) to return only tensors, got unsupported type "
                                   f"{type(leaf)}")
        unpacked = [fwAD.unpack_dual(o, level=level) for o in out_leaves]
    finally:
        forward_ad.exit_level()
    # in the graph only for an outer transform that differentiates the primals (jacrev(jacfwd(f))); an outer
    # jvp's tangents stay on (jacfwd(jacfwd(f)))
    keep = any(p.requires_grad for p in flat_primals)

    def plain(t):
        return t if keep else forward_ad.copy_tangents(t, t.detach())
    primals_out = tree_unflatten([plain(u.primal) for u in unpacked], out_spec)
    tangents_out = tree_unflatten([zeros(o.shape, dtype=o.dtype) if u.tangent is None else plain(u.tangent)
                                   for u, o in zip(unpacked, out_leaves)], out_spec)
    return (primals_out, tangents_out, aux) if has_aux else (primals_out, tangents_out)


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """Return a function that computes the Jacobian of `func` in forward mode: for an output of shape O and an
    input of shape I, a tensor of shape O + I (a tuple per output and per argnum when those are tuples).

    As in PyTorch, it is `vmap(jvp)` over the rows of an identity matrix, one per element of the inputs together;
    `randomness` is vmap's.

    Example:
        >>> torch.func.jacfwd(torch.sin)(torch.tensor([0., 1.]))       # diag(cos x)
    """
    def wrapper(*args):
        positions = _positions(argnums, len(args))
        chosen = tuple(args[p] for p in positions)
        sizes = [a.numel() for a in chosen]
        identity = eye(sum(sizes), dtype=chosen[0].dtype)
        bases, offset = [], 0
        for a, n in zip(chosen, sizes):          # the identity's columns for each input, as batches of its shape
            bases.append(identity[:, offset:offset + n].reshape((-1,) + tuple(a.shape)))
            offset += n
        aux = []

        def of_chosen(*values):
            full = list(args)
            for p, value in zip(positions, values):
                full[p] = value
            return func(*full)

        def push(*basis):
            result = jvp(of_chosen, chosen, basis, has_aux=has_aux)
            if has_aux and not aux:
                aux.append(result[2])
            return result[1]
        columns = vmap(push, randomness=randomness)(*bases)    # (inputs' elements,) + each output's shape
        per_output = []
        for out in (columns if isinstance(columns, tuple) else (columns,)):
            per_input, offset = [], 0
            for a, n in zip(chosen, sizes):
                part = out[offset:offset + n].movedim(0, -1)
                per_input.append(part.reshape(tuple(out.shape[1:]) + tuple(a.shape)))
                offset += n
            per_output.append(per_input[0] if isinstance(argnums, int) else tuple(per_input))
        jacobian = tuple(per_output) if isinstance(columns, tuple) else per_output[0]
        return (jacobian, aux[0]) if has_aux else jacobian
    return wrapper
