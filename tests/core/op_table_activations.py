"""Op-table rows for the activations and distance functions of `nn.functional` (issue 26). Format: see op_table.py."""
from .op_table_base import A, B, C, Case, I, Ix, N, P  # noqa: F401

CASES = []
ERRORS = []
