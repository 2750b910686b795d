"""Chapter 17's checks accept the solutions (and other right answers) and say "not yet" to typical wrong ones."""
import pytest

from widgets.exercises import ch17

PRELUDE = "import minigrad as torch\nfrom minigrad.utils.checkpoint import checkpoint\n"

HALF = '''
def pack_half(t):
    return t.dtype, (t.half() if t.dtype == torch.float32 else t)


def unpack_half(packed):
    dtype, t = packed
    return t.to(dtype)
'''

HALF_AS_A_LIST = '''
def pack_half(t):
    return [t.half(), "half"] if t.dtype == torch.float32 else [t, "as is"]


def unpack_half(packed):
    t, how = packed
    return t.float() if how == "half" else t
'''

HALF_IN_A_DICT = '''
def pack_half(t):
    return {"t": t.half() if t.dtype == torch.float32 else t.detach(), "dtype": t.dtype}


def unpack_half(packed):
    return packed["t"].to(packed["dtype"])
'''

CHECKPOINTED = '''
def checkpointed(blocks, x):
    for block in blocks:
        x = checkpoint(block, x, use_reentrant=False)
    return x
'''


def define(source, *names):
    namespace = {"__name__": "__main__"}
    exec(PRELUDE + source, namespace)
    return [namespace[name] for name in names]


@pytest.mark.parametrize("check, source, names", [
    (ch17.check_half_hooks, HALF, ("pack_half", "unpack_half")),
    (ch17.check_half_hooks, HALF_AS_A_LIST, ("pack_half", "unpack_half")),
    (ch17.check_half_hooks, HALF_IN_A_DICT, ("pack_half", "unpack_half")),
    (ch17.check_checkpointed, CHECKPOINTED, ("checkpointed",)),
    (ch17.check_checkpointed, CHECKPOINTED.replace("use_reentrant=False)", "use_reentrant=False, "
                                                   "preserve_rng_state=True)"), ("checkpointed",)),
])
def test_right_answers_pass(check, source, names):
    feedback = check(*define(source, *names))
    assert feedback.ok, feedback.message


@pytest.mark.parametrize("check, source, names, hint", [
    (ch17.check_half_hooks, "def pack_half(t):\n    return t\n\ndef unpack_half(t):\n    return t\n",
     ("pack_half", "unpack_half"), "kept a float32 tensor"),
    (ch17.check_half_hooks, "def pack_half(t):\n    return t.half()\n\ndef unpack_half(t):\n    return t\n",
     ("pack_half", "unpack_half"), "gave a float16 tensor back"),
    (ch17.check_half_hooks, "def pack_half(t):\n    t.half()\n\ndef unpack_half(t):\n    return t\n",
     ("pack_half", "unpack_half"), "returned None"),
    (ch17.check_half_hooks, "def pack_half(t):\n    return t.half()\n\ndef unpack_half(t):\n    return t.float()\n",
     ("pack_half", "unpack_half"), "unpack_half gave torch.float32 back for a torch.int64 tensor"),
    (ch17.check_half_hooks, "def pack_half(t):\n    return t.half()\n\ndef unpack_half(t):\n    return t.float() * 2\n",
     ("pack_half", "unpack_half"), "gave [2.0, 5.0, -6.0]"),
    (ch17.check_half_hooks, "def pack_half(t):\n    return t.half().tolist()\n\ndef unpack_half(t):\n"
     "    return torch.tensor(t)\n", ("pack_half", "unpack_half"), "no tensor in it"),
    (ch17.check_checkpointed, CHECKPOINTED.replace("use_reentrant=False", "use_reentrant=True"), ("checkpointed",),
     "CheckpointFunctionBackward"),
    (ch17.check_checkpointed, CHECKPOINTED.replace("checkpoint(block, x, use_reentrant=False)", "block(x)"),
     ("checkpointed",), "nothing was checkpointed"),
    (ch17.check_checkpointed, CHECKPOINTED.replace("    return x", "    return x * 2"), ("checkpointed",),
     "is not the output"),
    (ch17.check_checkpointed, CHECKPOINTED.replace("for block in blocks:", "for block in blocks[:1]:"),
     ("checkpointed",), "is not the output"),
    (ch17.check_checkpointed, "def checkpointed(blocks, x):\n    ...\n", ("checkpointed",), "returned None"),
    (ch17.check_checkpointed, "def checkpointed(blocks, x):\n    def run(x):\n        for block in blocks:\n"
     "            x = block(x)\n        return x\n    return checkpoint(run, x, use_reentrant=False)\n",
     ("checkpointed",), "one checkpoint per block"),
    (ch17.check_half_hooks, "def pack_half(t):\n    return t.half() if t.is_floating_point() else t\n\n"
     "def unpack_half(t):\n    return t.float() if t.dtype == torch.float16 else t\n", ("pack_half", "unpack_half"),
     "unpack_half gave torch.float32 back for a torch.float16 tensor"),
])
def test_wrong_answers_get_their_hint(check, source, names, hint):
    feedback = check(*define(source, *names))
    assert not feedback.ok
    assert hint in feedback.message, feedback.message


def test_the_stubs_are_not_yet():
    assert not ch17.check_half_hooks(None, None).ok
    assert not ch17.check_checkpointed(...).ok
