"""Random numbers exactly as PyTorch makes them on the CPU: the Mersenne Twister behind `torch.manual_seed`.

PyTorch's CPU generator (ATen's `CPUGeneratorImpl`) is an mt19937 (Matsumoto and Nishimura, 1998). Its whole
state is 624 words of 32 bits, and three steps turn it into numbers:

1. Seeding. `manual_seed(s)` puts the low 32 bits of `s` in word 0 and fills the rest with
   ``w[j] = 1812433253 * (w[j-1] ^ (w[j-1] >> 30)) + j  (mod 2**32)`` (`_seed_words`). Only those 32 bits count:
   seeds 0 and 2**32 give the same numbers (`initial_seed()` still reports the whole seed).
2. Twisting. When the 624 words are used up, all are renewed at once:
   ``w[k] = w[k+397] ^ A((upper bit of w[k]) | (lower 31 bits of w[k+1]))``, where A(y) is y >> 1, xored with
   0x9908b0df when y is odd.
3. Tempering. Each word read out is scrambled by four shift-and-xor steps
   (``y ^= y >> 11; y ^= (y << 7) & 0x9d2c5680; y ^= (y << 15) & 0xefc60000; y ^= y >> 18``); the result is
   one 32-bit draw (ATen's `random()`). Two draws make a 64-bit one (`random64()`), the first in the high half.

Steps 2 and 3 are the standard mt19937, which numpy also ships (`numpy.random.MT19937`): loaded with these 624
words, its raw draws are PyTorch's. minigrad uses it for them, because in numpy code a twist costs about 30 us
(its slices can be at most 227 words long, as a new word needs the one 397 places ahead): 9 ms of the 200,704
draws that `nn.Linear(784, 256)` makes, against 0.5 ms in C. tests/parity/test_parity_random_api.py keeps a
numpy version of both steps, and checks it against the draws.

Every distribution is a fixed transform of those draws, written where it is used:
- uniform in [0, 1): float32 keeps the low 24 bits of one draw times 2**-24, float64 the low 53 bits of a
  64-bit draw times 2**-53; U(a, b) is then the fused multiply-add u * (b - a) + a (`distributions.py`);
- integers in [low, high): draw % (high - low) + low, with a 64-bit draw once the range reaches 2**28;
- normal numbers: Box-Muller on two uniforms, one pair at a time with the second value kept for the next call
  (below 16 elements), or 16 at a time (`normal.py`).

`Generator.get_state()` is PyTorch's own 5056-byte layout, so a state saved by one library loads in the other.

What is matched, and what is not (tests/parity/test_parity_random*.py check the rest bit for bit):
- `bernoulli_(p)` with a float p (so `F.dropout` masks): ATen's source has an MKL path for it, taken on Intel
  CPUs only, which draws from MKL's own stream (seeded from one 32-bit draw) instead. minigrad follows the path
  PyTorch 2.13 takes on the AMD CPUs this is tested on; on an Intel CPU it could not be checked. A tensor of
  probabilities (`torch.bernoulli(p)`) never takes that path.
- float32 `normal_` of 16 or more elements follows the AVX2 kernel of x86-64 CPUs with AVX2 or AVX-512.
  Without AVX2 (and on ARM, such as Apple silicon) PyTorch uses the C library's logf/cosf there instead, and
  the last bits differ.
- `multinomial` without replacement orders ties (zero-probability categories, once the others are drawn) by
  index; PyTorch's order comes from its topk's sort.
- The in-place fills are not recorded by autograd: on a tensor with a history, `y.normal_()` leaves `y.grad_fn`
  as it was, where PyTorch records a NormalBackward0 that passes back zeros.
- A state with counters PyTorch never writes itself (ATen's `next + left != 625`) continues differently.
"""
import contextlib
import os
import struct

import numpy as np

from ..core import device as _device
from ..core.tensor import TensorBase

_N = 624                             # words of state
DEFAULT_SEED = 67280421310721        # the seed of a new `torch.Generator()` (c10's default_rng_seed_val)
_STATE_BYTES = 5056                  # sizeof(CPUGeneratorImplState)


def _seed_words(seed):
    """The 624 words that `manual_seed(seed)` starts from (only the low 32 bits of the seed are used)."""
    words = np.empty(_N, np.uint32)
    w = seed & 0xFFFFFFFF
    words[0] = w
    for j in range(1, _N):
        w = (1812433253 * (w ^ (w >> 30)) + j) & 0xFFFFFFFF
        words[j] = w
    return words


