"""`torch.save` / `torch.load` across the two libraries: a file minigrad writes loads in torch and is the file torch
writes (byte for byte but the serialization id), a file torch writes loads in minigrad, shared memory stays shared,
and the refusals (weights_only, map_location, bad files) are torch's, in its words."""
import io
import os
import struct
import zipfile
import zlib

import numpy as np
import pytest
from torch_reference import import_torch

import minigrad

torch = import_torch()
LIBS = {"torch": torch, "minigrad": minigrad}
DTYPES = ["float32", "float64", "float16", "int8", "int16", "int32", "int64", "uint8", "bool", "uint16", "uint32",
          "uint64"]


class Point:
    """A class of the test's own: weights_only refuses it unless allowlisted."""

    def __init__(self, x):
        self.x = x


def objects(lib):
    """The same objects built in either library, from the same numbers."""
    x = lib.arange(12.0).reshape(3, 4)
    return {
        "tensor": x,
        "scalar": lib.tensor(2.5),
        "empty": lib.zeros(0),
        "requires_grad": lib.ones(3, requires_grad=True),
        "parameter": lib.nn.Parameter(lib.arange(4.0)),
        "frozen_parameter": lib.nn.Parameter(lib.arange(4.0), requires_grad=False),
        "views": {"base": x, "row": x[1], "tail": x[1:], "t": x.t(), "column": x[:, 2], "expanded":
                  lib.ones(1, 3).expand(2, 3)},
        "nested": {"list": [1, 2.5, "three", None, True], "tuple": (x[0], (4, 5)), "set": {1, 2}, "bytes": b"ab",
                   "complex": 1 + 2j, "big": 2 ** 70, "dtype": lib.float64, "size": lib.Size([2, 3]),
                   "device": lib.device("cpu")},
        **{f"dtype_{name}": lib.from_numpy(np.arange(6).astype(np.bool_ if name == "bool" else name))
           for name in DTYPES},
    }


def saved(lib, obj, **options):
    buffer = io.BytesIO()
    lib.save(obj, buffer, **options)
    return buffer.getvalue()


def plain(value, lib):
    """The value as numpy arrays and Python data, with each tensor's dtype, requires_grad and whether a Parameter."""
    if isinstance(value, lib.Tensor):
        return ("Parameter" if isinstance(value, lib.nn.Parameter) else "Tensor", str(value.dtype), value.requires_grad,
                value.detach().numpy().copy())
    if isinstance(value, dict):
        return (type(value).__name__, {k: plain(v, lib) for k, v in value.items()})
    if isinstance(value, (list, tuple)) and type(value) in (list, tuple):
        return (type(value).__name__, [plain(v, lib) for v in value])
    if isinstance(value, lib.Size):
        return ("Size", tuple(value))
    if isinstance(value, lib.dtype) or isinstance(value, lib.device):
        return repr(value)
    return value


