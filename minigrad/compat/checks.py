"""PyTorch's error messages, and the checks that exist only to raise them.

The core keeps each check's condition where it belongs and calls one of these in a single line, so that
`Function.apply` and the engine read as the algorithm. Nothing here imports the rest of minigrad: the
functions receive what they name.
"""
import re
import warnings

from .callers import called_from_user

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
    "if you need to access saved tensors after calling backward.")

DETACH_VIEW = (
    "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) for "
    "training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and hence detach_() "
    "cannot be called on these gradients. To fix this error, please refer to the Optimizer.zero_grad() function in "
    "torch/optim/optimizer.py as the solution.")

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
    "Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure "
    "you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information.")
NON_LEAF_REQUIRES_GRAD = "you can only change requires_grad flags of leaf variables."
NON_LEAF_DETACH_HINT = (" If you want to use a computed variable in a subgraph that doesn't require differentiation "
                        "use var_no_grad = var.detach().")


# ---- Function.apply -------------------------------------------------------------------------------------------
def positional_only(cls):
    raise TypeError(f"{cls.__name__}.apply() takes positional arguments only")


def dirty_leaf(out):
    """A Function marked a leaf that requires grad dirty: PyTorch refuses the in-place change."""
    if out.grad_fn is None and out._requires_grad:
        raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")


def cannot_save(i, value):
    raise TypeError(f"save_for_backward can only save variables, but argument {i} is of type "
                    f"{type(value).__name__}")


# ---- the gradients a backward returns ---------------------------------------------------------------------------
def gradient_count(node, grads, inputs):
    """One gradient per input: extra trailing Nones are dropped, anything else is PyTorch's error."""
    if len(grads) > len(inputs) and all(g is None for g in grads[len(inputs):]):
        return grads[:len(inputs)]
    raise RuntimeError(f"function {type(node).__name__} returned an incorrect number of gradients "
                       f"(expected {len(inputs)}, got {len(grads)})")


def wrong_gradient(node, i, g):
    """Backward returned a gradient where none may be (a non-tensor input), or a value that is not a tensor."""
    if node._inputs[i] is None:
        raise RuntimeError(f"function {type(node).__name__} returned a gradient different than None at "
                           f"position {i + 1}, but the corresponding forward input was not a Variable")
    raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")


def gradient_shape(node, i, g, shape):
    """A gradient of another shape than its input must be one the input broadcasts to: then it is summed back."""
    target = g._data.shape
    if len(shape) > len(target) or not all(s == t or s == 1 for s, t in zip(reversed(shape), reversed(target))):
        raise RuntimeError(f"Function {type(node).__name__} returned an invalid gradient at index {i} - "
                           f"got {list(g.shape)} but expected shape compatible with {list(shape)}")


# ---- saved tensors and hooks ------------------------------------------------------------------------------------
def modified_in_place(saved, t):
    """A saved tensor changed in place after it was saved: PyTorch's error, naming the op that made it."""
    producer = saved.grad_fn or t.grad_fn
    # PyTorch names the op here without "Backward" and a 0: "output 0 of Mul", "of Clamp1", "of Fill2"
    op = re.sub(r"Backward(?:0|(\d+))?$", r"\1", type(producer).name(producer)) if producer else ""
    which = f", which is output {saved.output_nr} of {op}," if producer else ""
    raise RuntimeError(
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [{t.type()} {list(t.shape)}]{which} is at version {t._version}; expected version "
        f"{saved.version} instead. Hint: enable anomaly detection to find the operation that failed to "
        "compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")


def layout_contract(grad, param):
    """PyTorch's warning when a leaf's .grad ends up another shape than the leaf (a direct AccumulateGrad call)."""
    def strides(t):
        return [s // t._data.itemsize for s in t._data.strides]
    warnings.warn("grad and param do not obey the gradient layout contract. This is not an error, but may impair "
                  f"performance.\ngrad.sizes() = {list(grad.shape)}, strides() = {strides(grad)}\n"
                  f"param.sizes() = {list(param.shape)}, strides() = {strides(param)}", UserWarning, stacklevel=4)


def hook_result(result, expected, hook):
    """Check what a node hook returned (a tuple of the right length), with PyTorch's errors."""
    if type(result) is not tuple:
        raise TypeError(f"expected tuple, but hook returned '{type(result).__name__}'")
    if len(result) != expected:
        raise RuntimeError(f"hook '{getattr(hook, '__name__', hook)}' has returned an incorrect number of values "
                           f"(got {len(result)}, but expected {expected})")
    return result


def saved_tensor_hooks(saved, pack_hook, unpack_hook):
    """`register_hooks` on a saved tensor: one pair of hooks, once."""
    if hasattr(saved, "unpack_hook"):
        raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have already been set. Hint: only "
                           "one pair of hooks is allowed at a time.")