class Generator:
    """A source of random numbers with its own state, the same stream as PyTorch's CPU generator.

    Mirrors `torch.Generator`: pass one as `generator=` to `rand`, `randn`, `randint`, `randperm`, `normal_`, ...
    to draw from it instead of from the global generator that `torch.manual_seed` seeds.

    Example:
        >>> g = torch.Generator().manual_seed(0)
        >>> torch.rand(2, generator=g)
        tensor([0.4963, 0.7682])
    """

    def __init__(self, device="cpu"):
        where = _device.device(device)              # PyTorch's errors for a malformed device, or an index with no accelerator
        if where.type != "cpu":
            raise RuntimeError(_DEVICE_ERRORS.get(where.type, f"{where.type.upper()} device type not an accelerator."))
        self._set_seed(DEFAULT_SEED)

    @property
    def device(self):
        return _device.CPU

    def manual_seed(self, seed):
        """Reset the state from `seed` (an int; negative ones wrap around 2**64) and return the generator."""
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
        seed = int(seed)
        if not -2 ** 63 <= seed < 2 ** 64:
            raise ValueError("Overflow when unpacking long long")
        self._set_seed(seed % 2 ** 64)
        return self

    def seed(self):
        """Seed from the operating system's randomness and return that seed."""
        seed = int.from_bytes(os.urandom(8), "little")
        self._set_seed(seed)
        return seed

    def initial_seed(self):
        """Return the seed the state was last reset from."""
        return self._seed

    def get_state(self):
        """Return the state as PyTorch's 5056-byte tensor (uint8): seed, counters, the 624 words, normal caches."""
        words, left, nxt = self._counters()
        buf = bytearray(_STATE_BYTES)
        struct.pack_into("<QiiQ", buf, 0, self._seed, left, 1, nxt)
        buf[24:24 + 8 * _N] = words.astype("<u8").tobytes()
        double_cache, float_cache = self._normal_double, self._normal_float
        struct.pack_into("<dddi", buf, 5016, 0.0, double_cache or 0.0, 0.0, double_cache is not None)
        struct.pack_into("<f?", buf, 5048, float_cache or 0.0, float_cache is not None)
        return TensorBase._make(np.frombuffer(bytes(buf), np.uint8).copy())

    def set_state(self, new_state):
        """Restore a state from `get_state()` (this library's or PyTorch's) and return the generator."""
        if not isinstance(new_state, TensorBase) or new_state._data.dtype != np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        raw = new_state._data.tobytes()
        if len(raw) != _STATE_BYTES:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {_STATE_BYTES} but found the input RNG "
                               f"state size to be {len(raw)}")
        seed, left, seeded, nxt = struct.unpack_from("<QiiQ", raw, 0)
        nxt &= 0xFFFFFFFF
        if not (seeded and 0 < left <= _N and nxt <= _N):
            raise RuntimeError("Invalid mt19937 state")
        words = np.frombuffer(raw, "<u8", _N, 24).astype(np.uint32)     # ATen keeps the low 32 bits
        self._seed = seed
        self._load(words, _N if left == 1 else nxt, fresh=left == 1 and nxt == 0)
        _, normal_y, _, normal_valid = struct.unpack_from("<dddi", raw, 5016)
        float_value, float_valid = struct.unpack_from("<f?", raw, 5048)
        self._normal_double = normal_y if normal_valid else None
        self._normal_float = float_value if float_valid else None
        return self

    def __repr__(self):
        return f"<torch._C.Generator object at {hex(id(self))}>"

    # ---- the draws every distribution is built from ------------------------------------------------------
    def _set_seed(self, seed):
        self._seed = seed
        self._load(_seed_words(seed), _N, fresh=True)       # position 624: the first draw twists
        self._normal_double = None             # Box-Muller's second value, kept for the next call
        self._normal_float = None              # (kept only so that get_state/set_state round-trip it)

    def _load(self, words, position, fresh):
        """Put 624 words into the engine, `position` of them already read."""
        if not hasattr(self, "_engine"):
            self._engine = np.random.MT19937()     # (numpy seeds it its own way: its state is replaced at once)
        self._engine.state = {"bit_generator": "MT19937", "state": {"key": words, "pos": position}}
        self._fresh = fresh                    # just seeded: ATen's `next` counter is then 0, not 624

    def _counters(self):
        """The words and ATen's two counters (`left`, `next`) for the engine's position."""
        state = self._engine.state["state"]
        words, position = state["key"], state["pos"]
        if position == _N:
            return words, 1, 0 if self._fresh else _N
        return words, _N + 1 - position, position

    def _random(self, n):
        """n 32-bit draws (uint32), as n calls of ATen's `random()`: mt19937's tempered words, in order."""
        return self._draws(n).astype(np.uint32)

    def _random64(self, n):
        """n 64-bit draws (uint64): two 32-bit draws each, the first one in the high half."""
        pairs = self._draws(2 * n).reshape(n, 2)
        return (pairs[:, 0] << np.uint64(32)) | pairs[:, 1]

    def _uniform(self, n, np_dtype):
        """n uniform numbers in [0, 1): the low 53 bits of a 64-bit draw times 2**-53 for float64, else the low
        24 bits of a 32-bit draw times 2**-24, as float32 (float16 is computed in float32 too, then rounded)."""
        if np.dtype(np_dtype) == np.float64:
            bits = self._random64(n)
            bits &= np.uint64((1 << 53) - 1)
            u = bits.astype(np.float64)
            u *= 2.0 ** -53
            return u
        bits = self._draws(n)
        bits &= np.uint64((1 << 24) - 1)
        u = bits.astype(np.float32)
        u *= np.float32(2.0 ** -24)                      # perf: in place, as large temporaries cost page faults
        return u

    def _draws(self, n):
        """n 32-bit draws, held in uint64 as numpy's engine returns them."""
        if VMAP_RANDOMNESS and VMAP_RANDOMNESS[-1] == "error":
            raise RuntimeError("vmap: called random operation while in randomness error mode. Please either use the "
                               "'same' or 'different' randomness flags on vmap or perform the randomness operation "
                               "out of vmap")
        if n:
            self._fresh = False
        return self._engine.random_raw(n)


