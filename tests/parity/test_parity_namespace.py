"""Parity of issue 26's namespace functions beyond the op table (tests/core/op_table_namespace.py): torch's constants
and global settings (the default dtype, print options, threads, deterministic algorithms, warn_always, typename),
the predicates and broadcast_shapes, saved attributes of the new nodes, special values (poles, nan, inf), the
indices median picks, unique's nodes, and the layouts (strides) that rot90 and meshgrid leave.
"""
import math

import numpy as np
import pytest

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def _saved(node, *names):
    return {name: getattr(node, "_saved_" + name) for name in names}


# ---- constants and the default dtype -------------------------------------------------------------------------
@case
def constants(lib):
    x = lib.ones(2, 3)
    return [lib.pi, lib.e, lib.inf, math.isnan(lib.nan), lib.newaxis is None, tuple(x[:, lib.newaxis].shape)]


def _with_default(lib, dtype, make):
    lib.set_default_dtype(dtype)
    try:
        return make()
    finally:
        lib.set_default_dtype(lib.float32)


@case
def default_dtype_float64_reaches_every_factory(lib):
    def make():
        lib.manual_seed(0)
        return [lib.get_default_dtype(), lib.tensor([1.5]), lib.randn(3), lib.rand(2), lib.zeros(2), lib.arange(3.0),
                lib.linspace(0, 1, 3), lib.full((1,), 1.5), lib.empty(0).dtype, lib.tensor([]).dtype,
                lib.Tensor([1.0]).dtype, lib.nn.Linear(2, 2).weight.dtype, lib.tensor(1.5).dtype]
    return _with_default(lib, lib.float64, make)


@case
def default_dtype_float64_in_promotion_and_printing(lib):
    def make():
        i = lib.tensor([1, 2])
        return [i / 2, i.exp(), i * 2.5, i.float().dtype, repr(lib.tensor([1.5])),
                repr(lib.tensor([1.5], dtype=lib.float32)), repr(lib.zeros(0)), repr(lib.zeros(0, dtype=lib.float32))]
    return _with_default(lib, lib.float64, make)


@case
def default_dtype_float16(lib):
    return _with_default(lib, lib.float16, lambda: [lib.tensor([0.1]), lib.tensor([1]) / 3, lib.ones(2)])


@case
def default_dtype_must_be_floating(lib):
    return lib.set_default_dtype(lib.int64)


@case
def default_dtype_must_be_a_dtype(lib):
    return lib.set_default_dtype("float64")


# ---- print options ---------------------------------------------------------------------------------------------
def _printed(lib, **options):
    lib.manual_seed(0)
    values = [lib.randn(4, 5) * 100, lib.arange(2000.0).reshape(40, 50), lib.tensor([1.5e-5, 3.0, 2.0]),
              lib.arange(12), lib.tensor([1.0, 2.0]), lib.randn(3, requires_grad=True) * 2]
    lib.set_printoptions(**options)
    try:
        return "\n".join(repr(v) for v in values)
    finally:
        lib.set_printoptions(profile="default")


@pytest.mark.parametrize("options", [dict(precision=2), dict(threshold=5), dict(threshold=5, edgeitems=1),
                                     dict(edgeitems=0, threshold=3), dict(linewidth=30), dict(profile="short"),
                                     dict(profile="full"), dict(sci_mode=True), dict(sci_mode=False),
                                     dict(profile="short", precision=6)], ids=str)
def test_print_options_print_as_torch(run_both, options):
    run_both(lambda lib: _printed(lib, **options))


@case
def print_options_profile_full_keeps_every_element(lib):
    lib.set_printoptions(profile="full")
    try:
        return repr(lib.arange(1100))
    finally:
        lib.set_printoptions(profile="default")


# ---- threads, deterministic algorithms, warn_always, typename -----------------------------------------------
@case
def num_threads_are_recorded(lib):
    before = lib.get_num_threads()
    lib.set_num_threads(1)
    try:
        return [lib.get_num_threads(), isinstance(lib.get_num_interop_threads(), int)]
    finally:
        lib.set_num_threads(before)


