"""Op-table rows for the shape ops added for the tutorials' PyTorch (issue 11). Format: see op_table.py."""
from .op_table_base import A, B, C, Case, I, Ix, N, P  # noqa: F401

CASES = []
ERRORS = []
