"""Parity of the smaller parts of `torch.Tensor` and `torch` that programs probe or call in passing (issue 26):
layouts and memory formats (`channels_last` strides, `dim_order`), the device and layout flags, the complex-number
API on real tensors (`conj`, `mT`, `angle`), the in-place comparisons, logic and shape changes (`gt_`,
`logical_not_`, `t_`, `squeeze_`), the build flags and settings, `torch.__version__` comparisons, the picks of
`kthvalue` and `mode` among ties, `torch.return_types`, and nansum/nanmean with nans. Values and gradients of the
new ops are also in the op table (tests/core/op_table_tensor_surface.py)."""
import itertools
import pickle

import numpy as np
import pytest

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


# ---- layouts and memory formats ----------------------------------------------------------------------------------
@case
def formats_print_and_compare(lib):
    return [repr(lib.strided), repr(lib.channels_last), repr(lib.channels_last_3d), repr(lib.contiguous_format),
            repr(lib.preserve_format), repr(lib.legacy_contiguous_format), lib.ones(2).layout is lib.strided,
            isinstance(lib.strided, lib.layout), isinstance(lib.channels_last, lib.memory_format)]


@case
def channels_last_strides(lib):
    x = lib.arange(120.0).reshape(2, 3, 4, 5)
    c = x.contiguous(memory_format=lib.channels_last)
    v = lib.zeros(1, 2, 2, 3, 4).contiguous(memory_format=lib.channels_last_3d)
    return [c.stride(), c.is_contiguous(), c.is_contiguous(memory_format=lib.channels_last),
            x.is_contiguous(memory_format=lib.channels_last), c.clone().stride(),
            c.clone(memory_format=lib.contiguous_format).stride(), c.contiguous().stride(), (c * 2).stride(), c,
            x.to(memory_format=lib.channels_last).stride(), x.to(lib.float64, memory_format=lib.channels_last).stride(),
            v.stride(), v.is_contiguous(memory_format=lib.channels_last_3d),
            lib.ones(2, 3).is_contiguous(memory_format=lib.channels_last_3d),
            x.contiguous(memory_format=lib.preserve_format) is x]


@case
def channels_last_records_a_clone(lib):
    x = lib.ones(1, 2, 2, 2, requires_grad=True)
    y = x.contiguous(memory_format=lib.channels_last)
    z = x.to(memory_format=lib.channels_last)
    (y * lib.arange(8.0).reshape(1, 2, 2, 2)).sum().backward()
    return [y.grad_fn.name(), z.grad_fn.name(), x.clone(memory_format=lib.channels_last).grad_fn.name(), x.grad]


@case
def channels_last_needs_rank_4(lib):
    return lib.ones(2, 3).contiguous(memory_format=lib.channels_last)


@case
def clone_memory_format_is_keyword_only(lib):
    return lib.ones(2).clone(lib.contiguous_format)


@case
def dim_order_of_every_permutation(lib):
    rows = []
    for shape in [(2, 3), (1, 3), (3, 1), (2, 1, 3), (2, 3, 4, 5), (1, 2, 3, 4), (2, 1, 1, 3), (3, 3, 3)]:
        x = lib.zeros(shape)
        for perm in itertools.permutations(range(len(shape))):
            rows.append(x.permute(perm).dim_order())
        rows.append(lib.zeros(shape[:-1] + (1,)).expand(shape).dim_order())
    rows.append(lib.zeros(2, 3, 4, 5).contiguous(memory_format=lib.channels_last).dim_order())
    rows.append(lib.zeros(2, 3).dim_order(ambiguity_check=True))
    rows.append(lib.zeros(1, 2, 3, 4).dim_order(ambiguity_check=[lib.contiguous_format, lib.channels_last]))
    return rows


@case
def dim_order_ambiguous(lib):
    return lib.zeros(1, 2, 3, 4).dim_order(ambiguity_check=True)


@case
def dim_order_bad_check(lib):
    return lib.zeros(2).dim_order(ambiguity_check="ILLEGAL")


