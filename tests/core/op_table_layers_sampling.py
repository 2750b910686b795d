"""Op-table rows for the layer ops of issue 26: conv1d (and Conv1d's padding modes), group_norm, instance_norm (and
their layers), interpolate in every mode (and Upsample). Format: see op_table.py; numpy references in
op_table_layers_sampling_ref.py, misuses (pdist's and cdist's too) in op_table_layers_sampling_errors.py.

pdist and cdist are not rows: torch differentiates neither their gradients (the coverage test of test_ops.py takes
third derivatives of every row) nor, in forward mode, themselves (test_forward_ad_ops.py takes the tangents of every
row); tests/nn/test_nn_parity_distance_matrix.py checks them."""
from . import op_table_layers_sampling_ref as R
from .op_table_base import FLOAT, Arg, Case, I, N
from .op_table_layers_sampling_errors import ERRORS  # noqa: F401 - op_table.py reads both lists from here

CASES = []


def F(L):
    return L.nn.functional


def K(*values):
    """A constant float input that does not require grad (running statistics)."""
    return Arg((len(values),), "constant", FLOAT, values=values, const=True)


CASES += [
    # ---- conv1d: stride, padding (ints, 1-tuples, "same", "valid"), dilation, groups, no bias, one sequence -------
    Case("conv1d", lambda L, x, w, b: F(L).conv1d(x, w, b), (N(2, 3, 6), N(4, 3, 3), N(4)), R.conv1d),
    Case("conv1d_no_bias", lambda L, x, w: F(L).conv1d(x, w), (N(1, 2, 5), N(3, 2, 2)), R.conv1d),
    Case("conv1d_stride_padding_dilation_groups", lambda L, x, w, b: F(L).conv1d(x, w, b, 2, 2, 2, 2),
         (N(2, 4, 9), N(6, 2, 3), N(6)), lambda x, w, b: R.conv1d(x, w, b, 2, 2, 2, 2)),
    Case("conv1d_tuples", lambda L, x, w: F(L).conv1d(x, w, stride=(2,), padding=(1,), dilation=[1]),
         (N(1, 2, 7), N(3, 2, 3)), lambda x, w: R.conv1d(x, w, None, 2, 1)),
    Case("conv1d_depthwise", lambda L, x, w: F(L).conv1d(x, w, padding=1, groups=3), (N(2, 3, 5), N(3, 1, 3)),
         lambda x, w: R.conv1d(x, w, None, 1, 1, groups=3)),
    Case("conv1d_same", lambda L, x, w, b: F(L).conv1d(x, w, b, padding="same", dilation=2),
         (N(1, 2, 6), N(3, 2, 3), N(3)), lambda x, w, b: R.conv1d(x, w, b, 1, 2, 2)),
    Case("conv1d_same_even_kernel", lambda L, x, w: F(L).conv1d(x, w, padding="same"), (N(1, 1, 5), N(2, 1, 4)),
         lambda x, w: R.conv1d(R.R.pad(x, (0, 1)), w, None, 1, 1)),
    Case("conv1d_valid", lambda L, x, w: F(L).conv1d(x, w, padding="valid"), (N(2, 2, 5), N(1, 2, 3)), R.conv1d),
    Case("conv1d_unbatched", lambda L, x, w, b: F(L).conv1d(x, w, b, padding=1), (N(2, 5), N(3, 2, 3), N(3)),
         lambda x, w, b: R.conv1d(x, w, b, 1, 1)),
    Case("conv1d_empty_batch", lambda L, x, w: F(L).conv1d(x, w), (N(0, 2, 5), N(3, 2, 3)), R.conv1d,
         gradcheck=False),
    Case("conv1d_int", lambda L, x, w: F(L).conv1d(x, w), (I(1, 2, 5), I(2, 2, 3)), R.conv1d, grad=False),
    Case("conv1d_module_reflect", lambda L, x, w, b: _conv1d_layer(L, "reflect")._conv_forward(x, w, b),
         (N(2, 2, 5), N(3, 2, 3), N(3)), lambda x, w, b: R.conv1d(x, w, b, 1, 2, mode="reflect")),
    Case("conv1d_module_replicate", lambda L, x, w, b: _conv1d_layer(L, "replicate")._conv_forward(x, w, b),
         (N(1, 2, 4), N(3, 2, 3), N(3)), lambda x, w, b: R.conv1d(x, w, b, 1, 2, mode="replicate")),
    # ---- group_norm and GroupNorm ------------------------------------------------------------------------
    Case("group_norm", lambda L, x, w, b: F(L).group_norm(x, 2, w, b), (N(2, 4, 3), N(4), N(4)),
         lambda x, w, b: R.group_norm(x, 2, w, b)),
    Case("group_norm_4d_eps", lambda L, x: F(L).group_norm(x, 3, eps=0.1), (N(2, 6, 2, 2),),
         lambda x: R.group_norm(x, 3, eps=0.1)),
    Case("group_norm_2d_weight_only", lambda L, x, w: F(L).group_norm(x, 2, w), (N(3, 4), N(4)),
         lambda x, w: R.group_norm(x, 2, w)),
    Case("group_norm_one_channel_per_group", lambda L, x: F(L).group_norm(x, 3), (N(2, 3, 5),),
         lambda x: R.group_norm(x, 3)),
    Case("group_norm_transposed_input", lambda L, x: F(L).group_norm(x.transpose(1, 2), 2), (N(2, 3, 4),),
         lambda x: R.group_norm(x.transpose(0, 2, 1), 2)),
    Case("group_norm_module", lambda L, x: L.nn.GroupNorm(2, 4, affine=False)(x), (N(2, 4, 3),),
         lambda x: R.group_norm(x, 2)),
    # ---- instance_norm and InstanceNorm1d / 2d -----------------------------------------------------------------
    Case("instance_norm", lambda L, x, w, b: F(L).instance_norm(x, weight=w, bias=b), (N(2, 3, 5), N(3), N(3)),
         lambda x, w, b: R.instance_norm(x, w, b)),
    Case("instance_norm_4d_eps", lambda L, x: F(L).instance_norm(x, eps=0.01), (N(2, 2, 3, 3),),
         lambda x: R.instance_norm(x, eps=0.01)),
    Case("instance_norm_running_update", lambda L, x: _with_running(L, x), (N(3, 2, 4),),
         lambda x: R.instance_norm_running(x, 0.2)),
    Case("instance_norm_eval", lambda L, x, m, v, w: F(L).instance_norm(x, m, v, w, use_input_stats=False),
         (N(2, 3, 4), K(0.5, -1.0, 0.0), K(1.5, 0.5, 2.0), N(3)), lambda x, m, v, w: R.instance_norm(x, w, None,
                                                                                                    mean=m, var=v)),
    Case("instance_norm1d_module", lambda L, x: L.nn.InstanceNorm1d(3)(x), (N(2, 3, 5),), R.instance_norm),
    Case("instance_norm2d_module_unbatched", lambda L, x: L.nn.InstanceNorm2d(2)(x), (N(2, 3, 3),),
         lambda x: R.instance_norm(x[None])[0]),
]


