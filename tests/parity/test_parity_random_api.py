"""The random generator's API on torch and on minigrad: `torch.Generator`, seeds, `get_state`/`set_state` (PyTorch's
5056-byte layout, loadable across the two libraries), and the error messages of the random functions.
The values themselves are in test_parity_random.py.
"""

import numpy as np
import pytest

from test_parity_random import bits  # this folder is on sys.path (no __init__.py)

try:
    import torch
except ModuleNotFoundError:
    torch = None

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


# ---- randint's arguments by name -----------------------------------------------------------------------
@case
def randint_keywords(lib):
    lib.manual_seed(0)
    return [lib.randint(low=0, high=2, size=(5,), dtype=lib.int64), lib.randint(high=5, size=(2,)),
            lib.randint(3, high=9, size=(2, 2)), lib.randint(3, 10, (4,)), lib.randint(10, size=(3,))]


@case
def randint_low_without_high(lib):
    return lib.randint(low=1, size=(2,))


# ---- the generator and its seeds -----------------------------------------------------------------------
@case
def generator_basics(lib):
    g = lib.Generator()
    return [repr(g), repr(g.device), str(g.device), g.initial_seed(), g.manual_seed(3) is g, g.initial_seed(),
            repr(lib.Generator(device="cpu")), lib.manual_seed(1) is lib.default_generator, lib.initial_seed()]


@case
def manual_seed_takes_any_64_bit_integer(lib):
    return [lib.manual_seed(s).initial_seed() for s in (0, -1, 2 ** 63, 2 ** 64 - 1, -2 ** 63, True, 3.7, "12")]


@case
def manual_seed_overflow(lib):
    lib.manual_seed(2 ** 64)


@case
def manual_seed_below_the_range(lib):
    lib.manual_seed(-2 ** 63 - 1)


@case
def generator_manual_seed_wants_an_int(lib):
    lib.Generator().manual_seed("3")


@case
def generator_manual_seed_refuses_a_float(lib):
    lib.Generator().manual_seed(1.5)


@case
def generator_on_cuda(lib):
    lib.Generator("cuda")


@case
def generator_on_meta(lib):
    lib.Generator("meta")


@case
def generator_given_a_seed_instead_of_a_device(lib):
    lib.Generator(5)


@case
def generator_on_a_cpu_device_object(lib):
    return repr(lib.Generator(lib.device("cpu")).device)


@case
def seed_reseeds_from_the_system_and_repeats(lib):
    s = lib.seed()
    a = lib.rand(3)
    lib.manual_seed(s)
    return type(s).__name__, 0 <= s < 2 ** 64, lib.initial_seed() == s, bits(a) == bits(lib.rand(3))


@case
def generator_seed_method(lib):
    g = lib.Generator()
    s = g.seed()
    a = lib.randn(20, generator=g)
    return type(s).__name__, g.initial_seed() == s, bits(a) == bits(lib.randn(20, generator=g.manual_seed(s)))


# ---- the state -------------------------------------------------------------------------------------------
@case
def state_bytes_are_pytorchs_layout(lib):
    lib.manual_seed(0)
    fresh = lib.get_rng_state()
    lib.randn(3)                                  # leaves a cached normal value in the state
    cached = lib.get_rng_state()
    lib.rand(700)                                 # twists the 624 words once more
    g = lib.Generator()
    return [str(fresh.dtype), tuple(fresh.shape), fresh.tolist(), cached.tolist(), lib.get_rng_state().tolist(),
            g.get_state().tolist()]


@case
def set_state_restores_the_stream_and_the_cache(lib):
    lib.manual_seed(5)
    lib.randn(1)
    state = lib.get_rng_state()
    a = [bits(lib.randn(3)), bits(lib.rand(4)), bits(lib.randn(40))]
    lib.set_rng_state(state)
    g = lib.Generator()
    returned = g.set_state(state)
    return a == [bits(lib.randn(3)), bits(lib.rand(4)), bits(lib.randn(40))], returned is g, bits(lib.randn(3, generator=g))


@case
def set_rng_state_needs_a_byte_tensor(lib):
    lib.set_rng_state(lib.zeros(5056))


@case
def set_rng_state_needs_a_tensor(lib):
    lib.set_rng_state(5)


@case
def set_rng_state_needs_5056_bytes(lib):
    lib.set_rng_state(lib.zeros(10, dtype=lib.uint8))


@case
def set_rng_state_checks_the_counters(lib):
    lib.set_rng_state(lib.zeros(5056, dtype=lib.uint8))


