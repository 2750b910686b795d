"""torch.utils.data.StackDataset against real torch: items as tuples or dicts, batched fetches through each part's
own __getitems__, a DataLoader over it, and torch's errors."""
import pytest


def parts(lib):
    return lib.utils.data.TensorDataset(lib.arange(4.0)), lib.arange(4) * 10


def test_tuple_and_dict_items(parity):
    def example(lib):
        images, labels = parts(lib)
        as_tuple = lib.utils.data.StackDataset(images, labels)
        as_dict = lib.utils.data.StackDataset(image=images, label=labels)
        return (as_tuple[1], len(as_tuple), as_tuple.__getitems__([0, 2]), as_dict[3], as_dict.__getitems__([1, 0]),
                list(lib.utils.data.DataLoader(as_dict, batch_size=3)), list(lib.utils.data.DataLoader(as_tuple)))
    parity(example)


@pytest.mark.parametrize("case", ["both", "none", "sizes", "sizes_dict"])
def test_errors_in_torchs_words(parity, case):
    def example(lib):
        images, labels = parts(lib)
        stack = lib.utils.data.StackDataset
        if case == "both":
            return stack(images, label=labels)
        if case == "none":
            return stack()
        if case == "sizes":
            return stack(images, labels[:3])
        return stack(a=images, b=labels[:2])
    parity(example)
