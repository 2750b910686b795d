"""Parity of issue 11, point 3 (casts and devices): `.float()`, `.int()`, ... from every dtype, `to` with each of
its signatures, `type`, `torch.device`, `torch.cuda` and `torch.backends` without a GPU, `equal`, `allclose`,
`isclose`, `is_floating_point`, `numel`."""
import pytest

DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64")

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def dtypes(lib):
    return [getattr(lib, name) for name in DTYPES]


# ---- casts and to() -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("source", DTYPES)
def test_cast_methods_from_every_dtype(run_both, source):
    def example(lib):
        x = lib.tensor([[1.5, -2.7, 0.0], [300.2, -129.9, 65.5]]).to(getattr(lib, source))
        if source in ("float32", "float64", "float16"):
            x.requires_grad_()
        return [(getattr(x, m)(), getattr(x, m)() is x) for m in
                ("float", "double", "half", "int", "long", "short", "char", "byte", "bool")]
    run_both(example)


@case
def casts_of_special_floats(lib):
    x = lib.tensor([float("nan"), float("inf"), -float("inf"), 1e10, -1.7, 255.5, -0.0])
    return x.int(), x.long(), x.short(), x.byte(), x.char(), x.bool(), x.half(), x.double().half()


@case
def to_with_every_signature(lib):
    x = lib.tensor([1.5, -2.5], requires_grad=True)
    y = lib.tensor([1], dtype=lib.int8)
    return (x.to(lib.float32) is x, x.to(lib.float32, copy=True) is x, x.to(lib.float32, copy=True),
            x.to(lib.float64), x.to(dtype=lib.int32), x.to("cpu") is x, x.to(lib.device("cpu")) is x,
            x.to("cpu", lib.float64), x.to(lib.device("cpu"), lib.int32, False, True), x.to(device="cpu") is x,
            x.to(y), x.to(y, copy=True), x.to(x) is x, x.to() is x, x.to(None) is x, x.to(lib.float64, True),
            x.to(lib.float64, non_blocking=False, copy=False), x.to("cpu:0") is x, x.to("cpu", copy=True) is x,
            x.to(lib.float16).grad_fn.name(), x.to(lib.int64, copy=True))


@case
def gradient_through_casts(lib):
    x = lib.tensor([1.5, -2.5, 0.25], requires_grad=True)
    (x.double() * 2).sum().backward()
    first = x.grad.clone()
    (x.half().float() * 3).sum().backward()
    return first, x.grad, x.double().grad_fn.name(), x.int().requires_grad, x.int().grad_fn


@case
def type_with_every_argument(lib):
    x = lib.tensor([1.5, -2.5])
    return (x.type(), x.type(lib.int32), x.type("torch.IntTensor"), x.type(lib.IntTensor), x.type(lib.float32) is x,
            x.type(dtype=lib.int8), x.type(lib.int8, non_blocking=True), x.type_as(lib.tensor([1], dtype=lib.int16)))


# ---- devices ------------------------------------------------------------------------------------------------------
@case
def device_objects(lib):
    cpu, cuda1 = lib.device("cpu"), lib.device("cuda:1")
    return (repr(cpu), str(cpu), cpu.type, cpu.index, repr(cuda1), str(cuda1), cuda1.type, cuda1.index,
            repr(lib.device("cpu", 0)), repr(lib.device("cpu:0")), repr(lib.device("cuda", 1)), repr(lib.device(cpu)),
            repr(lib.device(type="cpu")), repr(lib.device("mps")), repr(lib.device("meta")), repr(lib.device("xla:3")),
            repr(lib.device("cpu", None)), repr(lib.device("cpu", index=2)))


