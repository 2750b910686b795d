"""The same random numbers as PyTorch: after `manual_seed(s)`, every random function gives torch's values bit for bit.

Each example returns its tensors as exact text (`bits`: dtype, shape and the repr of every value, which is exact for
float32 and float64), so the harness's float tolerance plays no part: one differing bit fails the test. Sizes
straddle 16, where ATen's normal_ switches from one value at a time to blocks of 16. The generator's API, its
state and the error messages are in test_parity_random_api.py.
"""
import hashlib
import math

import numpy as np
import pytest

SEEDS = [0, 1, 42, 2 ** 32 + 7, -5]
SIZES = [1, 7, 15, 16, 17, 100, 1000]


def bits(t):
    """A tensor as exact text; a large one as its first values and a digest of all its bytes."""
    t = t.detach()
    if t.numel() <= 64:
        return f"{t.dtype} {tuple(t.shape)} {t.tolist()!r}"
    digest = hashlib.sha256(np.ascontiguousarray(t.numpy()).tobytes()).hexdigest()[:16]
    return f"{t.dtype} {tuple(t.shape)} {t.flatten()[:8].tolist()!r} ... sha256 {digest}"


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("seed", SEEDS)
def test_rand_randn(run_both, seed, n, dtype):
    def example(lib):
        lib.manual_seed(seed)
        dt = getattr(lib, dtype)
        return [bits(lib.rand(n, dtype=dt)), bits(lib.randn(n, dtype=dt)), bits(lib.randn(2, n, dtype=dt)),
                bits(lib.empty(n, dtype=dt).normal_(0.5, 3.0)), bits(lib.empty(n, dtype=dt).uniform_(-0.3, 0.7)),
                bits(lib.empty(n, dtype=dt).uniform_(0.1, 2.3))]
    run_both(example)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("seed", SEEDS[:3])
def test_integers(run_both, seed, n):
    def example(lib):
        lib.manual_seed(seed)
        return [bits(lib.randint(0, 10, (n,))), bits(lib.randint(-5, 7, (n,))), bits(lib.randperm(n)),
                bits(lib.randint(0, 2 ** 28, (n,))), bits(lib.randint(0, 2 ** 28 - 1, (n,))),
                bits(lib.randint(-2 ** 40, 2 ** 40, (n,))), bits(lib.empty(n, dtype=lib.int64).random_()),
                bits(lib.bernoulli(lib.full((n,), 0.3))), bits(lib.empty(n).exponential_(1.5))]
    run_both(example)


CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


@case
def a_sequence_of_calls_carries_the_state_and_the_cached_normal(lib):
    lib.manual_seed(0)
    # randn(3) leaves Box-Muller's second value cached; rand and the block path of randn(20) leave it there
    return [bits(lib.randn(3)), bits(lib.rand(5)), bits(lib.randn(20)), bits(lib.randn(1)),
            bits(lib.randn(2, dtype=lib.float64)), bits(lib.randn(17)), bits(lib.randn(1)), bits(lib.randn(5, 5))]


@case
def large_normal_tensors_pin_down_every_rounding_of_the_block_paths(lib):
    # 200k float32 values: a polynomial of avx_mathfun evaluated with one fusing less would differ in ~30 of them
    lib.manual_seed(0)
    return [bits(lib.randn(784, 256)), bits(lib.empty(100003).normal_(0.5, 2.0)),
            bits(lib.randn(40000, dtype=lib.float64)), bits(lib.empty(30001, dtype=lib.float64).normal_(-1.0, 0.3))]


@case
def manual_seed_resets_the_cached_normal(lib):
    lib.manual_seed(3)
    lib.randn(1)
    lib.manual_seed(3)
    return bits(lib.randn(4))


@case
def seeds_differing_above_32_bits_give_the_same_numbers(lib):
    lib.manual_seed(2 ** 32 + 9)
    a = lib.rand(4)
    lib.manual_seed(9)
    return bits(a), bits(lib.rand(4)), bits(lib.randn(3)), lib.initial_seed()


@case
def non_contiguous_tensors_fill_in_memory_order_and_normal_goes_one_at_a_time(lib):
    lib.manual_seed(0)
    return [bits(lib.empty(6, 4).t().normal_()), bits(lib.empty(2, 3, 4).permute(2, 0, 1).uniform_(-1, 2)),
            bits(lib.empty(5, 8)[:, ::2].normal_(1.0, 2.0)), bits(lib.empty(4, 5, dtype=lib.float64).t().normal_()),
            bits(lib.empty(3, 7).t().random_(0, 100)), bits(lib.empty(6, 3).t().bernoulli_(0.5))]


