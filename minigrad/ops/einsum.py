"""`einsum`, built as ATen builds it: from diagonal, unsqueeze, permute, sum, mul, reshape and bmm.

So `einsum("ij,jk->ik", a, b)` records the very nodes torch records (a bmm between views), and its gradients,
of any order, come from those ops' own backward formulas. The steps (ATen's `einsum` in Linear.cpp):

1. parse the equation into labels per operand and for the output (implicit output: the labels seen once);
2. align the operands: take a diagonal for a label repeated in one operand, unsqueeze the labels it lacks,
   and permute every operand to one order (output labels first, then the contracted ones);
3. contract the operands left to right, two at a time (`_sumproduct_pair`): multiply, or, where labels are
   summed over, permute and reshape both to 3-D and use bmm; then drop the contracted dims.

Checked node by node against torch 2.13 (whose bmm takes the right operand first when all its output dims come
before the left one's). One known difference: a label summed inside one operand of a permuted tensor may give
ViewBackward0 where torch has ReshapeAliasBackward0 (numpy's sum keeps its input's memory order, ATen's does not).
"""
from collections import deque

from ..core.dtype import bool as bool_
from ..core.tensor import TensorBase
from .linalg import Bmm

ELLIPSIS = "..."


def einsum(*args):
    """Sum the product of the operands over the labels the equation contracts. Mirrors `torch.einsum`.

    Args:
        equation: e.g. "ij,jk->ik" (matrix product), "bij,bjk->bik" (batched), "i,i->" (dot), "ii->i"
            (diagonal), "...ij->...ji"; without "->" the output is the labels seen once, in alphabetical order.
        *operands: the tensors, one per comma-separated group (or one list of them). The sublist form
            `einsum(a, [0, 1], b, [1, 2], [0, 2])` works too.

    Example:
        >>> torch.einsum("ij,jk->ik", a, b).grad_fn      # a bmm between views, as in torch
        <ViewBackward0 object at 0x...>
    """
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, or at least one "
                         "operand and its subscripts list")
    equation, operands = (args[0], args[1:]) if isinstance(args[0], str) else _from_sublists(args)
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    for i, op in enumerate(operands):
        if not isinstance(op, TensorBase):
            raise TypeError(f"expected Tensor as element {i} in argument 1, but got {type(op).__name__}")
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    op_labels, counts, lhs = _input_labels(equation, operands)
    position, out_dims, n_dims, ell_at, ell_dims = _output_order(equation, lhs, operands, op_labels, counts)
    ops, dim_counts = _aligned(operands, op_labels, position, n_dims, ell_at, ell_dims)
    ops = deque(ops)
    while len(ops) > 1:
        a, b = ops.popleft(), ops.popleft()
        sum_dims, a_sums, b_sums = _summed_now(a, b, dim_counts, range(out_dims, n_dims))
        if a_sums:
            a = a.sum(a_sums, keepdim=True)
        if b_sums:
            b = b.sum(b_sums, keepdim=True)
        ops.appendleft(_sumproduct_pair(a, b, sum_dims))
    if n_dims == out_dims:
        return ops[0]
    if len(operands) > 1:       # the contracted dims are all of size 1 by now
        return ops[0].view(tuple(ops[0].shape[:out_dims]))
    return ops[0].sum(list(range(out_dims, n_dims)))


def _summed_now(a, b, dim_counts, contracted):
    """The contracted dims that no operand but a and b has: summed in their product, or, where only one of them
    has the dim, summed in that one first. `dim_counts` (operands having each dim) is updated."""
    sum_dims, a_sums, b_sums = [], [], []
    for d in contracted:
        if a.shape[d] != 1 and b.shape[d] != 1:
            dim_counts[d] -= 1
            if dim_counts[d] == 1:
                sum_dims.append(d)
                dim_counts[d] = 0
        elif dim_counts[d] == 1:
            if a.shape[d] != 1:
                a_sums.append(d)
                dim_counts[d] = 0
            elif b.shape[d] != 1:
                b_sums.append(d)
                dim_counts[d] = 0
    return sum_dims, a_sums, b_sums


