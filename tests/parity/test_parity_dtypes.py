"""Parity of issue 11, point 3 (dtypes): every dtype PyTorch computes with on the CPU, its promotion rule, and
the entry points that make tensors of each numpy width (the int32 arrays of Pyodide among them).

Casts and devices are in test_parity_casts_devices.py, `//`, `%` and the bitwise ops in test_parity_integer_ops.py,
and what was found missing outside this task's files in test_parity_dtype_gaps.py. Examples return dtypes as strings
(`str(torch.int16)`), which the harness compares exactly.
"""
import numpy as np
import pytest

DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64")
INTS = ("uint8", "int8", "int16", "int32", "int64")
WIDTHS = INTS + ("bool", "float16", "float32", "float64")
OTHER = (1, -1, 2.5, True, False)        # Python numbers, as the second operand

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def dtypes(lib):
    return [getattr(lib, name) for name in DTYPES]


def sample(lib, name, shape=(2,)):
    """A tensor of dtype `name` with the values 3, 1 (or True, False), shaped as asked (() for 0-d)."""
    values = np.array([3, 1][:max(1, int(np.prod(shape)))]).reshape(shape)
    return lib.tensor(values % 2 == 1 if name == "bool" else values.astype(name))


# ---- the dtypes themselves ----------------------------------------------------------------------------------------
@case
def dtype_attributes_and_aliases(lib):
    attributes = [(str(d), d.is_floating_point, d.is_signed, d.itemsize, d.is_complex) for d in dtypes(lib)]
    aliases = [lib.int is lib.int32, lib.short is lib.int16, lib.half is lib.float16, lib.long is lib.int64,
               lib.float is lib.float32, lib.double is lib.float64, lib.uint8 is not lib.int8]
    return attributes, aliases, [str(lib.uint16), str(lib.uint32), str(lib.uint64)]


@case
def promote_types_of_every_pair(lib):
    return [[str(lib.promote_types(a, b)) for b in dtypes(lib)] for a in dtypes(lib)]


@case
def result_type_of_tensors_of_every_rank(lib):
    """A tensor with dims decides over a 0-d tensor, which decides over a number, unless of a higher category."""
    out = []
    for a in DTYPES:
        for b in DTYPES:
            out.append([str(lib.result_type(sample(lib, a, sa), sample(lib, b, sb)))
                        for sa, sb in (((2,), (2,)), ((2,), ()), ((), (2,)), ((), ()))])
    return out


@case
def result_type_with_python_numbers(lib):
    return ([[str(lib.result_type(sample(lib, a), n)) for n in OTHER] for a in DTYPES]
            + [[str(lib.result_type(sample(lib, a, ()), n)) for n in OTHER] for a in DTYPES]
            + [str(lib.result_type(1, 2.5)), str(lib.result_type(True, 5)), str(lib.result_type(True, False))])


@case
def result_type_of_unsigned_shell_dtypes(lib):
    u16 = lib.zeros(2, dtype=lib.float32).to(lib.uint16)
    return [str(lib.result_type(u16, n)) for n in (1, 1.5, True)] + [str(lib.promote_types(lib.uint16, lib.float16))]


@case
def can_cast_every_pair(lib):
    return [[lib.can_cast(a, b) for b in dtypes(lib)] for a in dtypes(lib)]


@case
def legacy_type_names(lib):
    names = [lib.zeros(2, dtype=d).type() for d in dtypes(lib)]
    classes = [repr(lib.IntTensor), lib.FloatTensor.dtype == lib.float32, isinstance(lib.zeros(2), lib.FloatTensor),
               isinstance(lib.zeros(2), lib.IntTensor), isinstance(lib.zeros(2, dtype=lib.int32), lib.IntTensor)]
    return names, classes


@case
def legacy_type_constructors(lib):
    uninitialised = [(t.shape, str(t.dtype)) for t in (lib.FloatTensor(2, 3), lib.DoubleTensor(lib.Size([2])))]
    return (lib.IntTensor([1, 2]), lib.LongTensor([1.5, -2.7]), lib.ByteTensor([1, 255]), lib.CharTensor([-1]),
            lib.ShortTensor([[1], [2]]), lib.HalfTensor([0.1]), lib.BoolTensor([1, 0]), lib.FloatTensor(),
            lib.FloatTensor(lib.tensor([1.0])), uninitialised)


@case
def iinfo_and_finfo(lib):
    ints = [(repr(lib.iinfo(d)), lib.iinfo(d).bits, lib.iinfo(d).min, lib.iinfo(d).max, lib.iinfo(d).dtype)
            for d in (lib.uint8, lib.int8, lib.int16, lib.int32, lib.int64)]
    floats = []
    for d in (lib.float16, lib.float32, lib.float64):
        f = lib.finfo(d)
        floats.append((repr(f), f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution, f.dtype))
    return ints, floats, repr(lib.finfo()), str(lib.iinfo(lib.int8))


