"""How a module prints: its name, `extra_repr()` inside the parentheses, then each child indented by two spaces.

Mirrors `torch.nn.Module.__repr__`; bound in `Module`'s class body.
"""


def _addindent(s, num_spaces):
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    return lines[0] + "\n" + "\n".join((num_spaces * " ") + line if line.strip() else "" for line in lines[1:])


def module_repr(self):
    """Return e.g. `Sequential(\\n  (0): Linear(in_features=2, out_features=8, bias=True)\\n)`."""
    extra = self.extra_repr()
    extra_lines = extra.split("\n") if extra else []
    child_lines = [f"({key}): " + _addindent(repr(module), 2) for key, module in self._modules.items()]
    lines = extra_lines + child_lines
    main = self._get_name() + "("
    if lines:
        if len(extra_lines) == 1 and not child_lines:
            main += extra_lines[0]
        else:
            main += "\n  " + "\n  ".join(lines) + "\n"
    return main + ")"
