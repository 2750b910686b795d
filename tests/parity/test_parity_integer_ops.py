"""Parity of issue 11, point 3 (integer ops): floor division and remainder with PyTorch's sign rules, for integers
and floats, the node without derivative that `//` records, the remainder's gradients, and the bitwise operators."""
import numpy as np
import pytest

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def sample(lib, name, shape=(2,)):
    """A tensor of dtype `name` with the values 3, 1 (or True, False), shaped as asked (() for 0-d)."""
    values = np.array([3, 1][:max(1, int(np.prod(shape)))]).reshape(shape)
    return lib.tensor(values % 2 == 1 if name == "bool" else values.astype(name))


# ---- integer division and remainder: PyTorch's sign rules ------------------------------------------------------------
@case
def floor_divide_and_remainder_signs(lib):
    i, j = lib.tensor([7, -7, 7, -7, 0]), lib.tensor([2, 2, -2, -2, 3])
    x, y = lib.tensor([7.5, -7.5, 7.5, -7.5, 0.0]), lib.tensor([2.0, 2.0, -2.0, -2.0, -3.0])
    return (i // j, i % j, x // y, x % y, lib.floor_divide(i, j), lib.remainder(i, j), i.remainder(-3), 7 % j,
            7 // j, i // 2.5, i % 2.5, 7.5 // j, 7.5 % j, lib.remainder(2, j), repr(x % y), repr(x // y))


@case
def floor_divide_and_remainder_of_special_floats(lib):
    x = lib.tensor([7.0, -7.0, 0.0, -0.0, 1.0, float("inf"), float("nan")])
    out = []
    for d in (0.0, 1.0, -1.0, float("inf"), -float("inf")):
        out += [repr(x // d), repr(x % d)]
    return out


@case
def integer_floor_divide_overflow(lib):
    return (lib.tensor([-128], dtype=lib.int8) // -1, lib.tensor([-2 ** 63]) // -1, lib.tensor([-2 ** 63]) % -1,
            lib.tensor([5], dtype=lib.int8) // lib.tensor([2], dtype=lib.uint8), lib.tensor([True]) // 2)


@case
def floor_divide_records_a_node_without_derivative(lib):
    x = lib.tensor([7.5, -7.5], requires_grad=True)
    y = lib.tensor([2.0, -2.0])
    nodes = [z.grad_fn.name() for z in (x // y, y // x, 7.0 // x, x // 2, 7 % x, x % y, x % 2, y % x)]
    edges = [len(z.grad_fn.next_functions) for z in (x // y, y // x, 7.0 // x, x // 2, 7 % x, x % y, x % 2, y % x)]
    return nodes, edges, (x // 2).requires_grad, repr(x // 2), repr(7 % x)


@case
def remainder_gradients(lib):
    x = lib.tensor([7.5, -7.5, 1.25], requires_grad=True)
    y = lib.tensor([2.0, -2.0, 0.5], requires_grad=True)
    (x % y).sum().backward()
    gx, gy = x.grad.clone(), y.grad.clone()
    z = x % y
    saved = [z.grad_fn._saved_self, z.grad_fn._saved_other]
    only_x = x % y.detach()
    (x % 1.5).sum().backward()
    return gx, gy, x.grad, saved, [only_x.grad_fn._saved_self, only_x.grad_fn._saved_other]


# ---- bitwise operators -----------------------------------------------------------------------------------------------
@case
def bitwise_dtypes_of_every_pair(lib):
    kinds = ("bool", "uint8", "int8", "int16", "int32", "int64")
    return [[str((sample(lib, a) & sample(lib, b)).dtype) for b in kinds] for a in kinds] + [
        [str((sample(lib, a) | n).dtype) for n in (1, True)] for a in kinds]


@case
def bitwise_values(lib):
    b, c = lib.tensor([True, False, True]), lib.tensor([True, True, False])
    i, j = lib.tensor([7, -7, 12]), lib.tensor([2, 3, -5])
    return (b & c, b | c, b ^ c, ~b, i & j, i | j, i ^ j, ~i, i & 3, 3 & i, b & 1, b | True, lib.bitwise_and(i, j),
            lib.bitwise_or(b, c), lib.bitwise_xor(i, 1), lib.bitwise_not(i), b.bitwise_not())


@case
def bitwise_in_place(lib):
    b = lib.tensor([True, False, True])
    alias = b
    b &= lib.tensor([False, True, True])
    i = lib.tensor([5, 6])
    i |= 1
    i ^= lib.tensor([1, 1])
    return alias, b is alias, i, b._version, i._version


@pytest.mark.parametrize("name", list(CASES))
def test_parity(run_both, name):
    run_both(CASES[name])