@case
def normal_with_a_mean_and_std_in_place(lib):
    lib.manual_seed(1)
    return [bits(lib.empty(100).normal_(-2.0, 0.1)), bits(lib.empty(7).normal_(3, 2)),
            bits(lib.empty(40, dtype=lib.float64).normal_(-1.3, 0.37)), bits(lib.empty(20).normal_(std=0.0))]


@case
def torch_normal_overloads(lib):
    lib.manual_seed(2)
    return [bits(lib.normal(lib.zeros(3), lib.ones(2, 3))), bits(lib.normal(lib.arange(20.0), 2.0)),
            bits(lib.normal(1.5, lib.arange(18.0))), bits(lib.normal(2.0, 3.0, (4,))),
            bits(lib.normal(0.0, 1.0, size=(20,))), bits(lib.normal(lib.zeros(3, dtype=lib.float64), lib.ones(3))),
            bits(lib.normal(lib.arange(4.0), lib.tensor([0.5, 1.0, 2.0, 0.0])))]


@case
def randint_dtypes_and_forms(lib):
    lib.manual_seed(4)
    out = [bits(lib.randint(0, 2, (20,), dtype=getattr(lib, d))) for d in
           ("int64", "int32", "int16", "int8", "uint8", "bool", "float32", "float64", "float16")]
    return out + [bits(lib.randint(7, (2, 3))), bits(lib.randint(3, 9, size=(5,))), bits(lib.randint(0, 2 ** 32, (5,))),
                  bits(lib.randint(0, 2 ** 30, (5,), dtype=lib.float32)), bits(lib.randint(0, 2 ** 25, (5,), dtype=lib.float32))]


@case
def random_in_place_for_every_dtype(lib):
    lib.manual_seed(5)
    out = []
    for name in ("int64", "int32", "int16", "int8", "uint8", "bool", "float32", "float64", "float16"):
        dt = getattr(lib, name)
        out += [bits(lib.empty(10, dtype=dt).random_()), bits(lib.empty(10, dtype=dt).random_(2)),
                bits(lib.empty(10, dtype=dt).random_(0, 2))]
    return out + [bits(lib.empty(10).random_(-3, 5)), bits(lib.empty(10, dtype=lib.int64).random_(-2 ** 40, 2 ** 40)),
                  bits(lib.empty(5, dtype=lib.int64).random_(-2 ** 63, None)),
                  bits(lib.empty(5, dtype=lib.int64).random_(5, None)), bits(lib.empty(5).random_(5, None))]


@case
def randperm_sizes_and_dtypes(lib):
    lib.manual_seed(6)
    return [bits(lib.randperm(n)) for n in (0, 1, 2, 3, 100, 5000)] + [bits(lib.randperm(9, dtype=lib.float32)),
                                                                      bits(lib.randperm(9, dtype=lib.int32))]


@case
def bernoulli_with_float_and_tensor_probabilities(lib):
    lib.manual_seed(7)
    p = lib.tensor([0.1, 0.5, 0.9, 0.0, 1.0, 0.3] * 5)
    return [bits(lib.bernoulli(p)), bits(lib.bernoulli(p.double())), bits(lib.empty(30).bernoulli_(0.3)),
            bits(lib.empty(30, dtype=lib.int64).bernoulli_(p)), bits(p.bernoulli()), bits(lib.bernoulli(p, 0.7)),
            bits(lib.empty(6, 5).bernoulli_(lib.tensor([0.2, 0.4, 0.6, 0.8, 1.0]))),
            bits(lib.empty(30, dtype=lib.bool).bernoulli_()), bits(lib.bernoulli(p.reshape(5, 6).t()))]


@case
def dropout_masks_are_bernoulli_of_the_keep_probability(lib):
    # F.dropout on the CPU is input * bernoulli_(1 - p) / (1 - p): the building block a Dropout layer uses
    lib.manual_seed(8)
    mask = lib.empty(4, 10).bernoulli_(0.7)
    return bits(mask), bits(mask.div(0.7)), bits(lib.empty(50).bernoulli_(0.5))


@case
def exponential_in_place(lib):
    lib.manual_seed(9)
    return [bits(lib.empty(100).exponential_()), bits(lib.empty(100, dtype=lib.float64).exponential_(2.5)),
            bits(lib.empty(5).exponential_(0.1))]


@case
def multinomial_with_and_without_replacement(lib):
    lib.manual_seed(10)
    p = lib.tensor([[0.1, 0.2, 0.3, 0.4], [0.5, 0.0, 0.25, 0.25], [1.0, 2.0, 3.0, 4.0]])
    return [bits(lib.multinomial(p, 1)), bits(lib.multinomial(p, 3)), bits(lib.multinomial(p, 20, replacement=True)),
            bits(lib.multinomial(p[0], 2)), bits(lib.multinomial(p.double(), 5, True)),
            bits(lib.multinomial(p, 1, True)), bits(p.multinomial(2)), bits(lib.multinomial(lib.rand(50, 7), 3)),
            bits(lib.multinomial(lib.rand(50, 7), 1, replacement=True)), bits(lib.multinomial(lib.ones(1000), 10))]


