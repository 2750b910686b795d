"""Built-in ops, one small `Function` subclass per op, grouped by kind.

Each op's node has PyTorch's name (`node_name = "MulBackward0"`), so `y.grad_fn` prints as it does in
PyTorch. Forward and backward compute with numpy on the tensors' arrays; the `ctx` API is the one the
book teaches for custom Functions.
"""