def assert_same(got, expected, path="obj"):
    """Equal bit for bit: the same dtypes, shapes and values (nan included)."""
    if isinstance(expected, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == expected.dtype and got.shape == expected.shape, \
            f"{path}: received {got!r}, expected {expected!r}"
        assert got.tobytes() == expected.tobytes(), f"{path}: received {got}, expected {expected}"
    elif isinstance(expected, (tuple, list)):
        assert type(got) is type(expected) and len(got) == len(expected), f"{path}: received {got!r}, expected " \
                                                                          f"{expected!r}"
        for i, (g, e) in enumerate(zip(got, expected)):
            assert_same(g, e, f"{path}[{i}]")
    elif isinstance(expected, dict):
        assert list(got) == list(expected), f"{path}: received keys {list(got)}, expected {list(expected)}"
        for k in expected:
            assert_same(got[k], expected[k], f"{path}[{k!r}]")
    else:
        assert got == expected and type(got) is type(expected), f"{path}: received {got!r}, expected {expected!r}"


CASES = list(objects(minigrad))


# ---- across the libraries ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("weights_only", [True, False, None])
@pytest.mark.parametrize("case", CASES)
def test_a_minigrad_file_loads_in_torch(case, weights_only):
    options = {} if weights_only is None else {"weights_only": weights_only}
    loaded = torch.load(io.BytesIO(saved(minigrad, objects(minigrad)[case])), **options)
    assert_same(plain(loaded, torch), plain(objects(torch)[case], torch))


@pytest.mark.parametrize("weights_only", [True, False])
@pytest.mark.parametrize("case", CASES)
def test_a_torch_file_loads_in_minigrad(case, weights_only):
    loaded = minigrad.load(io.BytesIO(saved(torch, objects(torch)[case])), weights_only=weights_only)
    assert_same(plain(loaded, minigrad), plain(objects(minigrad)[case], minigrad))


def serialization_id(data):
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return z.read(next(n for n in z.namelist() if n.endswith(".data/serialization_id")))


def assert_the_same_file(mine, theirs):
    """Byte for byte, but the first 20 digits of the serialization id (PyTorch hashes the record names with
    libstdc++'s std::hash; see serialization._serialization_id) and that record's crc32."""
    my_id, their_id = serialization_id(mine), serialization_id(theirs)
    assert my_id[20:] == their_id[20:], f"the records' combined crc32: received {my_id[20:]}, expected {their_id[20:]}"
    crc = lambda b: struct.pack("<I", zlib.crc32(b))    # noqa: E731
    expected = theirs.replace(their_id, my_id).replace(crc(their_id), crc(my_id))
    if mine != expected:
        at = next((i for i, (a, b) in enumerate(zip(mine, expected)) if a != b), min(len(mine), len(expected)))
        raise AssertionError(f"the files differ at byte {at} of {len(expected)} (minigrad's has {len(mine)}): "
                             f"received {mine[at - 16:at + 16]!r}, expected {expected[at - 16:at + 16]!r}")


@pytest.mark.parametrize("case", CASES)
def test_minigrad_writes_the_file_torch_writes(case):
    assert_the_same_file(saved(minigrad, objects(minigrad)[case]), saved(torch, objects(torch)[case]))


def trained(lib, steps=3):
    """A small Conv + Linear model after a few Adam steps (the same numbers in both libraries)."""
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Conv2d(1, 2, 3), lib.nn.ReLU(), lib.nn.Flatten(), lib.nn.Linear(8, 3))
    optimizer = lib.optim.Adam(model.parameters(), lr=1e-2)
    x = lib.randn(4, 1, 4, 4)
    for _ in range(steps):
        optimizer.zero_grad()
        model(x).pow(2).sum().backward()
        optimizer.step()
    return model, optimizer, x


def test_a_state_dict_goes_minigrad_torch_minigrad_bit_for_bit():
    model, optimizer, x = trained(minigrad)
    checkpoint = {"epoch": 3, "model": model.state_dict(), "optimizer": optimizer.state_dict()}
    mine = saved(minigrad, checkpoint)
    # PyTorch goes on from the checkpoint...
    t_model, t_optimizer, _ = trained(torch, steps=0)
    loaded = torch.load(io.BytesIO(mine))
    t_model.load_state_dict(loaded["model"])
    t_optimizer.load_state_dict(loaded["optimizer"])
    theirs = saved(torch, {"epoch": loaded["epoch"], "model": t_model.state_dict(),
                           "optimizer": t_optimizer.state_dict()})
    # ...what it loaded it writes back as the very file minigrad wrote (its own state_dict() differs only by the
    # `_metadata` attribute, which minigrad's Module.state_dict does not make)...
    assert_the_same_file(mine, saved(torch, loaded))
    # ...and minigrad gets back the very tensors from PyTorch's checkpoint
    back = minigrad.load(io.BytesIO(theirs))
    assert_same(plain(back["model"], minigrad), plain(checkpoint["model"], minigrad))
    assert_same(plain(back["optimizer"], minigrad), plain(checkpoint["optimizer"], minigrad))
    # one more step in each library, from the same state, lands in the same place
    t_x = torch.from_numpy(x.numpy().copy())
    for lib, m, opt, inputs in [(minigrad, model, optimizer, x), (torch, t_model, t_optimizer, t_x)]:
        opt.zero_grad()
        m(inputs).pow(2).sum().backward()
        opt.step()
    for (name, p), (t_name, q) in zip(model.named_parameters(), t_model.named_parameters()):
        assert name == t_name
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-5, atol=1e-7, err_msg=name)


def test_a_torch_state_dict_keeps_its_metadata_through_minigrad():
    theirs = saved(torch, torch.nn.Linear(2, 3).state_dict())
    loaded = minigrad.load(io.BytesIO(theirs))
    assert loaded._metadata == {"": {"version": 1}}, loaded.__dict__
    assert_the_same_file(saved(minigrad, loaded), theirs)


@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
def test_pickle_protocol(protocol):
    mine = saved(minigrad, objects(minigrad)["views"], pickle_protocol=protocol)
    loaded = torch.load(io.BytesIO(mine), weights_only=False)
    assert_same(plain(loaded, torch), plain(objects(torch)["views"], torch))
    if protocol <= 3:
        assert_the_same_file(mine, saved(torch, objects(torch)["views"], pickle_protocol=protocol))