# ---- flags: other devices and layouts, storage questions ---------------------------------------------------------
@case
def device_and_layout_flags(lib):
    x = lib.ones(2, 3)
    props = [getattr(x, n) for n in ("is_ipu", "is_maia", "is_meta", "is_mkldnn", "is_mtia", "is_nested",
                                     "is_quantized", "is_sparse", "is_sparse_csr", "is_vulkan", "is_xla", "is_xpu")]
    calls = [x.is_conj(), x.is_neg(), x.is_distributed(), x.is_pinned(), x.is_shared(), x.is_set_to(x),
             x.is_set_to(x.clone()), x.is_set_to(x.view(3, 2)), x.const_data_ptr() == x.data_ptr(), x.grad_dtype]
    return props + calls + [lib.get_device(x), lib.is_storage(x), lib.is_distributed(x), lib.is_conj(x)]


@case
def is_coalesced_needs_sparse(lib):
    return lib.ones(2).is_coalesced()


# ---- the complex-number API on real tensors ---------------------------------------------------------------------
@case
def conjugates_are_the_tensor(lib):
    x = lib.ones(2, 3, requires_grad=True)
    return [lib.conj(x) is x, x.conj() is x, lib.conj_physical(x) is x, x.resolve_conj() is x, lib.resolve_neg(x) is x,
            lib.real(x) is x, x.real is x, lib.isreal(x), lib.isreal(lib.tensor([1, 2]))]


@case
def conj_physical_in_place(lib):
    x = lib.tensor([1.0, -2.0], requires_grad=True)
    y = x * 1
    r = y.conj_physical_()
    y.sum().backward()
    return [r is y, y.grad_fn.name(), y._version, x.grad, lib.ones(2).conj_physical_()]


@case
def conj_physical_in_place_on_a_leaf(lib):
    return lib.ones(2, requires_grad=True).conj_physical_()