@pytest.mark.parametrize("call", ["set_num_threads(0)", "set_num_threads(1.5)", "set_num_interop_threads(0)",
                                  "use_deterministic_algorithms(1)", "set_deterministic_debug_mode('x')",
                                  "set_deterministic_debug_mode(5)", "set_deterministic_debug_mode(1.5)",
                                  "set_warn_always(1)"])
def test_setting_misuse_raises_as_torch(run_both, call):
    run_both(lambda lib: eval(f"lib.{call}", {"lib": lib}))


@case
def deterministic_algorithms_are_recorded(lib):
    seen = [lib.are_deterministic_algorithms_enabled(), lib.get_deterministic_debug_mode()]
    try:
        lib.use_deterministic_algorithms(True, warn_only=True)
        seen += [lib.are_deterministic_algorithms_enabled(), lib.is_deterministic_algorithms_warn_only_enabled(),
                 lib.get_deterministic_debug_mode()]
        lib.set_deterministic_debug_mode("error")
        seen += [lib.get_deterministic_debug_mode(), lib.is_deterministic_algorithms_warn_only_enabled()]
    finally:
        lib.set_deterministic_debug_mode(0)
    return seen + [lib.are_deterministic_algorithms_enabled()]


@case
def warn_always_repeats_meshgrids_warning(lib):
    lib.set_warn_always(True)
    try:
        x = lib.ones(2)
        grids = [lib.meshgrid(x, x), lib.meshgrid([x])]
        return [lib.is_warn_always_enabled(), grids]
    finally:
        lib.set_warn_always(False)


@case
def warn_always_repeats_the_non_writable_array_warning(lib):
    a = np.ones(2)
    a.flags.writeable = False
    lib.set_warn_always(True)
    try:
        return [lib.from_numpy(a), lib.as_tensor(a)]
    finally:
        lib.set_warn_always(False)


@case
def typename(lib):
    objects = [lib.ones(2), lib.ones(2).long(), lib.ones(1, dtype=lib.float16), lib.tensor([True]),
               lib.nn.Parameter(lib.ones(1)), lib.nn.Linear(2, 2), lib.nn.Module, lib.Tensor, lib.Size([1]),
               lib.float32, lib.no_grad(), lib.autograd.Function, lib.optim.SGD, 1, None, [1], int]
    return [lib.typename(o) for o in objects]


# ---- predicates, broadcast_shapes, aliases -------------------------------------------------------------------
@case
def predicates(lib):
    x, u, b = lib.ones(2, 3), lib.tensor([1], dtype=lib.uint8), lib.tensor([True])
    return [lib.is_complex(x), x.is_complex(), lib.is_signed(x), lib.is_signed(u), lib.is_signed(b),
            lib.is_signed(lib.tensor([1], dtype=lib.int8)), lib.is_nonzero(lib.tensor([0.0])),
            lib.tensor(3).is_nonzero(), lib.is_same_size(x, x.t().t()), x.is_same_size(x.t()), lib.numel(x),
            x.ndimension()]


@case
def broadcast_shapes(lib):
    return [lib.broadcast_shapes((2, 1), (3,)), lib.broadcast_shapes(2, (3, 1)), lib.broadcast_shapes(),
            lib.broadcast_shapes(lib.Size([2, 3]), [1, 3]), lib.broadcast_shapes((1, 1, 1), (2,), (3, 1))]


@case
def aliases_return_the_same_objects_and_views(lib):
    x = lib.ones(2, 3)
    r = lib.ravel(x)
    row = x[0]
    return [lib.positive(x) is x, r._base is x, lib.atleast_1d(x) is x, lib.cartesian_prod(row) is row,
            x.t().ravel().is_contiguous(), lib.swapaxes(x, 0, 1)._base is x]


@case
def saved_attributes_of_rsub_and_rounded_division(lib):
    x = lib.tensor([1.0, -2.5], requires_grad=True)
    return [_saved(lib.rsub(x, 2, alpha=3).grad_fn, "alpha"), _saved(lib.rsub(x, x * 2, alpha=2).grad_fn, "alpha"),
            _saved(lib.div(x, 2, rounding_mode="trunc").grad_fn, "rounding_mode"),
            _saved(x.div(x, rounding_mode="floor").grad_fn, "rounding_mode"), lib.sgn(x).grad_fn.name()]


