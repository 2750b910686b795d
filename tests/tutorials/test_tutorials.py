"""Public PyTorch programs (tutorials, docs, a book chapter, a training script), run unchanged on torch and on
minigrad posing as `torch`; every printed line must be the same.

The programs are in ``programs/``, one file each, with the URL they come from and every change made to them
in their header. The harness (``_harness.py``) runs each in two fresh interpreters and compares their stdout.
"""

import pytest
from torch_reference import import_torch

from _harness import check_program, programs

import_torch()   # real PyTorch runs every program first; skips only without it, never in CI

PROGRAMS = programs()


def test_the_programs_are_there():
    names = {p.stem for p in PROGRAMS}
    assert {"double_backward_tutorial", "extending_autograd", "third_derivative", "hessian_vector_product",
            "wgan_gp_step", "d2l_autograd",
            # Learning PyTorch with Examples
            "examples_tensor_polynomial", "examples_autograd_polynomial", "examples_autograd_legendre",
            "examples_nn_polynomial", "examples_nn_optim_rmsprop", "examples_nn_custom_module",
            "examples_nn_dynamic_net",
            # the 60 Minute Blitz and Learn the Basics
            "blitz_autograd_tutorial", "blitz_neural_networks", "basics_autogradqs", "basics_buildmodel",
            "basics_optimization",
            # d2l.ai, micrograd, makemore
            "d2l_linear_regression_scratch", "d2l_linear_regression_concise", "micrograd_test_engine",
            "makemore_bigrams", "makemore_backprop_ninja",
            # torch.func
            "per_sample_grads", "model_ensembling", "forward_ad_usage", "jacobians_hessians",
            # saving and loading, in PyTorch's file format
            "saving_loading_models",
            # attention: a small GPT trained and sampled, PyTorch's nn.Transformer language model
            "tiny_gpt", "transformer_language_model",
            # recurrent layers: nn.RNN classifying names, an nn.LSTM part-of-speech tagger
            "char_rnn_classification", "sequence_models_lstm"} <= names, f"programs found: {sorted(names)}"


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_prints_what_torch_prints(program):
    check_program(program)