@case
def reprs_of_every_dtype(lib):
    values = [[3, -1, 0], [100, 7, -128]]
    out = [repr(lib.tensor(values, dtype=d)) for d in dtypes(lib) if d is not lib.uint8]
    out.append(repr(lib.tensor([[3, 1, 0], [100, 7, 255]], dtype=lib.uint8)))
    out.append(repr(lib.tensor([1.5, -2.7, 65504.0], dtype=lib.float16)))
    out.append(repr(lib.tensor([0.1, 1e-5], dtype=lib.float16)))
    out.append(repr(lib.zeros(0, dtype=lib.int32)))
    out.append(repr(lib.tensor(7, dtype=lib.int16)))
    return out


# ---- making tensors from numpy arrays of every width: the dtype is kept, memory shared where torch shares it -------
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("make", ["tensor", "as_tensor", "from_numpy"])
def test_numpy_array_of_every_width(run_both, make, width):
    def example(lib):
        a = np.array([[0, 1], [100, 3]], dtype=width)
        t = getattr(lib, make)(a)
        a[0, 0] = 5                                       # shared memory shows through; a copy does not
        return t, str(t.dtype), t.type(), repr(t), str(t.numpy().dtype), t.tolist()
    run_both(example)


@pytest.mark.parametrize("width", INTS + ("float16",))
def test_ops_on_every_width(run_both, width):
    """The int32 regression: every op that wraps a numpy result of that width knows its dtype, as torch does."""
    def example(lib):
        t = lib.from_numpy(np.array([[3, 1, 2], [5, 0, 4]], dtype=width))
        return (t + 1, t * t, t - t[0], t / 2, t == 1, t < 2.5, -t,
                t.argmax(), t.argmax(1), t.max(), t.max(0), t.min(1), t.sort(1), t[1], t[:, 1:], t[t > 1],
                t[lib.tensor([1, 0])], t.t(), t.reshape(-1), t.view(3, 2), t.unsqueeze(0), t.clone(), t.float(),
                t.to(lib.int64), lib.cat([t, t]), lib.stack([t, t]), lib.where(t > 2, t, t * 0), t.abs(), t.exp(),
                t.clamp(1, 3), t // 2, t % 2, t.tolist(), t[0, 0].item(), t.numel(), t.is_floating_point(),
                *((t.sum(), t.sum(0), repr(t.sum())) if width != "uint8" else ()))
    run_both(example)


@pytest.mark.parametrize("width", INTS)
def test_integer_bitwise_on_every_width(run_both, width):
    def example(lib):
        t = lib.tensor(np.array([5, 3, 0], dtype=width))
        return t & 3, t | 8, t ^ t, ~t, t & lib.tensor([1, 2, 4], dtype=lib.int8), t & True
    run_both(example)


@case
def tensor_from_numpy_scalars_and_mixed_lists(lib):
    return (lib.tensor(np.int32(3)), lib.tensor(np.float16(3)), lib.tensor(np.float64(1.5)), lib.tensor(np.uint8(3)),
            lib.tensor([np.int32(3), np.int32(4)]), lib.tensor([np.int8(1), 2]), lib.tensor([np.float16(1), 2]),
            lib.tensor([np.float32(1), np.int32(2)]), lib.tensor([np.float16(1), np.int16(2)]),
            lib.tensor([[np.uint8(1)], [np.int8(2)]]), lib.tensor([True, 2]), lib.tensor([True, 2.5]),
            lib.tensor([np.float64(1), 2.5]), lib.tensor([1.5, np.float32(2)]), lib.as_tensor(np.int16(3)),
            lib.tensor([[1, 2], [3, 4]]), lib.tensor([[1.0, 2], [3, 4]]), lib.tensor([]), lib.tensor([[], []]))


@case
def tensor_from_a_list_of_tensors(lib):
    a, b = lib.tensor(1.0, dtype=lib.float64), lib.tensor(2.0, dtype=lib.float64)
    return (lib.tensor([a, b]), lib.tensor([lib.tensor([1], dtype=lib.int8), lib.tensor([2], dtype=lib.int8)]),
            lib.tensor([lib.tensor(1, dtype=lib.int8), 2.5]))


@case
def tensor_with_an_explicit_dtype(lib):
    return ([lib.tensor([1, 2], dtype=d) for d in dtypes(lib)], lib.tensor([1.7, -2.7], dtype=lib.int16),
            lib.tensor([1e6, -70000], dtype=lib.float16), lib.tensor([True, 2], dtype=lib.uint8),
            lib.tensor(np.array([300, -1]), dtype=lib.uint8), lib.tensor(np.array([1e10, -1.7]), dtype=lib.int32),
            lib.tensor([255, 0], dtype=lib.uint8), lib.tensor([-128, 127], dtype=lib.int8))


@case
def as_tensor_shares_or_copies(lib):
    a = np.arange(3, dtype=np.int32)
    same, cast = lib.as_tensor(a), lib.as_tensor(a, dtype=lib.int64)
    kept = lib.as_tensor(a, dtype=lib.int32)
    a[0] = 9
    t = lib.tensor([1.0, 2.0], requires_grad=True)
    return same, cast, kept, lib.as_tensor(t) is t, lib.as_tensor(t, dtype=lib.float64), lib.as_tensor([1, 2])


@case
def numpy_names_of_a_width(lib):
    return [str(lib.from_numpy(np.zeros(2, d)).dtype) for d in (np.intc, np.longlong, np.ubyte, np.short, np.half)]


@pytest.mark.parametrize("name", list(CASES))
def test_parity(run_both, name):
    run_both(CASES[name])