def post_accumulate_result(result):
    """A post-accumulate-grad hook must return None (it may change `tensor.grad` in place)."""
    if result is None:
        return
    if hasattr(result, "_data"):
        raise RuntimeError("Tensor post accumulate grad hooks should return None.")
    raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")


# ---- backward() and autograd.grad(): arguments PyTorch deprecates, refuses or warns about -------------------------
def grad_variables(grad_tensors, grad_variables):
    warnings.warn("`grad_variables` is deprecated. Use `grad_tensors` instead.", FutureWarning, stacklevel=3)
    if grad_tensors is not None:
        raise RuntimeError("`grad_tensors` and `grad_variables` (deprecated) arguments both passed to "
                           "`backward()`. Please only use `grad_tensors`.")
    return grad_variables


_warned_reference_cycle = []


def warn_reference_cycle():
    if not _warned_reference_cycle:
        _warned_reference_cycle.append(True)
        warnings.warn("Using backward() with create_graph=True will create a reference cycle between the parameter "
                      "and its gradient which can cause a memory leak. We recommend using autograd.grad when creating "
                      "the graph to avoid this. If you have to use this function, make sure to reset the .grad fields "
                      "of your parameters to None after use to break the cycle and avoid the leak.", UserWarning,
                      stacklevel=3)


def grad_options(allow_unused, materialize_grads, is_grads_batched, only_inputs):
    """Check autograd.grad's options as PyTorch does; return allow_unused with its default filled in."""
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, but got: "
                         "allow_unused=False.")
    if is_grads_batched:    # torch.autograd.grad (autograd/batched_grad.py) loops before it calls the engine
        raise NotImplementedError("core.engine.grad takes one grad_output per output; call "
                                  "torch.autograd.grad for is_grads_batched=True")
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
                      "gradient for other parts of the graph, please use torch.autograd.backward.",
                      FutureWarning, stacklevel=3)
    return materialize_grads if allow_unused is None else allow_unused


def unused_input(i):
    raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in the "
                       "graph. Set allow_unused=True if this is the desired behavior.")


def inputs_mapping(caller, inputs):
    raise TypeError(f"`inputs` argument to `{caller}()` must be a dict, not {type(inputs).__name__}. Other "
                    "Mapping types are not supported.")


def tangent_shape(t, tangent):
    raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                       f"Tensor, this is not supported. Tensor is of size {list(t._data.shape)} while the given "
                       f"forward gradient is of size {list(tangent._data.shape)}.")


EXTENDING_FUNC = "For more details, please see https://pytorch.org/docs/main/notes/extending.func.html"


def function_in_transform(cls, transforms, own_rule):
    """Inside torch.func, a custom Function needs a separate setup_context; under vmap, one vmap rule (`own_rule`:
    it overrides Function.vmap)."""
    if not cls._separate_setup:
        raise RuntimeError("In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, jacrev, "
                           f"...), it must override the setup_context staticmethod. {EXTENDING_FUNC}")
    if "vmap" in transforms:
        if own_rule and cls.generate_vmap_rule:
            raise RuntimeError(f"You tried to vmap over {cls.__name__}, but it has both generate_vmap_rule=True and "
                               "an overridden vmap staticmethod. Please set generate_vmap_rule=False or delete the "
                               f"overridden vmap staticmethod to avoid ambiguity. {EXTENDING_FUNC}")
        if not own_rule and not cls.generate_vmap_rule:
            raise RuntimeError(f"You tried to vmap over {cls.__name__}, but it does not have vmap support. Please "
                               "override and implement the vmap staticmethod or set generate_vmap_rule=True. "
                               f"{EXTENDING_FUNC}")


def requires_grad_in_transform():
    """`t.requires_grad_()` written in a function that a torch.func transform runs (minigrad's transforms call it
    themselves, which is fine)."""
    if called_from_user(3):
        raise RuntimeError("You are attempting to call Tensor.requires_grad_() (or perhaps using "
                           "torch.autograd.functional.* APIs) inside of a function being transformed by a functorch "
                           "transform. This is unsupported, please attempt to use the functorch transforms (e.g. "
                           "grad, vjp, jacrev, jacfwd, hessian) or call requires_grad_() outside of a function being "
                           "transformed instead.")
