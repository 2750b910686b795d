"""Context managers that decorate too, as PyTorch's grad modes do. Mirrors `torch.utils._contextlib`.

`@torch.no_grad()` and `@torch.no_grad` both decorate a function; a decorated generator runs each step inside
the mode (not while it is paused); decorating a class warns. None of it is autograd: the grad modes of
`core/grad_mode.py` inherit it.
"""
import functools
import inspect
import warnings


class _DecoratorContextManager:
    """Let a context manager decorate a function too. Mirrors `torch.utils._contextlib._DecoratorContextManager`.

    Each call of the decorated function runs inside a fresh copy (`clone()`) of the context manager.
    """

    def __call__(self, orig_func):
        if inspect.isclass(orig_func):
            warnings.warn("Decorating classes is deprecated and will be disabled in future versions. You should "
                          "only decorate functions or methods. To preserve the current behavior of class "
                          "decoration, you can directly decorate the `__init__` method and nothing else.",
                          FutureWarning, stacklevel=2)
            func = lambda *args, **kwargs: orig_func(*args, **kwargs)   # noqa: E731 - as PyTorch wraps it
        else:
            func = orig_func
        if inspect.isgeneratorfunction(func):
            return _wrap_generator(self.clone, func)

        @functools.wraps(func)
        def decorate_context(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)
        return decorate_context

    def __enter__(self):
        raise NotImplementedError

    def __exit__(self, exc_type, exc_value, traceback):
        raise NotImplementedError

    def clone(self):
        return self.__class__()


class _NoParamDecoratorContextManager(_DecoratorContextManager):
    """A decorator context manager that also works without parentheses: `@torch.no_grad`."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


def _wrap_generator(ctx_factory, func):
    """Decorate a generator function: the mode holds each time the generator runs, not while it is paused."""
    @functools.wraps(func)
    def generator_context(*args, **kwargs):
        gen = func(*args, **kwargs)
        try:
            with ctx_factory():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with ctx_factory():
                        gen.close()
                    raise
                except BaseException as exc:      # thrown in by the caller: pass it on
                    with ctx_factory():
                        response = gen.throw(exc)
                else:
                    with ctx_factory():
                        response = gen.send(request)
        except StopIteration as e:
            return e.value
    return generator_context