@case
def rounded_division_of_large_integers(lib):
    i = lib.tensor([2 ** 62 + 1, -5, 7, -7])
    return [i.div(3, rounding_mode="trunc"), i.div(-2, rounding_mode="floor"), lib.divide(i, 2, rounding_mode="trunc"),
            lib.tensor([5], dtype=lib.uint8).div(2, rounding_mode="trunc")]


# ---- the new nodes: saved attributes ---------------------------------------------------------------------------
@case
def saved_attributes_of_elementwise_nodes(lib):
    x = lib.tensor([0.5, 2.0], requires_grad=True)
    y = lib.tensor([1.5, -2.0], requires_grad=True)
    return [_saved(lib.logaddexp(x, y).grad_fn, "self", "other"), _saved(lib.hypot(x, y).grad_fn, "result"),
            _saved(lib.copysign(x, -1).grad_fn, "self", "result"), _saved(lib.fmod(x, y).grad_fn, "self", "other"),
            _saved(lib.xlogy(2, y).grad_fn, "self", "other"), _saved(lib.xlogy(x, 3).grad_fn, "self", "other"),
            _saved(lib.polygamma(2, x).grad_fn, "n", "self"), _saved(lib.logit(x, 0.1).grad_fn, "eps", "self"),
            _saved(lib.logit(x).grad_fn, "eps"), _saved(lib.nan_to_num(x).grad_fn, "self")]


@case
def saved_attributes_of_selection_and_layout_nodes(lib):
    x = lib.tensor([[3.0, 1.0, 2.0], [0.5, 4.0, 1.5]], requires_grad=True)
    return [_saved(lib.median(x).grad_fn, "self", "result"),
            _saved(x.median(1, keepdim=True).values.grad_fn, "dim", "keepdim", "indices", "self_sym_sizes"),
            _saved(x.nanmedian(0).values.grad_fn, "dim", "self_sym_sizes"),
            _saved(lib.trace(x).grad_fn, "self_sym_sizes"),
            _saved(lib.rot90(x, 3, [1, 0]).grad_fn, "k", "dims"), _saved(lib.masked_select(x, x > 1).grad_fn, "mask")]


# ---- special values --------------------------------------------------------------------------------------------
@case
def gamma_family_at_poles_and_infinities(lib):
    v = lib.tensor([0.0, -0.0, -1.0, -0.5, 1e-30, 3.0, float("inf"), float("-inf"), float("nan")], dtype=lib.float64)
    return [lib.lgamma(v), lib.digamma(v), lib.polygamma(2, v), lib.polygamma(3, lib.tensor([0.1, -0.5, 7.0])),
            lib.lgamma(lib.tensor([True, False])), lib.polygamma(1, lib.tensor([1, 2]))]


@case
def pointwise_special_values(lib):
    inf, nan = float("inf"), float("nan")
    z = lib.tensor([0.0, -0.0, nan, -1.0, inf])
    return [lib.logaddexp(lib.tensor([inf, -inf, inf]), lib.tensor([inf, -inf, -inf])),
            lib.heaviside(z, lib.tensor(7.0)), lib.signbit(lib.tensor([-0.0, nan, -nan, 1.0])),
            lib.copysign(lib.tensor([1.0, 2.0]), lib.tensor([-0.0, 0.0])),
            lib.xlogy(lib.tensor([0.0, 0.0, 1.0]), lib.tensor([nan, 0.0, 0.0])), lib.fmod(lib.tensor([-7.5, 7.5]), -2),
            lib.nan_to_num(lib.tensor([inf, -inf, nan], dtype=lib.float16)), lib.nan_to_num(z.double(), posinf=1e300),
            lib.logit(lib.tensor([0.0, 1.0, 0.5, -0.5])), lib.sinc(lib.tensor([0.0, 1.0, 1e-20]))]


# ---- medians and unique --------------------------------------------------------------------------------------
@case
def median_returns_torchs_named_pair(lib):
    x = lib.tensor([[2.0, 1.0, 2.0, 2.0, 3.0], [5.0, 5.0, 5.0, 1.0, 1.0]])
    return [repr(lib.median(x, 1)), repr(x.nanmedian(0, keepdim=True)), lib.median(lib.tensor([])),
            lib.nanmedian(lib.tensor([float("nan")] * 2)), lib.median(lib.tensor(3.0), 0)]