def _sumproduct_pair(left, right, sum_dims):
    """(left * right).sum(sum_dims, keepdim=True) for aligned operands, by permute, reshape and bmm (ATen's)."""
    if not sum_dims:
        return left * right
    lro, lo, ro = [], [], []        # dims kept in the output: in both operands, only in left, only in right
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(left.dim()):
        in_left, in_right = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:
            if in_left and in_right:
                _check_match(left, right, i)
                sum_size *= left.shape[i]
            elif in_left:
                left = left.sum(i, keepdim=True)
            elif in_right:
                right = right.sum(i, keepdim=True)
        elif in_left and in_right:
            _check_match(left, right, i)
            lro.append(i)
            lro_size *= left.shape[i]
        elif in_left:
            lo.append(i)
            lo_size *= left.shape[i]
        else:
            ro.append(i)
            ro_size *= right.shape[i]
    if lo and ro and ro[-1] < lo[0]:
        # as torch 2.13 does: when all of right's output dims come before left's, swap the two
        left, right, lo, ro, lo_size, ro_size = right, left, ro, lo, ro_size, lo_size
    out_size = ([left.shape[d] for d in lro + lo] + [1] * len(sum_dims) + [right.shape[d] for d in ro])
    out_perm = [0] * len(out_size)
    for i, d in enumerate(lro + lo + sum_dims + ro):
        out_perm[d] = i
    left = left.permute(lro + lo + sum_dims + ro).reshape(lro_size, lo_size, sum_size)
    right = right.permute(lro + sum_dims + ro + lo).reshape(lro_size, sum_size, ro_size)
    if left.dtype is not right.dtype:
        raise RuntimeError(f"expected scalar type {left.dtype._scalar_name} but found {right.dtype._scalar_name}")
    if left.dtype is bool_:
        raise NotImplementedError("\"bmm\" not implemented for 'Bool'")
    return Bmm.apply(left, right).view(out_size).permute(out_perm)


def _check_match(left, right, i):
    if left.shape[i] != right.shape[i]:
        raise RuntimeError("non-broadcast dimensions must match")


def _subscript(label):
    """ATen's order of labels: A-Z, then a-z."""
    return ord(label) - ord("A") if label.isupper() else ord(label) - ord("a") + 26


def _is_label(c):
    return c.isascii() and c.isalpha()


def _input_labels(equation, operands):
    """The labels of each operand (ELLIPSIS for `...`), how often each label occurs, and the equation's lhs."""
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]
    labels, current, ellipsis_seen, i = [[] for _ in operands], 0, False, 0
    while i < len(lhs):
        c = lhs[i]
        if c == ".":
            if ellipsis_seen:
                raise RuntimeError(f"einsum(): found '.' for operand {current} for which an ellipsis was already "
                                   "found")
            if not (i + 2 < len(lhs) and lhs[i + 1] == "." and lhs[i + 2] == "."):
                raise RuntimeError(f"einsum(): found '.' for operand {current} that is not part of any ellipsis")
            labels[current].append(ELLIPSIS)
            ellipsis_seen, i = True, i + 2
        elif c == ",":
            current += 1
            if current >= len(operands):
                raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
            ellipsis_seen = False
        elif c != " ":
            if not _is_label(c):
                raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the equation string, "
                                   "subscripts must be in [a-zA-Z]")
            labels[current].append(c)
        i += 1
    if current != len(operands) - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    counts = {}
    for k, (op, ls) in enumerate(zip(operands, labels)):
        named = [c for c in ls if c != ELLIPSIS]
        for c in named:
            counts[c] = counts.get(c, 0) + 1
        if ELLIPSIS in ls and len(named) > op.dim():
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(named)}) is more than the "
                               f"number of dimensions ({op.dim()}) for operand {k}")
        if ELLIPSIS not in ls and len(named) != op.dim():
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(named)}) does not match the "
                               f"number of dimensions ({op.dim()}) for operand {k} and no ellipsis was given")
    return labels, counts, lhs


