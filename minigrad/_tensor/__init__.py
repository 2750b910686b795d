"""`minigrad.Tensor` (tensor.py) and what surrounds it: its methods by kind, creation, printing, views, and the
`torch.*` spellings of its methods (functions.py). Private, as `torch/_tensor.py` is: `torch.tensor` is a function.
"""
