"""What the book's widgets must show in the browser, chapter by chapter (read by test_jupyterlab.py).

Taken from the chapters' own printed outputs. When a chapter's example changes, update its entry here; a
chapter without an entry still gets the checks that hold for any graph or module tree.
"""

# What each step of a chapter's first BackwardStepper shows: the node, and the gradient(s) it received
# (grad_output, as the panel prints them); then the leaves' .grad after Run to end. Chapters not listed get
# the checks that hold for any graph (the numbering, the highlighted node is the panel's node, a grad_output
# is shown, the leaves' .grad at the end).
ACC = "torch::autograd::AccumulateGrad"
STEPPER_EXPECTED = {
    "04_function_apply": {
        "steps": [("SumBackward0", ["[0] 1."]),
                  ("CustomReLUFunctionBackward", ["[0] [1., 1., 1., 1.]"]),
                  (ACC, ["[0] [0., 1., 0., 1.]"])],
        "leaves": ["x.grad = [0., 1., 0., 1.]"]},
    "05_backward_and_grad_output": {
        "steps": [("LinalgVectorNormBackward0", ["[0] [1., 10.]"]),
                  ("MulBackward0", ["[0] [[0.3333, 0.6667, 0.6667], [6., 0., 8.]]"]),
                  (ACC, ["[0] [[0.6667, 1.3333, 1.3333], [12., 0., 16.]]"])],
        "leaves": ["x.grad = [[0.6667, 1.3333, 1.3333], [12., 0., 16.]]"]},
    "07_setup_context": {
        "steps": [("SumBackward0", ["[0] 1."]),
                  ("LinearFunctionBackward", ["[0] a tensor of shape (2, 4)"]),
                  (ACC, ["[0] a tensor of shape (4, 3)"]),
                  (ACC, ["[0] [2., 2., 2., 2.]"])],
        "leaves": ["w.grad = a tensor of shape (4, 3)", "b.grad = [2., 2., 2., 2.]"]},
    "08_non_tensor_arguments": {
        "steps": [("SumBackward0", ["[0] 1."]),
                  ("MulConstantBackward", ["[0] [1., 1., 1., 1., 1.]"]),
                  (ACC, ["[0] [3., 3., 3., 3., 3.]"])],
        "leaves": ["x.grad = [3., 3., 3., 3., 3.]"]},
    "09_outputs_and_in_place": {       # the second output was not used: its grad_output is None
        "steps": [("SumBackward0", ["[0] 1."]),
                  ("TwoOutputsBackward", ["[0] [1., 1.]", "[1] None"]),
                  (ACC, ["[0] [2., 2.]"])],
        "leaves": ["x.grad = [2., 2.]"]},
    "14_capstone": {
        "steps": [("SumBackward0", ["[0] 1."]),
                  ("MulBackward0", ["[0] [1., 1., 1., 1.]"]),
                  ("ELUBackward", ["[0] [1., 2., 3., 4.]"]),
                  (ACC, ["[0] [0.1353, 1.2131, 3., 4.]"])],
        "leaves": ["x.grad = [0.1353, 1.2131, 3., 4.]"]},
}
# The order in which a chapter's first ModuleApplyView visits the modules: children first, the root last.
MODULE_EXPECTED = {
    "02_module_apply": ["enc.0", "enc.1", "enc", "head", "(root)"],
}