def _output_order(equation, lhs, operands, labels, counts):
    """Where each label goes in the aligned order: output labels first (counted by `out_dims`), contracted after.

    Returns (position of each label, out_dims, all dims, where the ellipsis dims start, how many they are).
    """
    ell_dims = max([op.dim() - len(ls) + 1 for op, ls in zip(operands, labels) if ELLIPSIS in ls], default=0)
    position, n, ell_at, ell_in_output = {}, 0, 0, False
    arrow = equation.find("->")
    if arrow < 0:                   # implicit output: the ellipsis, then the labels seen once
        n, ell_in_output = ell_dims, True
        for c in sorted(counts, key=_subscript):
            if counts[c] == 1:
                position[c], n = n, n + 1
    else:
        rhs, i = equation[arrow + 2:], 0
        while i < len(rhs):
            c = rhs[i]
            if c == ".":
                if ell_in_output:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was already found")
                if not (i + 2 < len(rhs) and rhs[i + 1] == "." and rhs[i + 2] == "."):
                    raise RuntimeError("einsum(): found '.' for output that is not part of any ellipsis (...)")
                ell_at, n, ell_in_output, i = n, n + ell_dims, True, i + 2
            elif c != " ":
                if not _is_label(c):
                    raise RuntimeError(f"einsum(): invalid subscript given at index {len(lhs) + 2 + i} in the "
                                       "equation string, subscripts must be in [a-zA-Z]")
                if c in position or c not in counts:
                    raise RuntimeError(f"einsum(): output subscript {c}" + (
                        " appears more than once in the output" if c in position else
                        " does not appear in the equation for any input operand"))
                position[c], n = n, n + 1
            i += 1
    out_dims = n
    if not ell_in_output:           # the ellipsis dims are summed over, as contracted dims
        ell_at, n = n, n + ell_dims
    for c in sorted(counts, key=_subscript):
        if c not in position:
            position[c], n = n, n + 1
    return position, out_dims, n, ell_at, ell_dims


def _aligned(operands, labels, position, n_dims, ell_at, ell_dims):
    """Every operand as an n_dims-d view in the aligned order, and per dim the number of operands not of size 1."""
    label_size, ell_sizes, dim_counts, ops = {}, [1] * ell_dims, [0] * n_dims, []
    for k, op in enumerate(operands):
        perm, dim = [-1] * n_dims, 0
        for c in labels[k]:
            if c == ELLIPSIS:
                covered = operands[k].dim() - (len(labels[k]) - 1)
                for j in range(ell_dims - covered, ell_dims):
                    size = op.shape[dim]
                    if size != 1:
                        if ell_sizes[j] not in (1, size):
                            raise RuntimeError(f"einsum(): dimension {dim} covered by ellipsis in operand {k}has size "
                                               f"{size} which does not broadcast with previously seen ellipsis with "
                                               f"size {ell_sizes[j]} for the respective dimension")
                        ell_sizes[j] = size
                        dim_counts[ell_at + j] += 1
                    perm[ell_at + j], dim = dim, dim + 1
            elif perm[position[c]] == -1:
                size = op.shape[dim]
                if size != 1:
                    if label_size.get(c, 1) not in (1, size):
                        raise RuntimeError(f"einsum(): subscript {c} has size {size} for operand {k} which does not "
                                           f"broadcast with previously seen size {label_size[c]}")
                    label_size[c] = size
                    dim_counts[position[c]] += 1
                perm[position[c]], dim = dim, dim + 1
            else:                   # a repeated label: take the diagonal, where the label first was
                prev = perm[position[c]]
                if op.shape[dim] != op.shape[prev]:
                    raise RuntimeError(f"einsum(): subscript {c} is repeated for operand {k} but the sizes don't "
                                       f"match, {op.shape[dim]} != {op.shape[prev]}")
                op = op.diagonal(0, prev, dim).movedim(-1, prev)
        for i, p in enumerate(perm):
            if p == -1:
                op, perm[i], dim = op.unsqueeze(dim), dim, dim + 1
        ops.append(op.permute(perm))
    return ops, dim_counts


def _from_sublists(args):
    """The equation of `einsum(a, [0, 1], b, [1, 2], [0, 2])` (labels 0-25 are A-Z, 26-51 a-z) and its operands."""
    def label(n):
        if n is Ellipsis:
            return ELLIPSIS
        if 0 <= n < 26:
            return chr(ord("A") + n)
        if 26 <= n < 52:
            return chr(ord("a") + n - 26)
        raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")
    equation = ",".join("".join(label(s) for s in sub) for sub in args[1::2])
    if len(args) % 2 == 1:
        return equation + "->" + "".join(label(s) for s in args[-1]), args[:-1:2]
    return equation, args[::2]

