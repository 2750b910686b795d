"""Fixtures for tests/core: the `torch` fixture (real PyTorch, the reference) comes from tests/conftest.py."""
