"""Op-table rows for the dtype ops added for the tutorials' PyTorch (issue 11). Format: see op_table.py.

Casts to every dtype, PyTorch's promotion across int8/int16/int32/uint8/float16 (where numpy's differs, `dtype=`
says torch's), floor division and remainder with PyTorch's sign rules, bitwise operators, `isclose`.
"""
import numpy as np

from .op_table_base import FLOAT, A, B, C, Arg, Case, I, Ix, N, P  # noqa: F401


def W(*shape, dtype):  # noqa: N802 - integers in [-3, 3] of another width
    return Arg(shape, "int", dtype)


def U8(*shape):  # noqa: N802 - uint8 values in [0, 200)
    return Arg(shape, "index", "uint8", high=200)


def K(*shape, kind="normal"):  # noqa: N802 - a float input that does not require grad
    return Arg(shape, kind, FLOAT, const=True)


def _remainder(x, y):
    """ATen's float remainder: fmod, then the divisor's sign (numpy's % agrees but for the sign of zero)."""
    mod = np.fmod(x, y)
    return np.where((mod != 0) & ((y < 0) != (mod < 0)), mod + y, mod)


DIVISORS = C([2, -3, 4], "int64")

CASES = [
    # ---- casts to every dtype (a float result keeps the graph: ToCopyBackward0) ------------------------------
    Case("half", lambda L, x: x.half(), (N(2, 3, dtype="float32"),), lambda x: x.astype("float16"),
         gradcheck=False),      # a float16 result: finite differences would be too coarse
    Case("half_to_float", lambda L, x: x.float(), (N(2, 3, dtype="float16"),), lambda x: x.astype("float32"),
         gradcheck=False),
    Case("half_to_double", lambda L, x: x.double(), (N(3, dtype="float16"),), lambda x: x.astype("float64")),
    Case("int", lambda L, x: (x * 3).int(), (N(2, 3),), lambda x: (x * 3).astype("int32"), grad=False),
    Case("short", lambda L, x: (x * 3).short(), (N(2, 3),), lambda x: (x * 3).astype("int16"), grad=False),
    Case("char", lambda L, x: (x * 3).char(), (N(2, 3),), lambda x: (x * 3).astype("int8"), grad=False),
    Case("byte", lambda L, x: x.byte(), (C([0.5, 3.7, 255.2]),), lambda x: x.astype("uint8"), grad=False),
    Case("int_to_byte_wraps", lambda L, i: i.byte(), (C([-1, 300, 7], "int64"),), lambda i: i.astype("uint8"),
         grad=False),
    Case("int8_to_half", lambda L, i: i.half(), (W(4, dtype="int8"),), lambda i: i.astype("float16"), grad=False),
    Case("uint8_to_bool", lambda L, i: i.bool(), (U8(4),), lambda i: i.astype(bool), grad=False),
    Case("bool_to_int32", lambda L, b: b.int(), (B(4),), lambda b: b.astype("int32"), grad=False),
    Case("to_copy_same_dtype", lambda L, x: x.to(L.float32, copy=True), (N(3, dtype="float32"),), lambda x: x.copy(),
         gradcheck=False),
    Case("to_other_tensor", lambda L, x, y: x.to(y), (N(3, dtype="float32"), C([1.0], "float64")),
         lambda x, y: x.astype("float64")),
    Case("to_cpu_dtype", lambda L, x: x.to("cpu", L.float64), (N(3, dtype="float32"),), lambda x: x.astype("float64")),
    Case("to_device_keyword_dtype", lambda L, x: x.to(device=L.device("cpu"), dtype=L.int32), (C([1.5, -2.5]),),
         lambda x: x.astype("int32"), grad=False),
    Case("type_dtype", lambda L, x: x.type(L.float64), (N(3, dtype="float32"),), lambda x: x.astype("float64")),
    Case("type_string", lambda L, x: x.type("torch.IntTensor"), (C([1.5, -2.5]),), lambda x: x.astype("int32"),
         grad=False),
    Case("type_legacy_class", lambda L, x: x.type(L.ShortTensor), (C([1.5, -2.5]),), lambda x: x.astype("int16"),
         grad=False),
    Case("type_as", lambda L, x, i: x.type_as(i), (C([1.5, -2.5]), W(2, dtype="int8")), lambda x, i: x.astype("int8"),
         grad=False),
    # ---- promotion: categories first (bool < int < float), then width; a lower-ranked operand decides only if
    #      it is of a higher category -------------------------------------------------------------------------
    Case("promote_uint8_int8", lambda L, u, i: u + i, (U8(2, 3), W(3, dtype="int8")), lambda u, i: u + i, grad=False),
    Case("promote_int8_int32", lambda L, i, j: i * j, (W(2, 3, dtype="int8"), W(3, dtype="int32")),
         lambda i, j: i * j, grad=False),
    Case("promote_int32_int64", lambda L, i, j: i - j, (W(3, dtype="int32"), I(3)), lambda i, j: i - j, grad=False),
    Case("promote_int16_0d_int64", lambda L, i, j: i + j, (W(2, 3, dtype="int16"), C(5, "int64")),
         lambda i, j: i + j, dtype="int16", grad=False),
    Case("promote_uint8_0d_int8", lambda L, u, i: u + i, (U8(4), C(-5, "int8")), lambda u, i: u + i, dtype="uint8",
         grad=False),
    Case("promote_int8_python_int", lambda L, i: i * 3, (W(2, 3, dtype="int8"),), lambda i: i * 3, grad=False),
    Case("promote_uint8_python_int", lambda L, u: u + 7, (U8(4),), lambda u: u + 7, grad=False),
    Case("promote_int32_python_float", lambda L, i: i * 2.5, (W(2, 3, dtype="int32"),), lambda i: i * 2.5,
         dtype="float32", grad=False),
    Case("promote_int32_0d_float64", lambda L, i, y: i + y, (W(3, dtype="int32"), N(dtype="float64")),
         lambda i, y: i + y),
    Case("promote_int32_float16", lambda L, i, x: i + x, (W(2, 3, dtype="int32"), N(3, dtype="float16")),
         lambda i, x: i + x, dtype="float16"),
    Case("promote_int64_float16", lambda L, i, x: i * x, (I(3), N(3, dtype="float16")), lambda i, x: i * x,
         dtype="float16"),
    Case("promote_float16_float32", lambda L, x, y: x + y, (N(2, 3, dtype="float16"), N(3, dtype="float32")),
         lambda x, y: x + y),
    Case("promote_float16_0d_float64", lambda L, x, y: x + y, (N(2, 3, dtype="float16"), C(0.5, "float64")),
         lambda x, y: x + y, dtype="float16"),
    Case("promote_float16_python_float", lambda L, x: x * 0.5, (N(2, 3, dtype="float16"),), lambda x: x * 0.5),
    Case("promote_bool_int8", lambda L, b, i: b + i, (B(3), W(3, dtype="int8")), lambda b, i: b + i, grad=False),
    Case("promote_bool_float16", lambda L, b, x: b * x, (B(3), N(3, dtype="float16")), lambda b, x: b * x),
    Case("float16_mul", lambda L, x, y: x * y, (N(2, 3, dtype="float16"), N(2, 3, dtype="float16")),
         lambda x, y: x * y),
    Case("int16_div", lambda L, i, j: i / j, (W(3, dtype="int16"), C([1, -2, 4], "int16")), lambda i, j: i / j,
         dtype="float32", grad=False),
    Case("int32_lt_float", lambda L, i: i < 0.5, (W(2, 3, dtype="int32"),), lambda i: i < 0.5, grad=False),
    # ---- reductions of small integers give int64, as in PyTorch ---------------------------------------------------
    Case("sum_int32", lambda L, i: i.sum(), (W(2, 3, dtype="int32"),), lambda i: i.sum(), dtype="int64", grad=False),
    Case("sum_int8_dim", lambda L, i: i.sum(0), (W(2, 3, dtype="int8"),), lambda i: i.sum(0), dtype="int64",
         grad=False),
    Case("argmax_int32", lambda L, i: i.argmax(), (C([3, 9, -2, 9], "int32"),), lambda i: np.argmax(i), grad=False),
    Case("max_dim_int16", lambda L, i: i.max(1), (C([[3, 9, -2], [4, 0, 1]], "int16"),),
         lambda i: (i.max(1), np.argmax(i, 1)), grad=False),
    # ---- floor division: rounds toward -inf -----------------------------------------------------------------------
    Case("floordiv_int", lambda L, i, j: i // j, (W(2, 3, dtype="int64"), DIVISORS), np.floor_divide, grad=False),
    Case("floordiv_int_scalar", lambda L, i: i // -2, (I(2, 3),), lambda i: i // -2, grad=False),
    Case("rfloordiv_int", lambda L, j: 7 // j, (DIVISORS,), lambda j: 7 // j, grad=False),
    Case("floordiv_int8_uint8", lambda L, i, u: i // u, (W(4, dtype="int8"), C([1, 2, 3, 200], "uint8")),
         lambda i, u: i // u, grad=False),
    Case("floordiv_int_by_float", lambda L, i: i // 2.5, (I(2, 3),), lambda i: i // 2.5, dtype="float32", grad=False),
    Case("floordiv_float", lambda L, x, y: x // y, (K(2, 3), K(3, kind="away")), np.floor_divide, grad=False),
    Case("torch_floor_divide", lambda L, x: L.floor_divide(x, 0.5), (K(4),), lambda x: x // 0.5, grad=False),
    # ---- remainder: the sign of the divisor -----------------------------------------------------------------------
    Case("remainder", lambda L, x, y: x % y, (N(2, 3), A(3)), _remainder),
    Case("remainder_broadcast_0d", lambda L, x, y: x % y, (N(2, 3), A()), _remainder),
    Case("remainder_scalar", lambda L, x: x % 1.5, (N(2, 3),), lambda x: _remainder(x, 1.5)),
    Case("remainder_negative_scalar", lambda L, x: x.remainder(-0.7), (N(4),), lambda x: _remainder(x, -0.7)),
    Case("torch_remainder", lambda L, x, y: L.remainder(x, y), (N(3), A(3)), _remainder),
    Case("rmod_float", lambda L, y: 5.5 % y, (K(3, kind="away"),), lambda y: _remainder(5.5, y), grad=False),
    Case("remainder_int", lambda L, i, j: i % j, (W(2, 3, dtype="int64"), DIVISORS), np.remainder, grad=False),
    Case("remainder_int32_scalar", lambda L, i: i % -3, (W(2, 3, dtype="int32"),), lambda i: i % -3, grad=False),
    Case("rmod_int", lambda L, j: 7 % j, (DIVISORS,), lambda j: 7 % j, grad=False),
    Case("remainder_int_by_float", lambda L, i: i % 2.5, (I(2, 3),), lambda i: _remainder(i, 2.5), dtype="float32",
         grad=False),
    # ---- bitwise operators on bool and integer tensors ------------------------------------------------------------
    Case("and_bool", lambda L, a, b: a & b, (B(2, 3), B(3)), lambda a, b: a & b, grad=False),
    Case("or_bool", lambda L, a, b: a | b, (B(2, 3), B(2, 3)), lambda a, b: a | b, grad=False),
    Case("xor_bool", lambda L, a, b: a ^ b, (B(4), B(4)), lambda a, b: a ^ b, grad=False),
    Case("invert_bool", lambda L, b: ~b, (B(2, 3),), lambda b: ~b, grad=False),
    Case("and_int_scalar", lambda L, i: i & 3, (I(2, 3),), lambda i: i & 3, grad=False),
    Case("rand_int_scalar", lambda L, i: 6 & i, (W(4, dtype="int32"),), lambda i: 6 & i, grad=False),
    Case("or_uint8_int8", lambda L, u, i: u | i, (U8(4), W(4, dtype="int8")), lambda u, i: u | i, grad=False),
    Case("xor_int16", lambda L, i, j: i ^ j, (W(3, dtype="int16"), W(3, dtype="int16")), lambda i, j: i ^ j,
         grad=False),
    Case("invert_int8", lambda L, i: ~i, (W(4, dtype="int8"),), lambda i: ~i, grad=False),
    Case("and_bool_python_int", lambda L, b: b & 1, (B(4),), lambda b: b.astype("int64") & 1, grad=False),
    Case("or_bool_python_bool", lambda L, b: b | True, (B(4),), lambda b: b | True, grad=False),
    Case("torch_bitwise_xor", lambda L, i, j: L.bitwise_xor(i, j), (I(3), I(3)), np.bitwise_xor, grad=False),
    Case("bitwise_not_method", lambda L, i: i.bitwise_not(), (I(3),), np.invert, grad=False),
    # ---- isclose: |x - y| <= atol + rtol * |y| ---------------------------------------------------------------------
    Case("isclose", lambda L, x, y: L.isclose(x, y, rtol=0.5), (N(2, 3), N(2, 3)),
         lambda x, y: np.isclose(x, y, rtol=0.5), grad=False),
    Case("isclose_equal_nan", lambda L, x, y: x.isclose(y, equal_nan=True),
         (C([1.0, float("nan"), float("inf"), 2.0]), C([1.0, float("nan"), float("inf"), 2.001])),
         lambda x, y: np.isclose(x, y, equal_nan=True), grad=False),
    Case("isclose_int_atol", lambda L, i, j: L.isclose(i, j, atol=1), (I(2, 3), I(2, 3)),
         lambda i, j: np.abs(i - j) <= 1, grad=False),
]

_CUDA = "Torch not compiled with CUDA enabled"

ERRORS = [
    # ---- integer division by zero, bool division, no derivative ----------------------------------------------------
    ("floordiv_int_by_zero", lambda L: L.tensor([1, 2]) // 0),
    ("remainder_int_by_zero", lambda L: L.tensor([1, 2]) % L.tensor([1, 0])),
    ("floordiv_bool", lambda L: L.tensor([True]) // L.tensor([True])),
    ("remainder_bool", lambda L: L.tensor([True]) % L.tensor([True])),
    ("floordiv_backward", lambda L: (L.ones(2, requires_grad=True) // 2).sum().backward()),
    ("rmod_backward", lambda L: (2 % L.ones(2, requires_grad=True)).sum().backward()),
    # ---- bitwise operators take bool and integer tensors -----------------------------------------------------------
    ("and_float", lambda L: L.ones(2) & L.ones(2)),
    ("or_int_float_scalar", lambda L: L.tensor([1, 2]) | 1.5),
    ("xor_half", lambda L: L.ones(2, dtype=L.float16) ^ L.ones(2, dtype=L.float16)),
    ("invert_float", lambda L: ~L.ones(2)),
    ("bitwise_not_double", lambda L: L.ones(2, dtype=L.float64).bitwise_not()),
    ("iand_bool_int", lambda L: L.tensor([True]).__iand__(L.tensor([1]))),
    # ---- isclose, allclose, equal --------------------------------------------------------------------------------
    ("isclose_int_float", lambda L: L.isclose(L.tensor([1]), L.tensor([1.0]))),
    ("isclose_float_double", lambda L: L.ones(2).isclose(L.ones(2, dtype=L.float64))),
    ("isclose_number", lambda L: L.isclose(L.ones(2), 1.0)),
    ("isclose_rtol", lambda L: L.ones(2).isclose(L.ones(2), rtol=-1)),
    ("isclose_atol", lambda L: L.ones(2).isclose(L.ones(2), atol=-1)),
    ("isclose_shapes", lambda L: L.ones(3).isclose(L.ones(2))),
    ("allclose_dtypes", lambda L: L.allclose(L.ones(2), L.ones(2, dtype=L.float64))),
    ("equal_list", lambda L: L.equal(L.ones(2), [1.0, 1.0])),
    ("is_floating_point_number", lambda L: L.is_floating_point(3.0)),
    ("numel_list", lambda L: L.numel([1, 2])),
    # ---- no GPU: a CPU-only PyTorch's errors ------------------------------------------------------------------------
    ("cuda", lambda L: L.ones(2).cuda()),
    ("cuda_index", lambda L: L.ones(2).cuda(0)),
    ("cuda_cpu", lambda L: L.ones(2).cuda("cpu")),
    ("to_cuda", lambda L: L.ones(2).to("cuda")),
    ("to_cuda_device", lambda L: L.ones(2).to(L.device("cuda", 0))),
    ("to_cuda_dtype", lambda L: L.ones(2).to("cuda:1", L.float64)),
    ("to_cuda_keyword", lambda L: L.ones(2).to(device="cuda", dtype=L.float64)),
    ("to_mps", lambda L: L.ones(2).to("mps")),
    ("to_xpu", lambda L: L.ones(2).to("xpu")),
    ("to_accelerator_index", lambda L: L.ones(2).to(0)),
    ("tensor_cuda", lambda L: L.tensor([1.0], device="cuda")),
    ("as_tensor_cuda", lambda L: L.as_tensor([1.0], device=L.device("cuda"))),
    ("cuda_current_device", lambda L: L.cuda.current_device()),
    ("cuda_synchronize", lambda L: L.cuda.synchronize()),
    ("type_cuda", lambda L: L.ones(2).type("torch.cuda.FloatTensor")),
    # ---- to() and type() arguments ------------------------------------------------------------------------------
    ("to_two_dtypes", lambda L: L.ones(2).to(L.float32, L.float64)),
    ("to_unknown_keyword", lambda L: L.ones(2).to(foo=1)),
    ("to_unknown_keyword_after_dtype", lambda L: L.ones(2).to(L.float32, foo=1)),
    ("to_copy_not_bool", lambda L: L.ones(2).to(L.float32, copy=2)),
    ("to_tensor_and_dtype", lambda L: L.ones(2).to(L.ones(1), L.float64)),
    ("to_dtype_twice", lambda L: L.ones(2).to(L.float64, dtype=L.int32)),
    ("to_device_twice", lambda L: L.ones(2).to("cpu", dtype=L.int32, device="cpu")),
    ("to_list", lambda L: L.ones(2).to([1])),
    ("to_dtype_name", lambda L: L.ones(2).to("float32")),
    ("to_unknown_device", lambda L: L.ones(2).to("gpu")),
    ("type_invalid", lambda L: L.ones(2).type("foo")),
    # ---- devices ---------------------------------------------------------------------------------------------------
    ("device_unknown", lambda L: L.device("gpu")),
    ("device_upper_case", lambda L: L.device("CPU")),
    ("device_bad_index", lambda L: L.device("cuda:x")),
    ("device_index_leading_zero", lambda L: L.device("cuda:01")),
    ("device_negative_index", lambda L: L.device("cpu", -1)),
    ("device_two_indices", lambda L: L.device("cuda:0", 1)),
    ("device_index_str", lambda L: L.device("cuda", "x")),
    ("device_no_argument", lambda L: L.device()),
    ("device_float", lambda L: L.device(1.5)),
    ("device_none", lambda L: L.device(None)),
    ("device_float_and_index", lambda L: L.device(1.5, 0)),
    ("device_int", lambda L: L.device(0)),
    ("set_default_device_unknown", lambda L: L.set_default_device("gpu")),
    # ---- making tensors: ranges, dtypes PyTorch cannot infer, ragged lists, numpy arrays it cannot wrap -------------
    ("tensor_uint8_overflow", lambda L: L.tensor([-1, 300], dtype=L.uint8)),
    ("tensor_uint8_float_overflow", lambda L: L.tensor([255.9], dtype=L.uint8)),
    ("tensor_int32_overflow", lambda L: L.tensor(2 ** 31, dtype=L.int32)),
    ("tensor_int8_overflow", lambda L: L.tensor([[1], [-129]], dtype=L.int8)),
    ("tensor_nan_to_int", lambda L: L.tensor([float("nan")], dtype=L.int32)),
    ("tensor_huge_int", lambda L: L.tensor([2 ** 63])),
    ("tensor_none", lambda L: L.tensor([1.0, None])),
    ("tensor_object", lambda L: L.tensor({1: 2})),
    ("tensor_str", lambda L: L.tensor([1, "a"])),
    ("tensor_ragged", lambda L: L.tensor([[1, 2], [3]])),
    ("tensor_ragged_deeper", lambda L: L.tensor([[[1], [2]], [[3], [4, 5]]])),
    ("tensor_ragged_not_a_sequence", lambda L: L.tensor([[1], 2])),
    ("tensor_ragged_int_leaf", lambda L: L.tensor([1, [2]])),
    ("tensor_ragged_float_leaf", lambda L: L.tensor([1.5, [2]])),
    ("tensor_int_requires_grad", lambda L: L.tensor([1], dtype=L.int8, requires_grad=True)),
    ("int32_requires_grad_", lambda L: L.tensor([1], dtype=L.int32).requires_grad_()),
    ("from_numpy_list", lambda L: L.from_numpy([1, 2])),
    ("from_numpy_object", lambda L: L.from_numpy(np.array([None, 1]))),
    ("from_numpy_str", lambda L: L.from_numpy(np.array(["a"]))),
    ("from_numpy_big_endian", lambda L: L.from_numpy(np.zeros(2, ">i4"))),
    ("from_numpy_negative_stride", lambda L: L.from_numpy(np.arange(3)[::-1])),
    ("as_tensor_negative_stride", lambda L: L.as_tensor(np.arange(3.0)[::-1])),
    ("tensor_big_endian", lambda L: L.tensor(np.zeros(2, ">f8"))),
    ("legacy_type_number", lambda L: L.FloatTensor(2.5)),
    ("legacy_type_other_dtype", lambda L: L.FloatTensor(L.tensor([1, 2]))),
    # ---- dtype functions -----------------------------------------------------------------------------------------
    ("iinfo_float", lambda L: L.iinfo(L.float32)),
    ("iinfo_bool", lambda L: L.iinfo(L.bool)),
    ("iinfo_number", lambda L: L.iinfo(3)),
    ("finfo_int", lambda L: L.finfo(L.int8)),
    ("finfo_bool", lambda L: L.finfo(L.bool)),
    ("promote_types_uint16", lambda L: L.promote_types(L.uint16, L.int64)),
    ("promote_types_uint32_uint16", lambda L: L.promote_types(L.uint32, L.uint16)),
    ("promote_types_number", lambda L: L.promote_types(L.uint8, 5)),
    ("can_cast_number", lambda L: L.can_cast(L.int8, 1)),
]