@case
def angle_of_real_numbers(lib):
    x = lib.tensor([-1.0, 0.0, 2.0, float("nan"), -0.0, float("-inf")], requires_grad=True)
    y = lib.angle(x)
    (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
    return [y, y.grad_fn.name(), g, g.requires_grad, lib.angle(lib.tensor([-2, 3])), lib.angle(lib.tensor([True])),
            x.double().angle().dtype]


@case
def matrix_transposes(lib):
    x = lib.arange(24.0).reshape(2, 3, 4).requires_grad_()
    m = lib.arange(6.0).reshape(2, 3)
    return [x.mT.shape, x.mT.stride(), x.mT.grad_fn.name(), x.mH.grad_fn.name(), x.adjoint().shape, lib.adjoint(m),
            m.H, m.mH, m.mT]


@pytest.mark.parametrize("expression", ["v.H", "v.mT", "v.mH", "v.adjoint()", "b.H"])
def test_matrix_transposes_refuse_vectors(parity, expression):
    def example(lib):
        v, b = lib.ones(3), lib.ones(2, 3, 4)    # noqa: F841 - read by eval
        return eval(expression)
    parity(example)


@case
def matrix_transposes_of_a_0d_tensor_warn(lib):
    x = lib.tensor(2.0)
    return [x.mT, x.mH, x.H, x.adjoint()]


# ---- comparisons, logic and integer division in place ----------------------------------------------------------
@case
def comparisons_in_place(lib):
    x = lib.tensor([[0.5, -1.0, 2.0], [0.0, 3.0, -2.0]], requires_grad=True)
    other = lib.tensor([0.5, 3.0, 2.0], requires_grad=True)
    out = []
    for name, args in [("gt_", (0.0,)), ("eq_", (other,)), ("le_", (lib.tensor([[1.0], [0.0]]),)), ("ne_", (0,)),
                       ("ge_", (0.5,)), ("lt_", (lib.zeros(3),)), ("greater_", (1,)), ("greater_equal_", (0.5,)),
                       ("less_", (lib.zeros(3),)), ("less_equal_", (-1.0,)), ("not_equal_", (other,))]:
        y = x * 1
        r = getattr(y, name)(*args)
        y.sum().backward()
        out += [name, r is y, y, y._version, x.grad, other.grad]
        x.grad = other.grad = None
    i = lib.tensor([1, 2, 3])
    return out + [i.gt_(2), i.dtype, lib.tensor([True, False]).eq_(lib.tensor([1, 0]))]


@case
def logic_in_place_records_nothing(lib):
    x = lib.tensor([[0.5, -1.0, 2.0], [0.0, 3.0, -2.0]], requires_grad=True)
    out = []
    for name, args in [("logical_and_", (lib.ones(3),)), ("logical_not_", ()),
                       ("logical_xor_", (lib.tensor([1.0, 0.0, 0.0]),)), ("logical_or_", (lib.zeros(3),))]:
        y = x * 1
        out += [name, getattr(y, name)(*args) is y, y, y._version]
    return out + [lib.tensor([True, False]).logical_not_(), lib.tensor([3, 0]).logical_and_(lib.tensor([1, 1]))]


@case
def integer_division_in_place(lib):
    x = lib.tensor([[0.5, -1.0, 2.0], [0.0, 3.0, -2.5]], requires_grad=True)
    y, z = x * 1, x * 1
    y.remainder_(1.5)
    z.remainder_(lib.tensor([1.0, 2.0, -1.5]))
    (y + z).sum().backward()
    w = x * 1
    w.floor_divide_(2)
    return [y, z, x.grad, w, lib.tensor([7, -7]).floor_divide_(2), lib.tensor([7, -7]).remainder_(3)]


@pytest.mark.parametrize("expression", ["x.gt_(0)", "(x * 1).gt_('a')", "(x * 1).eq_(lib.zeros(4))",
                                        "lib.ones(3).logical_not_().add_(1)", "x.logical_not_()",
                                        "lib.zeros(2, 1).logical_or_(lib.ones(3))"])
def test_in_place_misuse(parity, expression):
    def example(lib):
        x = lib.ones(2, 3, requires_grad=True)      # noqa: F841 - read by eval
        return eval(expression)
    parity(example)


# ---- shape changes in place ----------------------------------------------------------------------------------------
@case
def shapes_in_place(lib):
    x = lib.tensor([[[0.5, -1.0, 2.0]], [[0.0, 3.0, -2.0]]], requires_grad=True)   # (2, 1, 3)
    out = []
    for name, args in [("squeeze_", ()), ("squeeze_", (1,)), ("squeeze_", (0,)), ("unsqueeze_", (-1,)),
                       ("transpose_", (0, 2)), ("swapaxes_", (2, 1)), ("swapdims_", (0, 1))]:
        y = x * 1
        v = y[0]
        r = getattr(y, name)(*args)
        out += [name, r is y, y.shape, y.stride(), y._version, y.grad_fn.name(), v.shape]
        (y * lib.arange(float(y.numel())).reshape(y.shape)).sum().backward()
        out.append(x.grad)
        x.grad = None
    z = lib.zeros(2, 3)
    w = z.t_()
    m = lib.ones(2, 3, requires_grad=True) * 2
    m.t_()
    return out + [z.shape, z.stride(), w is z, z.is_contiguous(), m.grad_fn.name(), lib.zeros(3).t_().shape]


@pytest.mark.parametrize("expression", ["x.t_()", "lib.zeros(2, 2, 2).t_()", "lib.zeros(2).squeeze_(3)",
                                        "lib.zeros(2).unsqueeze_(3)", "x.squeeze_()"])
def test_shape_in_place_misuse(parity, expression):
    def example(lib):
        x = lib.ones(2, 3, requires_grad=True)      # noqa: F841 - read by eval
        return eval(expression)
    parity(example)


# ---- build flags and settings, versions ------------------------------------------------------------------------
@case
def matmul_precision_round_trips(lib):
    before = lib.get_float32_matmul_precision()
    lib.set_float32_matmul_precision("high")
    try:
        return [before, lib.get_float32_matmul_precision()]
    finally:
        lib.set_float32_matmul_precision("highest")


@case
def matmul_precision_unknown(lib):
    return lib.set_float32_matmul_precision("low")


@case
def settings_that_change_nothing(lib):
    return [lib.init_num_threads(), lib.is_autocast_enabled(), lib.is_autocast_cpu_enabled(),
            lib.is_autocast_xla_enabled(), lib.is_autocast_cache_enabled(), lib.is_vulkan_available(), lib.compiled_with_cxx11_abi(),
            isinstance(lib.has_lapack, bool), lib.cpu.is_available(), lib.cpu.device_count(), lib.cpu.synchronize(),
            lib.get_device_module("cpu") is lib.cpu, lib.get_device_module() is lib.cpu,
            lib.get_device_module("cuda") is lib.cuda, lib.version.cuda, lib.version.hip, lib.version.debug,
            issubclass(lib.FatalError, Exception)]


@case
def versions_compare_as_versions(lib):
    version = lib.torch_version.TorchVersion
    v = version("2.13.0+cpu")
    return [v > "2.9", v >= (2, 13), v < "2.13.1", v == "2.13", v == (2, 13, 0), v != "2.12", version("0.10") > "0.9",
            isinstance(lib.__version__, version), str(v), lib.__version__ > "0.0.1"]


# ---- selections by rank and frequency: ATen's picks among ties ------------------------------------------------------
@case
def kthvalue_among_ties_and_nans(lib):
    rng = np.random.default_rng(0)
    picks = []
    for _ in range(200):
        row = rng.integers(0, 4, int(rng.integers(1, 12))).astype(float)
        if rng.random() < 0.2:
            row[rng.integers(0, row.size)] = float("nan")
        k = int(rng.integers(1, row.size + 1))
        picks.append(tuple(lib.kthvalue(lib.tensor(row), k)))
    return picks


@case
def mode_among_ties(lib):
    rng = np.random.default_rng(1)
    rows = rng.integers(0, 3, (50, 7))
    return [lib.tensor(rows).mode(1), lib.tensor(rows.T.copy()).mode(0, keepdim=True), lib.tensor(5.0).mode(),
            lib.tensor(rows[0]).float().mode()]


@case
def named_results(lib):
    x = lib.tensor([[1.0, 4.0], [3.0, 2.0]])
    r = lib.return_types
    made = r.max((lib.ones(1), lib.zeros(1)))
    found = [x.max(0), x.kthvalue(1), x.aminmax(), lib.frexp(x), x.sort(), x.mode()]
    return found + [made, made.values, type(x.aminmax()).__name__, x.aminmax().max, lib.frexp(x).exponent,
                    isinstance(x.max(0), r.max), isinstance(x.max(0), tuple), pickle.loads(pickle.dumps(x.max(0))),
                    x.max(0).n_fields]


@case
def nan_reductions(lib):
    x = lib.tensor([[1.0, float("nan"), -2.0], [float("nan"), float("nan"), 3.0]], requires_grad=True)
    s, m = x.nansum(0), lib.nanmean(x, 1, keepdim=True)
    (s.sum() + m.sum()).backward()
    return [s, m, x.grad, m.grad_fn.next_functions[0][0].name(), lib.nansum(x, dtype=lib.float64),
            lib.nansum(lib.tensor([True, True])), lib.nanmean(lib.tensor([float("nan")]))]


# ---- integer shifts, gcd and lcm ---------------------------------------------------------------------------------
@case
def shifts_gcd_lcm(lib):
    x = lib.tensor([1, 2])
    x <<= 2
    shifted = x.clone()
    x >>= 1
    return [lib.bitwise_left_shift(lib.tensor([1, -2]), 3), lib.tensor([16]) >> 2,
            lib.bitwise_right_shift(lib.tensor([-16, 5]), lib.tensor([2, 1])), lib.tensor([1, 2]).bitwise_left_shift(70),
            lib.tensor([True]) << 1, lib.tensor([5], dtype=lib.uint8) << 9, lib.tensor([-5]) >> 70, 2 << lib.tensor([1, 2]),
            lib.tensor([1]).lcm_(lib.tensor([4])), lib.gcd(lib.tensor([0, 0, 12, -18]), lib.tensor([0, 5, 8, 4])),
            lib.lcm(lib.tensor([4, 0, -3]), lib.tensor([6, 3, 4])), lib.tensor([3, 4], dtype=lib.int32) << lib.tensor([1, -1]),
            lib.tensor([7], dtype=lib.int8) << 4, lib.tensor([-128], dtype=lib.int8) >> 1, shifted, x]


@pytest.mark.parametrize("expression", ["lib.tensor([1.0]) << 1", "lib.gcd(lib.tensor([1.0]), lib.tensor([2.0]))",
                                        "lib.lcm(lib.tensor([1.0]), lib.tensor([2]))"])
def test_integer_ops_refuse_floats(parity, expression):
    parity(lambda lib: eval(expression))


# ---- factories that follow a formula -----------------------------------------------------------------------------
@case
def formula_factories(lib):
    return [lib.scalar_tensor(3), lib.scalar_tensor(2, dtype=lib.int64), lib.logspace(0, 2, 3),
            lib.logspace(0, 2, 3, base=2), lib.logspace(0, 1, 4, dtype=lib.int64), lib.range(0, 3), lib.range(1, 2, 0.5),
            lib.hann_window(5), lib.hamming_window(4, periodic=False), lib.blackman_window(3), lib.bartlett_window(5),
            lib.kaiser_window(4), lib.hann_window(1), lib.hann_window(0), lib.blackman_window(8, dtype=lib.float64),
            lib.bartlett_window(6, False), lib.kaiser_window(7, False, 5.0), lib.hamming_window(6, True, 0.5, 0.3)]


@pytest.mark.parametrize("expression", ["lib.hann_window(-1)", "lib.hann_window(3, dtype=lib.int64)",
                                        "lib.kaiser_window(3, dtype=lib.int32)", "lib.logspace(0, 1, -1)"])
def test_factory_misuse(parity, expression):
    parity(lambda lib: eval(expression))


@case
def legacy_new(lib):
    x = lib.ones(2)
    return [x.new(2, 3).shape, x.new([1, 2]), x.new().shape, lib.ones(2, dtype=lib.int32).new([3, 4]),
            x.new(lib.Size([2])).shape, x.new(x) is x]


# ---- inverse, determinants, powers --------------------------------------------------------------------------------
@case
def inverse_determinants_powers(lib):
    lib.manual_seed(0)
    a = lib.randn(3, 3, requires_grad=True)
    b = lib.randn(2, 3, 3, requires_grad=True)
    sign, logabsdet = lib.slogdet(a)
    outs = [lib.det(a), lib.inverse(a), a.logdet(), lib.linalg.inv(b), lib.linalg.det(b), lib.matrix_power(a, 3),
            lib.matrix_power(a, 0), lib.matrix_power(a, 1), lib.matrix_power(a, -2), lib.matrix_power(a, 5),
            (a @ a.mT + lib.eye(3)).logdet(), sign, logabsdet]
    grads = lib.autograd.grad(sum(o.sum() for o in outs), (a, b))
    g, = lib.autograd.grad(lib.det(a), a, create_graph=True)
    return [(o.round(decimals=3), o.grad_fn.name()) for o in outs] + [
        [x.round(decimals=3) for x in grads], lib.autograd.grad(g.sum(), a)[0].round(decimals=3),
        lib.matrix_power(lib.tensor([[1, 1], [0, 1]]), 3), lib.slogdet(lib.zeros(2, 2)), lib.logdet(-lib.eye(3)),
        lib.det(lib.zeros(2, 2)).abs(), issubclass(lib.linalg.LinAlgError, RuntimeError)]


@case
def determinant_of_a_singular_matrix_has_torchs_zero_gradient(lib):
    s = lib.tensor([[1.0, 2.0], [2.0, 4.0]], requires_grad=True)
    lib.det(s).backward()
    return s.grad.abs()


# ---- torch.special: SciPy's names for minigrad's ops ---------------------------------------------------------------
@case
def special_functions(lib):
    S = lib.special
    x = lib.tensor([0.25, 1.5, 3.0], requires_grad=True)
    a = lib.tensor([1.0, 2.0, 3.0])
    outs = [S.expit(x), S.logit(x * 0.2), S.erf(x), S.erfc(x), S.erfinv(x * 0.2), S.exp2(x), S.expm1(x), S.log1p(x),
            S.gammaln(x), S.digamma(x), S.psi(x), S.polygamma(1, x), S.multigammaln(x + 1, 2), S.gammainc(a, x),
            S.gammaincc(a, x), S.i0(x), S.i1(x), S.log_softmax(x, 0), S.softmax(x, 0), S.logsumexp(x, 0), S.round(x),
            S.round(x, decimals=1), S.sinc(x), S.xlogy(x, x), S.ndtr(x), S.ndtr(lib.tensor([0, 1]))]
    return [(o, o.grad_fn.name() if o.grad_fn else None) for o in outs] + [
        lib.autograd.grad(sum(o.sum() for o in outs), x)]


@pytest.mark.parametrize("name", list(CASES))
def test_parity(run_both, name):
    run_both(CASES[name])