# ---- shared memory ------------------------------------------------------------------------------------------------
def test_views_saved_by_minigrad_share_one_storage_in_torch():
    views = torch.load(io.BytesIO(saved(minigrad, objects(minigrad)["views"])))
    expected = objects(torch)["views"]
    for name, t in views.items():
        assert (t.storage_offset(), t.stride()) == (expected[name].storage_offset(), expected[name].stride()), name
    storages = {name: t.untyped_storage().data_ptr() for name, t in views.items()}
    assert len({storages[n] for n in ("base", "row", "tail", "t", "column")}) == 1, storages
    views["base"][1, 2] = -1.0
    assert views["row"][2].item() == views["tail"][0, 2].item() == views["column"][1].item() == -1.0


def test_views_saved_by_torch_share_memory_in_minigrad():
    views = minigrad.load(io.BytesIO(saved(torch, objects(torch)["views"])))
    expected = objects(torch)["views"]
    for name, t in views.items():
        assert t.stride() == expected[name].stride(), name
    element = views["base"].element_size()
    assert views["tail"].data_ptr() - views["base"].data_ptr() == 4 * element
    assert views["column"].data_ptr() - views["base"].data_ptr() == 2 * element
    views["base"][1, 2] = -1.0
    assert views["row"][2].item() == views["tail"][0, 2].item() == views["column"][1].item() == -1.0


@pytest.mark.parametrize("writer, reader", [(minigrad, torch), (torch, minigrad)], ids=["to_torch", "to_minigrad"])
def test_one_tensor_twice_loads_as_one_object(writer, reader):
    x = writer.ones(2)
    loaded = reader.load(io.BytesIO(saved(writer, [x, x, x[1:]])))
    assert loaded[0] is loaded[1] and loaded[2] is not loaded[0]


def test_two_dtypes_over_one_memory_are_refused(run_both):
    def example(lib):
        x = lib.arange(4.0)
        lib.save([x, lib.from_numpy(x.numpy().view(np.int32))], io.BytesIO())
    run_both(example)


# ---- whole objects -----------------------------------------------------------------------------------------------
def test_a_whole_minigrad_module_with_weights_only_false():
    model, _, x = trained(minigrad, steps=1)
    loaded = minigrad.load(io.BytesIO(saved(minigrad, model)), weights_only=False)
    assert type(loaded) is type(model) and loaded is not model
    np.testing.assert_array_equal(loaded(x).detach().numpy(), model(x).detach().numpy())


def test_a_whole_torch_module_is_refused_with_a_clear_message():
    with pytest.raises(Exception) as raised:
        minigrad.load(io.BytesIO(saved(torch, torch.nn.Linear(2, 2))), weights_only=False)
    assert str(raised.value).startswith("this file holds torch.nn.modules.linear.Linear, an object of real PyTorch, "
                                        "which minigrad cannot rebuild"), str(raised.value)


# ---- weights_only: torch's refusals, in its words -----------------------------------------------------------------
def test_weights_only_refuses_a_class_of_its_own(run_both):
    def example(lib):
        lib.load(io.BytesIO(saved(lib, Point(3))))
    run_both(example)


def test_weights_only_refuses_a_whole_module(run_both):
    def example(lib):
        lib.load(io.BytesIO(saved(lib, lib.nn.Linear(2, 2))))
    run_both(example, msg_prefix="Weights only load failed. This file can still be loaded")


def test_safe_globals_allows_a_class(run_both):
    def example(lib):
        data = saved(lib, Point(3))
        with lib.serialization.safe_globals([Point]):
            inside = Point in lib.serialization.get_safe_globals()
            x = lib.load(io.BytesIO(data)).x
        return x, inside, Point in lib.serialization.get_safe_globals()
    run_both(example)


def test_add_safe_globals_with_a_full_name(run_both):
    def example(lib):
        data = saved(lib, Point(4))
        lib.serialization.add_safe_globals([(Point, f"{Point.__module__}.Point")])
        try:
            return lib.load(io.BytesIO(data)).x
        finally:
            lib.serialization._weights_only_unpickler._remove_safe_globals([(Point, f"{Point.__module__}.Point")])
    run_both(example)


def test_a_blocked_module_stays_blocked(run_both):
    def example(lib):
        lib.load(io.BytesIO(saved(lib, [os.getcwd])))
    run_both(example)


