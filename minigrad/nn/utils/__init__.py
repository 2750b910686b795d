"""Helpers around modules and their parameters. Mirrors `torch.nn.utils`."""
