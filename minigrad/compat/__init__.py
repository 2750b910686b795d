"""PyTorch fidelity that the core calls at a few seams: each file names what it imitates.

Nothing here imports the rest of minigrad, so that the core can call it in one line where a check raises.
"""