# ---- error messages --------------------------------------------------------------------------------------
ERRORS = {
    "rand_of_int64": lambda lib: lib.rand(2, dtype=lib.int64),
    "randn_of_int64": lambda lib: lib.randn(2, dtype=lib.int64),
    "randn_negative_size": lambda lib: lib.randn(2, -3),
    "normal_negative_std": lambda lib: lib.empty(3).normal_(0, -1),
    "torch_normal_negative_std": lambda lib: lib.normal(0.0, -1.0, (3,)),
    "torch_normal_negative_std_tensor": lambda lib: lib.normal(lib.zeros(2), lib.tensor([1.0, -1.0])),
    "torch_normal_of_two_floats": lambda lib: lib.normal(0.0, 1.0),
    "normal_of_a_long_tensor": lambda lib: lib.empty(3, dtype=lib.int64).normal_(),
    "uniform_from_above_to": lambda lib: lib.empty(3).uniform_(1, 0),
    "uniform_of_a_long_tensor": lambda lib: lib.empty(3, dtype=lib.int64).uniform_(),
    "exponential_negative_lambda": lambda lib: lib.empty(3).exponential_(-1),
    "exponential_zero_lambda": lambda lib: lib.empty(3).exponential_(0),
    "bernoulli_p_above_1": lambda lib: lib.empty(3).bernoulli_(1.5),
    "bernoulli_tensor_p_above_1": lambda lib: lib.bernoulli(lib.tensor([0.5, 1.5])),
    "bernoulli_of_a_long_tensor": lambda lib: lib.bernoulli(lib.tensor([1, 0])),
    "multinomial_negative": lambda lib: lib.multinomial(lib.tensor([0.1, -0.2]), 1),
    "multinomial_negative_with_replacement": lambda lib: lib.multinomial(lib.tensor([0.1, -0.2, 0.3]), 2, True),
    "multinomial_inf_with_replacement": lambda lib: lib.multinomial(lib.tensor([float("inf"), 1.0]), 2, True),
    "multinomial_nan": lambda lib: lib.multinomial(lib.tensor([float("nan"), 1.0]), 1),
    "multinomial_zero_sum": lambda lib: lib.multinomial(lib.tensor([0.0, 0.0]), 1),
    "multinomial_zero_sum_with_replacement": lambda lib: lib.multinomial(lib.tensor([0.0, 0.0]), 2, True),
    "multinomial_too_many": lambda lib: lib.multinomial(lib.tensor([0.5, 0.5]), 3),
    "multinomial_zero_samples": lambda lib: lib.multinomial(lib.tensor([0.5, 0.5]), 0),
    "multinomial_of_longs": lambda lib: lib.multinomial(lib.tensor([1, 2]), 1),
    "multinomial_of_0d": lambda lib: lib.multinomial(lib.tensor(0.5), 1),
    "multinomial_of_3d": lambda lib: lib.multinomial(lib.ones(2, 2, 2), 1),
    "randint_from_not_below_to": lambda lib: lib.randint(5, 3, (2,)),
    "randint_bool_out_of_bounds": lambda lib: lib.randint(0, 3, (2,), dtype=lib.bool),
    "randint_uint8_out_of_bounds": lambda lib: lib.randint(0, 300, (2,), dtype=lib.uint8),
    "randint_size_not_a_tuple": lambda lib: lib.randint(0, 10, 5),
    "randint_high_only": lambda lib: lib.randint(10),
    "randint_two_ints": lambda lib: lib.randint(0, 10),
    "randint_overflow": lambda lib: lib.randint(0, 2 ** 63, (2,)),
    "randint_requires_grad": lambda lib: lib.randint(0, 3, (2,), requires_grad=True),
    "randperm_negative": lambda lib: lib.randperm(-1),
    "randperm_of_a_float": lambda lib: lib.randperm(3.0),
    "random_from_not_below_to": lambda lib: lib.empty(3).random_(5, 3),
    "normal_on_a_leaf_that_requires_grad": lambda lib: lib.zeros(3, requires_grad=True).normal_(),
    "normal_on_an_expanded_tensor": lambda lib: lib.zeros(3).expand(2, 3).normal_(),
    "randn_on_cuda": lambda lib: lib.randn(2, device="cuda"),
    "rand_like_on_cuda": lambda lib: lib.rand_like(lib.zeros(2), device="cuda"),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_error(run_both, name):
    run_both(ERRORS[name])


@case
def randint_warns_past_float32_precision(lib):
    lib.manual_seed(0)
    return bits(lib.empty(3).random_(0, 2 ** 25)), bits(lib.randint(0, 2 ** 54, (2,), dtype=lib.float64))


@case
def in_place_fills_return_the_tensor_and_bump_its_version(lib):
    x = lib.zeros(20)
    ys = [x.normal_(), x.uniform_(), x.random_(3), x.bernoulli_(), x.exponential_()]
    return all(y is x for y in ys), x._version, lib.rand(2, requires_grad=True).requires_grad


@case
def size_keyword_and_cpu_device(lib):
    lib.manual_seed(0)
    return [bits(lib.randn(size=(2, 3))), bits(lib.rand(size=[4])), bits(lib.randn(2, device="cpu")),
            bits(lib.rand(lib.Size([2, 2]), device=lib.device("cpu"))), bits(lib.randint(3, size=(4,))),
            bits(lib.randint(0, 3, size=(4,), device="cpu")), bits(lib.randn(()))]


@case
def nn_init_under_no_grad_on_a_parameter(lib):
    lib.manual_seed(0)
    w = lib.nn.Parameter(lib.empty(3, 4))
    lib.nn.init.normal_(w)
    return bits(w), w.requires_grad, w.grad_fn is None, w.is_leaf


@pytest.mark.parametrize("name", list(CASES))
def test_parity(run_both, name):
    run_both(CASES[name])


# ---- across the two libraries -------------------------------------------------------------------------
def test_a_state_saved_by_torch_continues_in_minigrad_and_back():
    import minigrad
    torch.manual_seed(123)
    torch.randn(5)
    state = torch.get_rng_state()
    minigrad.set_rng_state(minigrad.from_numpy(state.numpy().copy()))
    for make in (lambda lib: lib.randn(3), lambda lib: lib.rand(1000), lambda lib: lib.randn(50, dtype=lib.float64)):
        assert bits(make(minigrad)) == bits(make(torch))
    torch.set_rng_state(torch.from_numpy(minigrad.get_rng_state().numpy().copy()))
    assert bits(torch.randn(7)) == bits(minigrad.randn(7))


def reference_mt19937(words, n):
    """mt19937 written out in numpy: twist the 624 words (in three slices, as a new word needs the word 397
    places ahead, new itself once k >= 227), then temper each word read."""
    out = []
    while len(out) < n:
        x = np.concatenate([words, np.zeros(624, np.uint32)])       # x[624 + k] becomes the new word k
        for lo, hi in ((0, 227), (227, 454), (454, 624)):
            upper, lower = x[lo:hi], x[lo + 1:hi + 1]
            y = (upper & np.uint32(0x80000000)) | (lower & np.uint32(0x7FFFFFFF))
            x[624 + lo:624 + hi] = x[397 + lo:397 + hi] ^ (y >> 1) ^ ((lower & 1) * np.uint32(0x9908B0DF))
        words = x[624:]
        y = words.copy()
        y ^= y >> 11
        y ^= (y << 7) & np.uint32(0x9D2C5680)
        y ^= (y << 15) & np.uint32(0xEFC60000)
        y ^= y >> 18
        out.extend(y.tolist())
    return np.array(out[:n], np.uint32)


@pytest.mark.parametrize("seed", [0, 1, 2 ** 32 + 5, 67280421310721])
def test_the_engine_is_mt19937_seeded_as_aten_seeds_it(seed):
    import minigrad
    from minigrad.random.generator import _seed_words
    words = _seed_words(seed)
    torch_words = np.frombuffer(torch.Generator().manual_seed(seed).get_state().numpy().tobytes(), "<u8", 624, 24)
    assert np.array_equal(words, torch_words.astype(np.uint32))
    draws = reference_mt19937(words, 2000)
    assert np.array_equal(minigrad.Generator().manual_seed(seed)._random(2000), draws)
    u = (draws & np.uint32(0xFFFFFF)).astype(np.float32) * np.float32(2.0 ** -24)    # how rand() uses them
    assert np.array_equal(torch.rand(2000, generator=torch.Generator().manual_seed(seed)).numpy(), u)


def test_fused_multiply_add_rounds_once_even_at_a_tie():
    # a*b falls exactly halfway between two floats; a tiny c decides which way, as the FMA instruction rounds
    from minigrad.compat.fma import fma32, fma64
    a = np.float32(1 + 2 ** -12)                                  # a*a = 1 + 2**-11 + 2**-24
    c = np.array([0.0, 2 ** -60, -2 ** -60], np.float32)
    assert fma32(np.full(3, a), a, c).tolist() == [1 + 2 ** -11, 1 + 2 ** -11 + 2 ** -23, 1 + 2 ** -11]
    a, b = 1 + 2 ** -26, 1 + 2 ** -27                             # a*b = 1 + 2**-26 + 2**-27 + 2**-53
    tie = 1 + 2 ** -26 + 2 ** -27
    assert fma64(np.full(3, a), b, np.array([0.0, 2 ** -100, -2 ** -100])).tolist() == [tie, tie + 2 ** -52, tie]