@case
def multinomial_of_bigram_counts(lib):
    # Karpathy's makemore: sample names from a row-normalised count matrix with a seeded generator
    g = lib.Generator().manual_seed(2147483647)
    counts = lib.randint(0, 50, (27, 27), generator=g).float() + 1
    probs = counts / counts.sum(1, keepdim=True)
    ix, out = 0, []
    for _ in range(40):
        ix = lib.multinomial(probs[ix], num_samples=1, replacement=True, generator=g).item()
        out.append(ix)
    return out


@case
def like_functions_keep_the_layout_of_their_input(lib):
    lib.manual_seed(11)
    return [bits(lib.rand_like(lib.zeros(4, 5).t())), bits(lib.randn_like(lib.zeros(4, 5).t())),
            bits(lib.randn_like(lib.zeros(20), dtype=lib.float64)), bits(lib.randint_like(lib.zeros(3, 3), 10)),
            bits(lib.randint_like(lib.zeros(3), -3, 3, dtype=lib.int64)), bits(lib.rand_like(lib.zeros(2, 3)))]


@case
def float16_numbers(lib):
    lib.manual_seed(12)
    return [bits(lib.rand(20, dtype=lib.float16)), bits(lib.randn(5, dtype=lib.float16)),
            bits(lib.randn(17, dtype=lib.float16)), bits(lib.randn(32, dtype=lib.float16)),
            bits(lib.randn(1000, dtype=lib.float16)), bits(lib.empty(20, dtype=lib.float16).uniform_(-2, 3)),
            bits(lib.bernoulli(lib.rand(10, dtype=lib.float16))), bits(lib.rand(3))]


@case
def generators_are_independent_streams(lib):
    lib.manual_seed(13)
    g = lib.Generator().manual_seed(5)
    a, b, c = lib.randn(20, generator=g), lib.randn(20), lib.rand(3, generator=g)
    fresh = lib.Generator()                      # seeded with PyTorch's default seed, 67280421310721
    return [bits(a), bits(b), bits(c), bits(lib.randn(3, generator=fresh)), fresh.initial_seed(),
            bits(lib.randperm(5, generator=g)), bits(lib.randint(0, 9, (4,), generator=g)),
            bits(lib.multinomial(lib.ones(5), 2, generator=g)), bits(lib.normal(0.0, 1.0, (3,), generator=g)),
            bits(lib.bernoulli(lib.ones(3) / 2, generator=g)), bits(lib.empty(4).random_(9, generator=g)),
            bits(lib.empty(20).normal_(generator=g)), bits(lib.empty(4).exponential_(generator=g)),
            bits(lib.rand_like(lib.zeros(3), generator=g)), bits(lib.randn(3))]


@case
def nn_linear_784_256_default_weights_after_manual_seed_0(lib):
    lib.manual_seed(0)
    layer = lib.nn.Linear(784, 256)
    return bits(layer.weight), bits(layer.bias), bits(lib.nn.Linear(3, 2).weight)


@case
def nn_linear_float64_and_a_small_net(lib):
    lib.manual_seed(1)
    net = lib.nn.Sequential(lib.nn.Linear(2, 8), lib.nn.ReLU(), lib.nn.Linear(8, 1))
    return [bits(p) for p in net.parameters()] + [bits(lib.nn.Linear(5, 3, dtype=lib.float64).weight)]


@case
def nn_init_drawing_functions(lib):
    lib.manual_seed(14)
    w, g = lib.empty(30, 20), lib.Generator().manual_seed(1)
    init = lib.nn.init
    return [bits(init.uniform_(w, -2, 3)), bits(init.normal_(w, 1, 0.5)), bits(init.kaiming_uniform_(w, a=math.sqrt(5))),
            bits(init.kaiming_normal_(w)), bits(init.kaiming_uniform_(w, mode="fan_out", nonlinearity="relu")),
            bits(init.xavier_uniform_(w)), bits(init.xavier_normal_(w, gain=2.0)), bits(init.uniform_(w, generator=g)),
            bits(init.normal_(w, generator=g)), bits(init.kaiming_uniform_(w, generator=g)),
            bits(init.normal_(lib.empty(7), 0.0, 0.02))]


@pytest.mark.parametrize("name", list(CASES))
def test_parity(run_both, name):
    run_both(CASES[name])


def test_conv2d_default_weights(run_both):

    def example(lib):
        lib.manual_seed(15)
        conv = lib.nn.Conv2d(3, 6, 5)
        return bits(conv.weight), bits(conv.bias), bits(lib.nn.Conv2d(1, 2, (3, 2), bias=False).weight)
    run_both(example)