def _conv1d_layer(L, mode):
    """A Conv1d with this padding mode, whose forward runs on the row's own weight and bias."""
    return L.nn.Conv1d(2, 3, 3, padding=2, padding_mode=mode)


def _with_running(L, x):
    mean, var = L.zeros(2, dtype=x.dtype), L.ones(2, dtype=x.dtype)
    return F(L).instance_norm(x, mean, var, momentum=0.2), mean, var


def _resize(size, mode, align_corners=False, scales=None):
    """The numpy reference of a row that resamples its one input."""
    return lambda x: R.interpolate(x, size, mode, align_corners, scales)


CASES += [
    # ---- interpolate: nearest and nearest-exact (1, 2, 3 spatial dims; size or scale factor) ----------------
    Case("interpolate_nearest_1d_double", lambda L, x: F(L).interpolate(x, scale_factor=2), (N(2, 3, 4),),
         _resize((8,), "nearest")),
    Case("interpolate_nearest_1d_size", lambda L, x: F(L).interpolate(x, size=7), (N(2, 3, 5),),
         _resize((7,), "nearest")),
    Case("interpolate_nearest_1d_down", lambda L, x: F(L).interpolate(x, scale_factor=0.6), (N(1, 2, 6),),
         _resize((3,), "nearest", scales=[0.6])),
    Case("interpolate_nearest_2d_scales", lambda L, x: F(L).interpolate(x, scale_factor=(1.5, 2.5)), (N(1, 2, 3, 4),),
         _resize((4, 10), "nearest", scales=[1.5, 2.5])),
    Case("interpolate_nearest_2d_size", lambda L, x: F(L).interpolate(x, size=(5, 3)), (N(2, 1, 3, 4),),
         _resize((5, 3), "nearest")),
    Case("interpolate_nearest_3d", lambda L, x: F(L).interpolate(x, scale_factor=2), (N(1, 1, 2, 2, 3),),
         _resize((4, 4, 6), "nearest")),
    Case("interpolate_nearest_exact_1d", lambda L, x: F(L).interpolate(x, size=7, mode="nearest-exact"),
         (N(1, 2, 5),), _resize((7,), "nearest-exact")),
    Case("interpolate_nearest_exact_2d", lambda L, x: F(L).interpolate(x, scale_factor=1.7, mode="nearest-exact"),
         (N(1, 2, 3, 4),), _resize((5, 6), "nearest-exact", scales=[1.7, 1.7])),
    Case("interpolate_nearest_exact_3d", lambda L, x: F(L).interpolate(x, size=(3, 2, 5), mode="nearest-exact"),
         (N(1, 1, 2, 3, 3),), _resize((3, 2, 5), "nearest-exact")),
    Case("interpolate_nearest_int_size_tensor", lambda L, x: F(L).interpolate(x, size=(L.tensor(3), 5)),
         (N(1, 1, 2, 3),), _resize((3, 5), "nearest")),
    # ---- linear, bilinear, trilinear: align_corners both ways, upsampling and downsampling -------------------
    Case("interpolate_linear", lambda L, x: F(L).interpolate(x, size=8, mode="linear"), (N(2, 2, 5),),
         _resize((8,), "linear")),
    Case("interpolate_linear_align_corners", lambda L, x: F(L).interpolate(x, scale_factor=2.5, mode="linear",
                                                                          align_corners=True),
         (N(1, 2, 4),), _resize((10,), "linear", True)),
    Case("interpolate_linear_scale", lambda L, x: F(L).interpolate(x, scale_factor=2.5, mode="linear"),
         (N(1, 2, 4),), _resize((10,), "linear", scales=[2.5])),
    Case("interpolate_linear_recompute", lambda L, x: F(L).interpolate(x, scale_factor=1.7, mode="linear",
                                                                      recompute_scale_factor=True),
         (N(1, 1, 5),), _resize((8,), "linear")),
    Case("interpolate_linear_same_size", lambda L, x: F(L).interpolate(x, size=4, mode="linear"), (N(1, 2, 4),),
         lambda x: x),
    Case("interpolate_bilinear", lambda L, x: F(L).interpolate(x, size=(5, 7), mode="bilinear"), (N(1, 2, 3, 4),),
         _resize((5, 7), "linear")),
    Case("interpolate_bilinear_align_corners", lambda L, x: F(L).interpolate(x, scale_factor=2, mode="bilinear",
                                                                            align_corners=True),
         (N(2, 1, 3, 3),), _resize((6, 6), "linear", True)),
    Case("interpolate_bilinear_down", lambda L, x: F(L).interpolate(x, size=(2, 3), mode="bilinear"),
         (N(1, 2, 5, 7),), _resize((2, 3), "linear")),
    Case("interpolate_bilinear_one_row", lambda L, x: F(L).interpolate(x, size=(1, 5), mode="bilinear",
                                                                      align_corners=True),
         (N(1, 1, 3, 3),), _resize((1, 5), "linear", True)),
    Case("interpolate_trilinear", lambda L, x: F(L).interpolate(x, scale_factor=2, mode="trilinear"),
         (N(1, 1, 2, 2, 3),), _resize((4, 4, 6), "linear", scales=[2, 2, 2])),
    Case("interpolate_trilinear_align_corners", lambda L, x: F(L).interpolate(x, size=(3, 3, 4), mode="trilinear",
                                                                             align_corners=True),
         (N(1, 2, 2, 2, 2),), _resize((3, 3, 4), "linear", True)),
    # ---- bicubic -------------------------------------------------------------------------------------------
    Case("interpolate_bicubic", lambda L, x: F(L).interpolate(x, scale_factor=2, mode="bicubic"), (N(1, 2, 3, 4),),
         _resize((6, 8), "cubic", scales=[2, 2])),
    Case("interpolate_bicubic_align_corners", lambda L, x: F(L).interpolate(x, size=(5, 6), mode="bicubic",
                                                                           align_corners=True),
         (N(1, 1, 3, 4),), _resize((5, 6), "cubic", True)),
    Case("interpolate_bicubic_down", lambda L, x: F(L).interpolate(x, size=(3, 2), mode="bicubic"), (N(2, 1, 5, 4),),
         _resize((3, 2), "cubic")),
    # ---- area (adaptive average pooling), Upsample and its fixed forms ---------------------------------------
    Case("interpolate_area", lambda L, x: F(L).interpolate(x, size=(2, 3), mode="area"), (N(1, 2, 5, 7),),
         lambda x: R.R.adaptive_avg_pool2d(x, (2, 3))),
    Case("interpolate_area_1d", lambda L, x: F(L).interpolate(x, scale_factor=0.5, mode="area"), (N(2, 2, 6),),
         lambda x: R.R.adaptive_avg_pool2d(x[:, :, None], (1, 3))[:, :, 0]),
    Case("upsample_module", lambda L, x: L.nn.Upsample(scale_factor=2, mode="bilinear")(x), (N(1, 2, 3, 3),),
         _resize((6, 6), "linear", scales=[2, 2])),
    Case("upsampling_bilinear2d_module", lambda L, x: L.nn.UpsamplingBilinear2d(size=(4, 5))(x), (N(1, 1, 2, 3),),
         _resize((4, 5), "linear", True)),
    Case("upsampling_nearest2d_module", lambda L, x: L.nn.UpsamplingNearest2d(scale_factor=3)(x), (N(1, 1, 2, 2),),
         _resize((6, 6), "nearest", scales=[3, 3])),
]
