"""The teaching core: read `grad_mode.py` (the recording switch), `tensor.py`, `function.py`, `graph.py` and
`engine.py`, in that order.

It imports nothing from the rest of minigrad but `compat/` (PyTorch's corner cases), at the seams that
tests/test_layering.py lists; `dtype.py` and `device.py` are what a tensor's metadata is made of.
"""
