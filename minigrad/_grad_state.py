"""The grad-mode switches that every layer reads: is a new op recorded, is inference mode on.

One global (minigrad runs autograd on one thread), at the bottom of the package so that `Tensor` can read it;
`autograd/grad_mode.py` sets it (`no_grad`, `enable_grad`, `set_grad_enabled`, `inference_mode`).
"""


class _State:
    enabled = True           # is a new op recorded? Read on every op, so a plain class attribute
    inference = False        # inside inference_mode: nothing is recorded and new tensors are inference tensors
    inference_grad = False   # inside inference_mode, what is_grad_enabled() reports (recording stays off)
    inference_used = False   # set once inference_mode was entered: until then no tensor is an inference tensor


# PyTorch's errors for inference tensors used outside the mode (raised in Tensor and in Function.apply)
INFERENCE_SAVED = ("Inference tensors cannot be saved for backward. Please do not use Tensors created in inference "
                   "mode in computation tracked by autograd. To work around this, you can make a clone to get a normal "
                   "tensor and use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")
INFERENCE_INPLACE = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone "
                     "to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 "
                     "for more details.")     # sic: PyTorch's sentences run together