@pytest.mark.parametrize("n", [1, 3, 4, 7, 13, 100])
def test_nanmedian_of_nans_alone_picks_torchs_index(run_both, n):
    run_both(lambda lib: lib.nanmedian(lib.full((2, n), float("nan")), 1))


@case
def median_of_ties_picks_torchs_index(lib):
    x = lib.tensor([[1.0, 1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1], [3.0, 1, 2, 2, 2, 0, 2, 5, 5, 5, 5, 5]])
    return [tuple(x.median(1)), tuple(lib.ones(3, 4).median(0)), tuple(x.t().median(0))]


@case
def unique_nodes_and_values(lib):
    nan = float("nan")
    x = lib.tensor([3.0, 1, 2, 3, 1, nan, nan, -0.0, 0.0], requires_grad=True)
    m = lib.tensor([[1.0, 2.0], [1.0, 2.0], [0.0, 5.0]], requires_grad=True)
    return [lib.unique(x), x.unique(sorted=False, return_counts=True), lib.unique(m, dim=0),
            lib.unique_consecutive(m, dim=0, return_inverse=True), lib.unique(lib.tensor([0.0, 1.0, -0.0])),
            lib.unique(lib.tensor([[2, 1], [1, 2]]), return_inverse=True),
            lib.unique(lib.tensor(3.0), return_inverse=True)]


@case
def bincount_dtypes_and_node(lib):
    i = lib.tensor([0, 2, 2])
    return [lib.bincount(i, weights=lib.tensor([1, 2, 3])), i.bincount(lib.tensor([0.5, 1.0, 2.0], dtype=lib.float64)),
            lib.bincount(i, lib.tensor([0.5, 1.0, 2.0], requires_grad=True)).grad_fn.name(),
            lib.bincount(lib.tensor([], dtype=lib.int64)), lib.bincount(lib.tensor([1, 2], dtype=lib.uint8))]


@case
def searches_with_nan_sorter_and_numbers(lib):
    nan = float("nan")
    return [lib.searchsorted(lib.tensor([1.0, nan]), lib.tensor([nan, 2.0])),
            lib.searchsorted(lib.tensor([1, 3, 5]), 3),
            lib.searchsorted(lib.tensor([3, 1, 2]), lib.tensor([2]), sorter=lib.tensor([1, 2, 0])),
            lib.searchsorted(lib.tensor([1.0, 3.0]), lib.tensor([2, 3]), out_int32=True),
            lib.searchsorted(lib.tensor([1, 3]), lib.tensor([[2, 4]])),
            lib.bucketize(3, lib.tensor([1, 3, 5]), right=True),
            lib.isin(2, lib.tensor([1, 2])), lib.isin(lib.tensor([1, 2]), lib.tensor([1.5, 2.0]))]


# ---- layouts ---------------------------------------------------------------------------------------------------
@case
def rot90_and_grids_leave_torchs_strides(lib):
    x = lib.ones(2, 3)
    grids = lib.meshgrid(lib.ones(2), lib.ones(3), indexing="xy")
    return [x.rot90().stride(), x.rot90(2).is_contiguous(), x.rot90(0).is_contiguous(), x.rot90(3).stride(),
            lib.ones(2, 3, 4).rot90(1, (2, 0)).stride(), [g.stride() for g in grids],
            lib.cartesian_prod(lib.ones(2), lib.ones(3)).is_contiguous(), lib.tensor_split(x, 2, dim=1)[1].stride()]


@case
def tensordot_picks_torchs_products(lib):
    a, b = lib.ones(3, 4, requires_grad=True), lib.ones(4, 3, requires_grad=True)
    outs = [lib.tensordot(a, b, ([1, 0], [0, 1])), lib.tensordot(lib.ones(1, 4, requires_grad=True), b[:, :1], 1),
            lib.tensordot(a, b, dims=lib.tensor(1)), lib.tensordot(a, b, dims=lib.tensor([[1], [0]]))]
    return [o.grad_fn.name() for o in outs] + outs


@pytest.mark.parametrize("name", list(CASES))
def test_parity(run_both, name):
    run_both(CASES[name])