# torch.func.vmap's `randomness=` while a vmap runs (innermost last): "error" refuses every draw (func/vmap.py)
VMAP_RANDOMNESS = []

_DEVICE_ERRORS = {
    "cuda": "Cannot get CUDA generator without ATen_cuda library. PyTorch splits its backend into two shared "
            "libraries: a CPU library and a CUDA library; this error has occurred because you are trying to use "
            "some CUDA functionality, but the CUDA library has not been loaded by the dynamic linker for some "
            "reason.  The CUDA library MUST be loaded, EVEN IF you don't directly use any symbols from the CUDA "
            "library! One common culprit is a lack of -Wl,--no-as-needed in your link arguments; many dynamic "
            "linkers will delete dynamic library dependencies if you don't depend on any of their symbols.  You "
            "can check if this has occurred by using ldd on your binary to see if there is a dependency on "
            "*_cuda.so library.",
}

# The global generator, seeded from the operating system's randomness as PyTorch's is at start-up.
default_generator = Generator()
default_generator.seed()


def _get(generator):
    """The generator a function was given, or the global one."""
    if generator is None:
        return default_generator
    if not isinstance(generator, Generator):
        raise TypeError(f"expected a torch.Generator, but got {type(generator).__name__}")
    return generator


def manual_seed(seed):
    """Seed the global generator, so that `rand`, `randn`, `nn.Linear`'s weights, ... repeat, and return it.

    Mirrors `torch.manual_seed`: after `manual_seed(s)` the numbers are PyTorch's own for the same `s`.
    """
    return default_generator.manual_seed(int(seed))


def seed():
    """Seed the global generator from the operating system's randomness and return the seed. Mirrors `torch.seed`."""
    return default_generator.seed()


def initial_seed():
    """Return the seed the global generator was last seeded with. Mirrors `torch.initial_seed`."""
    return default_generator.initial_seed()


def get_rng_state():
    """Return the global generator's state (a uint8 tensor). Mirrors `torch.get_rng_state`."""
    return default_generator.get_state()


def set_rng_state(new_state):
    """Restore the global generator's state from `get_rng_state()`. Mirrors `torch.set_rng_state`."""
    if not isinstance(new_state, TensorBase):
        raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type="cuda"):
    """Context manager: the global generator's state is put back on leaving, so that random draws inside do
    not change what comes after. Mirrors `torch.random.fork_rng` (minigrad has only the CPU generator)."""
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