@case
def device_equality_and_hashing(lib):
    cpu = lib.device("cpu")
    return (cpu == lib.device("cpu"), cpu == lib.device("cpu:0"), cpu == "cpu", "cpu" == cpu, cpu != "cpu",
            cpu == 1, lib.device("cuda", 0) == lib.device("cuda:0"), lib.device("cuda") == lib.device("cuda:0"),
            hash(cpu) == hash(lib.device("cpu")), len({cpu, lib.device("cpu"), lib.device("cuda")}),
            cpu.type == "cpu")


@case
def tensor_device_properties(lib):
    x = lib.tensor([1.0, 2.0])
    return (repr(x.device), str(x.device), x.device.type, x.device == lib.device("cpu"), x.is_cuda, x.is_cpu,
            x.get_device(), x.cpu() is x, repr(lib.tensor([1.0], device="cpu").device),
            repr(lib.tensor([1.0], device=lib.device("cpu", 0)).device), repr(lib.as_tensor([1], device="cpu").device))


@case
def the_device_a_tutorial_picks(lib):
    device = lib.device("cuda" if lib.cuda.is_available() else "cpu")
    device2 = "cuda" if lib.cuda.is_available() else ("mps" if lib.backends.mps.is_available() else "cpu")
    x = lib.ones(2).to(device)
    print(f"Using {device} device", device2)
    return repr(device), x.device.type, x.to(device2).device.type


@case
def default_device(lib):
    before = repr(lib.get_default_device())
    lib.set_default_device("cpu")
    plain = repr(lib.get_default_device())
    lib.set_default_device("cpu:0")
    indexed = repr(lib.get_default_device())
    lib.set_default_device(None)
    return before, plain, indexed, repr(lib.get_default_device())


@case
def default_device_cuda_fails_when_used(lib):
    lib.set_default_device("cuda")
    try:
        return lib.get_default_device()
    finally:
        lib.set_default_device(None)


@case
def cuda_and_backends_without_a_gpu(lib):
    return (lib.cuda.is_available(), lib.cuda.device_count(), lib.cuda.manual_seed(0), lib.cuda.manual_seed_all(1),
            lib.cuda.is_initialized(), lib.cuda.empty_cache(), lib.cuda.memory_allocated(),
            lib.backends.mps.is_available(), lib.backends.mps.is_built(), lib.backends.cudnn.is_available(),
            lib.backends.cudnn.deterministic, lib.backends.cudnn.benchmark)


# ---- equal, allclose, isclose, is_floating_point, numel -------------------------------------------------------------
@case
def equal_allclose_isclose(lib):
    a = lib.tensor([1.0, 2.0, float("nan")])
    b = lib.tensor([1.0, 2.00001, float("nan")])
    i = lib.tensor([1, 2, 3])
    return (lib.equal(a, a), a.equal(a), lib.equal(i, i.float()), lib.equal(i, lib.tensor([1, 2])),
            lib.equal(i, lib.tensor([[1, 2, 3]])), lib.equal(lib.tensor([1, 2, 3], dtype=lib.int8), i),
            lib.allclose(a, b), a.allclose(b, equal_nan=True), lib.allclose(i, i), lib.allclose(a, lib.tensor(1.0)),
            lib.allclose(b[:2], a[:2], rtol=0, atol=1e-4), lib.isclose(a, b), a.isclose(b, equal_nan=True),
            lib.isclose(i, i + 1, atol=1), lib.isclose(lib.tensor([True]), lib.tensor([True])),
            lib.isclose(lib.tensor([float("inf"), -float("inf")]), lib.tensor([float("inf"), float("inf")])))


@case
def is_floating_point_and_numel(lib):
    return ([lib.is_floating_point(lib.zeros(1, dtype=d)) for d in dtypes(lib)],
            [lib.zeros(2, 3, dtype=d).is_floating_point() for d in dtypes(lib)], lib.numel(lib.zeros(2, 3)),
            lib.numel(lib.tensor(1)), lib.is_tensor(3))


@pytest.mark.parametrize("name", list(CASES))
def test_parity(run_both, name):
    run_both(CASES[name])