def test_protocol_4_under_weights_only_warns_and_refuses(run_both):
    def example(lib):
        lib.load(io.BytesIO(saved(lib, lib.ones(2), pickle_protocol=4)))
    run_both(example)


def test_weights_only_with_a_pickle_module_is_refused(run_both):
    import pickle

    def example(lib):
        lib.load(io.BytesIO(saved(lib, lib.ones(2))), pickle_module=pickle, weights_only=True)
    run_both(example)


def test_pickle_load_args_with_weights_only_warn(run_both):
    def example(lib):
        return lib.load(io.BytesIO(saved(lib, {"a": lib.ones(2)})), encoding="latin1")
    run_both(example)


# ---- map_location --------------------------------------------------------------------------------------------------
MAP_LOCATIONS = {
    "str": lambda lib: "cpu",
    "device": lambda lib: lib.device("cpu"),
    "dict": lambda lib: {"cpu": "cpu"},
    "callable": lambda lib: lambda storage, location: storage,
    "callable_none": lambda lib: lambda storage, location: None,
    "cuda": lambda lib: "cuda",
    "cuda_device": lambda lib: lib.device("cuda", 1),
    "dict_to_cuda": lambda lib: {"cpu": "cuda:0"},
    "xla": lambda lib: "xla",
    "not_a_location": lambda lib: 5,
}


@pytest.mark.parametrize("where", MAP_LOCATIONS)
def test_map_location(run_both, where):
    def example(lib):
        return lib.load(io.BytesIO(saved(lib, objects(lib)["views"])), map_location=MAP_LOCATIONS[where](lib))
    run_both(example)


def test_a_map_location_callable_receives_the_saved_location(run_both):
    def example(lib):
        seen = []
        lib.load(io.BytesIO(saved(lib, [lib.ones(2), lib.ones(3)])),
                 map_location=lambda storage, location: seen.append((location, storage.nbytes())))
        return seen
    run_both(example)


# ---- files: paths, file objects, mmap, and what is not a file of this format ----------------------------------------
@pytest.mark.parametrize("name", ["model.pt", "my.model.pth", "weights"])
def test_a_path_names_the_archive_folder(tmp_path, name):
    records = {}
    for lib_name, lib in LIBS.items():
        path = tmp_path / lib_name / name
        path.parent.mkdir()
        lib.save(objects(lib)["tensor"], path if name != "weights" else str(path))
        with zipfile.ZipFile(path) as z:
            records[lib_name] = z.namelist()
        assert_same(plain(minigrad.load(path), minigrad), plain(objects(minigrad)["tensor"], minigrad))
    assert records["minigrad"] == records["torch"]


def test_mmap_maps_the_storages_of_a_file(tmp_path):
    path = tmp_path / "views.pt"
    torch.save(objects(torch)["views"], path)
    mapped = minigrad.load(path, mmap=True)
    assert_same(plain(mapped, minigrad), plain(objects(minigrad)["views"], minigrad))
    mapped["base"][0, 0] = 100.0                  # copy on write: the file stays as it was
    assert mapped["row"].data_ptr() - mapped["base"].data_ptr() == 4 * 4
    assert torch.load(path)["base"][0, 0].item() == 0.0


@pytest.mark.parametrize("case", ["save_to_a_number", "save_to_a_missing_folder", "load_a_missing_file",
                                  "mmap_of_a_buffer", "load_an_empty_file"])
def test_file_errors(run_both, tmp_path, case):
    def example(lib):
        if case == "save_to_a_number":
            lib.save(lib.ones(2), 5)
        elif case == "save_to_a_missing_folder":
            lib.save(lib.ones(2), str(tmp_path / "missing" / "x.pt"))
        elif case == "load_a_missing_file":
            lib.load(str(tmp_path / "missing.pt"))
        elif case == "mmap_of_a_buffer":
            lib.load(io.BytesIO(saved(lib, lib.ones(2))), mmap=True)
        else:
            lib.load(io.BytesIO(b""))
    run_both(example)


def test_the_legacy_format_is_refused_with_a_clear_message():
    buffer = io.BytesIO()
    torch.save(torch.ones(2), buffer, _use_new_zipfile_serialization=False)
    buffer.seek(0)
    with pytest.raises(RuntimeError, match="this file is in PyTorch's legacy format"):
        minigrad.load(buffer)


def test_a_bfloat16_tensor_is_refused_naming_its_dtype():
    with pytest.raises(RuntimeError, match="this file holds a tensor of dtype torch.bfloat16, which minigrad does not"):
        minigrad.load(io.BytesIO(saved(torch, torch.zeros(2, dtype=torch.bfloat16))))
