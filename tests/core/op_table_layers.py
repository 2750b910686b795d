"""Op-table rows for the layer ops (issue 11, nn point 4): conv2d, unfold/fold, pooling, pad, layer_norm,
batch_norm, embedding, dropout. op_table_nn.py adds them (and the misuses of op_table_layers_errors.py) to its
lists; format: see op_table.py."""
import numpy as np

from . import op_table_layers_ref as R
from .op_table_base import FLOAT, Arg, C, Case, I, Ix, N

CASES = []


def F(L):
    return L.nn.functional


def K(*values):
    """A constant float input that does not require grad (running statistics, fixed weights)."""
    return Arg(np.shape(values), "constant", FLOAT, values=values, const=True)


def _bn_train(x, w, b, momentum=0.1):
    """The output and the running statistics after one training step from (0, 1), as PyTorch's update is defined."""
    axes = (0,) + tuple(range(2, x.ndim))
    n = x.size // x.shape[1]
    xd = x.astype(np.float64)
    mean, var = xd.mean(axes), xd.var(axes) * n / (n - 1)
    return (R.batch_norm(x, None, None, w, b), (momentum * mean).astype(x.dtype),
            (1 - momentum + momentum * var).astype(x.dtype))


CASES += [
    # ---- conv2d: stride, padding (ints, pairs, "same", "valid"), dilation, groups, no bias, one image -------
    Case("conv2d", lambda L, x, w, b: F(L).conv2d(x, w, b), (N(2, 2, 4, 5), N(3, 2, 3, 3), N(3)), R.conv2d),
    Case("conv2d_no_bias", lambda L, x, w: F(L).conv2d(x, w), (N(1, 2, 5, 5), N(3, 2, 2, 2)), R.conv2d),
    Case("conv2d_stride_padding", lambda L, x, w, b: F(L).conv2d(x, w, b, stride=2, padding=1),
         (N(1, 1, 5, 5), N(2, 1, 3, 3), N(2)), lambda x, w, b: R.conv2d(x, w, b, 2, 1)),
    Case("conv2d_pairs", lambda L, x, w, b: F(L).conv2d(x, w, b, (1, 2), (2, 0), (2, 1)),
         (N(1, 2, 5, 6), N(2, 2, 3, 2), N(2)), lambda x, w, b: R.conv2d(x, w, b, (1, 2), (2, 0), (2, 1))),
    Case("conv2d_stride_leaves_edge", lambda L, x, w: F(L).conv2d(x, w, stride=3),
         (N(1, 1, 8, 8), N(2, 1, 3, 3)), lambda x, w: R.conv2d(x, w, None, 3)),
    Case("conv2d_dilation", lambda L, x, w, b: F(L).conv2d(x, w, b, padding=2, dilation=2),
         (N(1, 1, 5, 5), N(2, 1, 2, 3), N(2)), lambda x, w, b: R.conv2d(x, w, b, 1, 2, 2)),
    Case("conv2d_groups", lambda L, x, w, b: F(L).conv2d(x, w, b, groups=2),
         (N(1, 4, 3, 3), N(4, 2, 2, 2), N(4)), lambda x, w, b: R.conv2d(x, w, b, groups=2)),
    Case("conv2d_depthwise", lambda L, x, w: F(L).conv2d(x, w, padding=1, groups=3),
         (N(1, 3, 4, 4), N(3, 1, 3, 3)), lambda x, w: R.conv2d(x, w, None, 1, 1, groups=3)),
    Case("conv2d_unbatched", lambda L, x, w, b: F(L).conv2d(x, w, b, padding=1),
         (N(2, 3, 4), N(2, 2, 2, 2), N(2)), lambda x, w, b: R.conv2d(x, w, b, 1, 1)),
    Case("conv2d_same", lambda L, x, w, b: F(L).conv2d(x, w, b, padding="same"),
         (N(1, 1, 4, 5), N(2, 1, 3, 3), N(2)), lambda x, w, b: R.conv2d(x, w, b, 1, 1)),
    Case("conv2d_same_even_kernel", lambda L, x, w: F(L).conv2d(x, w, padding="same"),
         (N(1, 1, 4, 5), N(2, 1, 2, 4)),
         lambda x, w: R.conv2d(np.pad(x, ((0, 0), (0, 0), (0, 1), (0, 1))), w, None, 1, (0, 1))),
    Case("conv2d_valid", lambda L, x, w: F(L).conv2d(x, w, padding="valid"), (N(1, 1, 4, 4), N(1, 1, 2, 2)),
         R.conv2d),
    Case("conv2d_1x1", lambda L, x, w, b: F(L).conv2d(x, w, b), (N(2, 3, 3, 3), N(2, 3, 1, 1), N(2)), R.conv2d),
    Case("conv2d_empty_batch", lambda L, x, w, b: F(L).conv2d(x, w, b), (N(0, 2, 4, 4), N(3, 2, 3, 3), N(3)),
         R.conv2d, gradcheck=False),
    Case("conv2d_fixed_weight", lambda L, x, w: F(L).conv2d(x, w, stride=2),
         (N(1, 2, 5, 5), Arg((2, 2, 3, 3), const=True)), lambda x, w: R.conv2d(x, w, None, 2)),
    Case("conv2d_int", lambda L, x, w: F(L).conv2d(x, w), (I(1, 2, 4, 4), I(2, 2, 3, 3)), R.conv2d, grad=False),
    # ---- unfold (im2col) and fold (col2im): each the other's adjoint ----------------------------------
    Case("unfold", lambda L, x: F(L).unfold(x, 2), (N(2, 3, 4, 4),), lambda x: R.unfold(x, 2)),
    Case("unfold_params", lambda L, x: F(L).unfold(x, (2, 3), dilation=(1, 2), padding=1, stride=2),
         (N(1, 2, 5, 6),), lambda x: R.unfold(x, (2, 3), (1, 2), 1, 2)),
    Case("unfold_unbatched", lambda L, x: F(L).unfold(x, 3, padding=1), (N(2, 4, 4),),
         lambda x: R.unfold(x[None], 3, 1, 1)[0]),
    Case("fold", lambda L, c: F(L).fold(c, (4, 5), 2), (N(2, 12, 12),), lambda c: R.fold(c, (4, 5), 2)),
    Case("fold_params", lambda L, c: F(L).fold(c, (5, 5), 3, padding=1, stride=2), (N(1, 18, 9),),
         lambda c: R.fold(c, (5, 5), 3, 1, 1, 2)),
    Case("fold_unbatched", lambda L, c: F(L).fold(c, 3, 2), (N(8, 4),), lambda c: R.fold(c[None], 3, 2)[0]),
    # ---- max_pool2d --------------------------------------------------------------------------------------
    Case("max_pool2d", lambda L, x: F(L).max_pool2d(x, 2), (N(2, 3, 6, 6),), lambda x: R.max_pool2d(x, 2)[0]),
    Case("max_pool2d_stride_padding", lambda L, x: F(L).max_pool2d(x, 3, 2, 1), (N(1, 2, 7, 7),),
         lambda x: R.max_pool2d(x, 3, 2, 1)[0]),
    Case("max_pool2d_overlapping", lambda L, x: F(L).max_pool2d(x, 3, 1), (N(1, 1, 5, 5),),
         lambda x: R.max_pool2d(x, 3, 1)[0]),
    Case("max_pool2d_ceil_mode", lambda L, x: F(L).max_pool2d(x, 3, 2, ceil_mode=True), (N(1, 2, 8, 8),),
         lambda x: R.max_pool2d(x, 3, 2, ceil_mode=True)[0]),
    Case("max_pool2d_ceil_padding", lambda L, x: F(L).max_pool2d(x, 2, 2, 1, ceil_mode=True), (N(1, 1, 5, 6),),
         lambda x: R.max_pool2d(x, 2, 2, 1, ceil_mode=True)[0]),
    Case("max_pool2d_dilation", lambda L, x: F(L).max_pool2d(x, 2, 1, 1, dilation=2), (N(1, 2, 6, 6),),
         lambda x: R.max_pool2d(x, 2, 1, 1, 2)[0]),
    Case("max_pool2d_pairs", lambda L, x: F(L).max_pool2d(x, (2, 3), (1, 2), (1, 0)), (N(2, 1, 5, 7),),
         lambda x: R.max_pool2d(x, (2, 3), (1, 2), (1, 0))[0]),
    Case("max_pool2d_indices", lambda L, x: F(L).max_pool2d(x, 2, 1, return_indices=True), (N(1, 2, 4, 5),),
         lambda x: R.max_pool2d(x, 2, 1)),
    Case("max_pool2d_indices_padding", lambda L, x: F(L).max_pool2d(x, 3, 2, 1, return_indices=True),
         (N(1, 1, 6, 6),), lambda x: R.max_pool2d(x, 3, 2, 1)),
    Case("max_pool2d_unbatched", lambda L, x: F(L).max_pool2d(x, 2), (N(3, 4, 4),), lambda x: R.max_pool2d(x, 2)[0]),
    Case("max_pool2d_empty_batch", lambda L, x: F(L).max_pool2d(x, 2), (N(0, 2, 4, 4),),
         lambda x: R.max_pool2d(x, 2)[0], gradcheck=False),
    Case("max_pool2d_int", lambda L, x: F(L).max_pool2d(x, 2), (I(1, 2, 4, 4),),
         lambda x: R.max_pool2d(x.astype(float), 2)[0].astype(np.int64), grad=False),
    # ---- avg_pool2d: count_include_pad, ceil_mode, divisor_override ---------------------------------------
    Case("avg_pool2d", lambda L, x: F(L).avg_pool2d(x, 2), (N(2, 3, 6, 6),), lambda x: R.avg_pool2d(x, 2)),
    Case("avg_pool2d_stride_padding", lambda L, x: F(L).avg_pool2d(x, 3, 2, 1), (N(1, 2, 7, 7),),
         lambda x: R.avg_pool2d(x, 3, 2, 1)),
    Case("avg_pool2d_no_pad_count", lambda L, x: F(L).avg_pool2d(x, 3, 2, 1, count_include_pad=False),
         (N(1, 2, 6, 7),), lambda x: R.avg_pool2d(x, 3, 2, 1, count_include_pad=False)),
    Case("avg_pool2d_ceil_mode", lambda L, x: F(L).avg_pool2d(x, 3, 2, 1, ceil_mode=True), (N(1, 1, 6, 6),),
         lambda x: R.avg_pool2d(x, 3, 2, 1, ceil_mode=True)),
    Case("avg_pool2d_ceil_no_pad_count", lambda L, x: F(L).avg_pool2d(x, 2, 2, 1, True, False), (N(1, 1, 5, 6),),
         lambda x: R.avg_pool2d(x, 2, 2, 1, True, False)),
    Case("avg_pool2d_divisor_override", lambda L, x: F(L).avg_pool2d(x, 2, 1, divisor_override=3),
         (N(1, 2, 4, 4),), lambda x: R.avg_pool2d(x, 2, 1, divisor_override=3)),
    Case("avg_pool2d_pairs", lambda L, x: F(L).avg_pool2d(x, (3, 2), (2, 1), (1, 0)), (N(2, 1, 6, 5),),
         lambda x: R.avg_pool2d(x, (3, 2), (2, 1), (1, 0))),
    Case("avg_pool2d_unbatched", lambda L, x: F(L).avg_pool2d(x, 2), (N(2, 4, 6),), lambda x: R.avg_pool2d(x, 2)),
    Case("avg_pool2d_empty_batch", lambda L, x: F(L).avg_pool2d(x, 2), (N(0, 2, 4, 4),), lambda x: R.avg_pool2d(x, 2),
         gradcheck=False),
    Case("avg_pool2d_int", lambda L, x: F(L).avg_pool2d(x, 2, 1, 1), (I(1, 1, 4, 4),),
         lambda x: R.avg_pool2d(x.astype(float), 2, 1, 1).astype(np.int64), grad=False),
    # ---- adaptive_avg_pool2d: uneven windows, None, output 1 (a mean), larger than the input ---------------
    Case("adaptive_avg_pool2d", lambda L, x: F(L).adaptive_avg_pool2d(x, 3), (N(2, 3, 7, 7),),
         lambda x: R.adaptive_avg_pool2d(x, 3)),
    Case("adaptive_avg_pool2d_pair_none", lambda L, x: F(L).adaptive_avg_pool2d(x, (2, None)), (N(1, 2, 5, 4),),
         lambda x: R.adaptive_avg_pool2d(x, (2, 4))),
    Case("adaptive_avg_pool2d_1", lambda L, x: F(L).adaptive_avg_pool2d(x, 1), (N(2, 3, 4, 5),),
         lambda x: x.mean(axis=(-1, -2), keepdims=True)),
    Case("adaptive_avg_pool2d_upsample", lambda L, x: F(L).adaptive_avg_pool2d(x, (5, 4)), (N(1, 1, 3, 2),),
         lambda x: R.adaptive_avg_pool2d(x, (5, 4))),
    Case("adaptive_avg_pool2d_unbatched", lambda L, x: F(L).adaptive_avg_pool2d(x, (2, 3)), (N(2, 5, 7),),
         lambda x: R.adaptive_avg_pool2d(x, (2, 3))),
    # ---- pad: constant (with cropping), reflect, replicate --------------------------------------------------
    Case("pad_constant", lambda L, x: F(L).pad(x, (1, 2)), (N(2, 3),), lambda x: R.pad(x, (1, 2))),
    Case("pad_constant_value_2d", lambda L, x: F(L).pad(x, (1, 0, 2, 1), value=1.5), (N(2, 3, 4),),
         lambda x: R.pad(x, (1, 0, 2, 1), value=1.5)),
    Case("pad_constant_crop", lambda L, x: F(L).pad(x, (-1, 2, 1, -2)), (N(2, 4, 5),),
         lambda x: R.pad(x, (-1, 2, 1, -2))),
    Case("pad_constant_3_dims", lambda L, x: F(L).pad(x, (1, 1, 0, 1, 2, 0)), (N(2, 2, 2),),
         lambda x: R.pad(x, (1, 1, 0, 1, 2, 0))),
    Case("pad_constant_int", lambda L, x: F(L).pad(x, (1, 1), value=2.5), (I(2, 2),),
         lambda x: R.pad(x, (1, 1), value=2), grad=False),
    Case("pad_reflect_1d", lambda L, x: F(L).pad(x, (2, 3), mode="reflect"), (N(2, 2, 5),),
         lambda x: R.pad(x, (2, 3), "reflect")),
    Case("pad_reflect_2d", lambda L, x: F(L).pad(x, (1, 2, 2, 1), mode="reflect"), (N(1, 2, 4, 4),),
         lambda x: R.pad(x, (1, 2, 2, 1), "reflect")),
    Case("pad_reflect_2d_unbatched", lambda L, x: F(L).pad(x, (1, 1, 1, 1), mode="reflect"), (N(2, 3, 3),),
         lambda x: R.pad(x, (1, 1, 1, 1), "reflect")),
    Case("pad_reflect_3d", lambda L, x: F(L).pad(x, (1, 0, 0, 1, 1, 1), mode="reflect"), (N(1, 1, 3, 3, 3),),
         lambda x: R.pad(x, (1, 0, 0, 1, 1, 1), "reflect")),
    Case("pad_replicate_1d", lambda L, x: F(L).pad(x, (3, 1), mode="replicate"), (N(3, 2),),
         lambda x: R.pad(x, (3, 1), "replicate")),
    Case("pad_replicate_2d", lambda L, x: F(L).pad(x, (2, 0, 1, 3), mode="replicate"), (N(1, 2, 3, 3),),
         lambda x: R.pad(x, (2, 0, 1, 3), "replicate")),
    Case("pad_replicate_3d", lambda L, x: F(L).pad(x, (1, 1, 1, 0, 0, 2), mode="replicate"), (N(2, 2, 2, 2),),
         lambda x: R.pad(x, (1, 1, 1, 0, 0, 2), "replicate")),
    Case("pad_reflect_empty_batch", lambda L, x: F(L).pad(x, (1, 1), mode="reflect"), (N(0, 2, 3),),
         lambda x: R.pad(x, (1, 1), "reflect"), gradcheck=False),
    # ---- layer_norm ----------------------------------------------------------------------------------------
    Case("layer_norm", lambda L, x: F(L).layer_norm(x, (5,)), (N(3, 5),), lambda x: R.layer_norm(x, (5,))),
    Case("layer_norm_affine_2_dims", lambda L, x, w, b: F(L).layer_norm(x, (3, 4), w, b),
         (N(2, 3, 4), N(3, 4), N(3, 4)), lambda x, w, b: R.layer_norm(x, (3, 4), w, b)),
    Case("layer_norm_weight_only_eps", lambda L, x, w: F(L).layer_norm(x, [4], w, eps=0.1), (N(2, 2, 4), N(4)),
         lambda x, w: R.layer_norm(x, (4,), w, eps=0.1)),
    Case("layer_norm_bias_only", lambda L, x, b: F(L).layer_norm(x, (6,), None, b), (N(6), N(6)),
         lambda x, b: R.layer_norm(x, (6,), None, b)),
    # ---- batch_norm: training (with and without running statistics), eval ---------------------------------
    Case("batch_norm_train", lambda L, x, w, b: F(L).batch_norm(x, None, None, w, b, training=True),
         (N(4, 3), N(3), N(3)), lambda x, w, b: R.batch_norm(x, None, None, w, b)),
    Case("batch_norm_train_3d", lambda L, x: F(L).batch_norm(x, None, None, training=True, eps=1e-3),
         (N(3, 2, 4),), lambda x: R.batch_norm(x, eps=1e-3)),
    Case("batch_norm_train_4d", lambda L, x, w, b: F(L).batch_norm(x, None, None, w, b, True),
         (N(2, 3, 3, 2), N(3), N(3)), lambda x, w, b: R.batch_norm(x, None, None, w, b)),
    Case("batch_norm_running_update", lambda L, x, w, b: _with_running(L, x, w, b),
         (N(5, 3, 2), N(3), N(3)), lambda x, w, b: _bn_train(x, w, b)),
    Case("batch_norm_eval", lambda L, x, m, v, w, b: F(L).batch_norm(x, m, v, w, b),
         (N(4, 3), K(0.5, -1.0, 0.0), K(1.5, 0.5, 2.0), N(3), N(3)), R.batch_norm),
    Case("batch_norm_eval_4d_no_affine", lambda L, x, m, v: F(L).batch_norm(x, m, v, eps=0.01),
         (N(2, 2, 3, 3), K(0.1, 0.2), K(0.9, 1.1)), lambda x, m, v: R.batch_norm(x, m, v, eps=0.01)),
    # ---- embedding: padding_idx, scale_grad_by_freq, max_norm, 0-d and int32 indices -----------------------
    Case("embedding", lambda L, w, i: F(L).embedding(i, w), (N(10, 3), Ix(2, 4, high=10)), lambda w, i: w[i]),
    # padding_idx and scale_grad_by_freq change the gradient on purpose (it is no longer the derivative that
    # finite differences see), so these rows skip gradcheck; parity checks their gradients against torch's
    Case("embedding_padding_idx", lambda L, w, i: F(L).embedding(i, w, padding_idx=2),
         (N(5, 2), C([[2, 0, 2], [1, 2, 4]], "int64")), lambda w, i: w[i], gradcheck=False),
    Case("embedding_negative_padding_idx", lambda L, w, i: F(L).embedding(i, w, padding_idx=-1),
         (N(4, 3), C([3, 1, 3, 0], "int64")), lambda w, i: w[i], gradcheck=False),
    Case("embedding_scale_grad_by_freq", lambda L, w, i: F(L).embedding(i, w, scale_grad_by_freq=True),
         (N(4, 2), C([1, 1, 3, 1, 0], "int64")), lambda w, i: w[i], gradcheck=False),
    Case("embedding_0d_int32", lambda L, w, i: F(L).embedding(i, w), (N(3, 4), C(2, "int32")), lambda w, i: w[i]),
    Case("embedding_max_norm", lambda L, w, i: F(L).embedding(i, w * 1, max_norm=1.0), (N(4, 3), C([0, 2], "int64")),
         lambda w, i: w[i] / np.maximum(1, np.linalg.norm(w[i], axis=1, keepdims=True) + 1e-7), gradcheck=False),
    # ---- dropout: the cases without randomness (the random masks are in tests/nn/test_layers.py) ----------
    Case("dropout_eval", lambda L, x: F(L).dropout(x, 0.5, training=False), (N(3, 4),), lambda x: x),
    Case("dropout_p0", lambda L, x: F(L).dropout(x * 2, 0.0), (N(3),), lambda x: x * 2),
    Case("dropout_p1", lambda L, x: F(L).dropout(x, 1.0), (N(2, 3),), lambda x: x * 0),
    Case("dropout_p1_inplace", lambda L, x: F(L).dropout(x * 1, 1.0, inplace=True), (N(4),), lambda x: x * 0),
]


def _with_running(L, x, w, b):
    mean, var = L.zeros(3, dtype=x.dtype), L.ones(3, dtype=x.dtype)
    return F(L).batch_norm(x, mean, var, w, b, training=True), mean, var

