"""`torch.random`: PyTorch's CPU generator (generator.py) and the distributions drawn from it, with the same
numbers as torch 2.13 after `manual_seed`."""
from .generator import fork_rng, get_rng_state, initial_seed, manual_seed, seed, set_rng_state  # noqa: F401
from .generator import Generator, default_generator  # noqa: F401
