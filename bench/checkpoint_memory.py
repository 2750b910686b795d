#!/usr/bin/env python3
"""How much activation checkpointing saves: the bytes a deep MLP's graph holds for backward, with and without
`torch.utils.checkpoint`, counted by the saved-tensor hooks themselves, on minigrad and on real PyTorch.

    .venv/bin/python bench/checkpoint_memory.py                 # 32 layers of width 256, batch 64
    .venv/bin/python bench/checkpoint_memory.py --layers 64 --segments 8

An outer `saved_tensors_hooks` sees every tensor that an op saves outside a non-reentrant checkpoint (inside
one, checkpoint's own hooks take over and keep placeholders) and every input a reentrant checkpoint saves. The
count is of distinct tensors by memory address, parameters left out (they exist anyway); the segment inputs
that a non-reentrant checkpoint keeps for its recomputation are counted too. The gradients must not change:
the script checks that they equal the plain run's.
"""
import argparse
import importlib

import numpy as np


class SavedBytes:
    """pack/unpack hooks that add up the bytes of the distinct non-parameter tensors saved for backward."""

    def __init__(self, lib):
        self.lib, self.seen, self.bytes = lib, set(), 0

    def pack(self, t):
        key = t.data_ptr()
        if not isinstance(t, self.lib.nn.Parameter) and key not in self.seen:
            self.seen.add(key)
            self.bytes += t.numel() * t.element_size()
        return t

    @staticmethod
    def unpack(t):
        return t


def run(lib, layers, width, batch, segments, mode):
    """One forward + backward of the MLP; returns (saved bytes, gradient of the first weight)."""
    cp = importlib.import_module(lib.__name__ + ".utils.checkpoint")
    nn = lib.nn
    lib.manual_seed(0)
    blocks = []
    for _ in range(layers):
        blocks += [nn.Linear(width, width), nn.Tanh()]
    net = nn.Sequential(*blocks)
    x = lib.randn(batch, width).requires_grad_()   # a reentrant checkpoint gives the weights no gradient otherwise
    counter = SavedBytes(lib)
    with lib.autograd.graph.saved_tensors_hooks(counter.pack, counter.unpack):
        if mode == "plain":
            out = net(x)
        else:
            out = cp.checkpoint_sequential(net, segments, x, use_reentrant=(mode == "reentrant"))
    saved = counter.bytes
    if mode == "non-reentrant":     # each checkpointed segment keeps its input for the recomputation
        saved += (segments - 1) * batch * width * 4
    out.pow(2).mean().backward()
    return saved, net[0].weight.grad.numpy().copy()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=32)
    parser.add_argument("--width", type=int, default=256)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--segments", type=int, default=4)
    args = parser.parse_args()
    print(f"MLP: {args.layers} x (Linear({args.width}, {args.width}) + Tanh), batch {args.batch}, "
          f"{args.segments} segments")
    print(f"{'library':10s} {'mode':15s} {'saved MB':>9s} {'of plain':>9s}  gradients")
    for name in ("minigrad", "torch"):
        try:
            lib = importlib.import_module(name)
        except ImportError:
            continue
        plain, plain_grad = run(lib, args.layers, args.width, args.batch, args.segments, "plain")
        for mode in ("plain", "non-reentrant", "reentrant"):
            saved, grad = run(lib, args.layers, args.width, args.batch, args.segments, mode)
            same = "equal" if np.array_equal(grad, plain_grad) else (
                "close" if np.allclose(grad, plain_grad, rtol=1e-5, atol=1e-7) else "DIFFERENT")
            print(f"{name:10s} {mode:15s} {saved / 2**20:9.2f} {saved / plain:9.2f}  {same}")


if __name__ == "__main__":
    main()
