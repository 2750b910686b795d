"""Misuse rows for the ops of op_table_layers_sampling.py (and pdist, cdist): each must raise, or warn, what PyTorch
does, word for word."""
import re


def F(L):
    return L.nn.functional


def _x(L, *shape, dtype=None):
    return L.ones(*shape, dtype=dtype)


def _r(L, *shape):
    L.manual_seed(0)
    return L.randn(*shape)


def _set_sorted(fn):
    """fn, whose ValueError prints a Python set (PyTorch's valid padding modes), as its type and message with the
    set's members sorted: the set's order comes from the hash seed and the .pyc that built it, and differs
    between torch and minigrad. What does not raise returns what it made, which differs from torch's words."""
    def run(L):
        try:
            return fn(L)
        except ValueError as error:
            head, members, tail = re.match(r"(.*?\{)(.*?)(\}.*)", str(error), re.S).groups()
            return "ValueError: " + head + ", ".join(sorted(members.split(", "))) + tail
    return run


ERRORS = [
    # ---- conv1d and Conv1d -------------------------------------------------------------------------------------
    ("conv1d_1d_input", lambda L: F(L).conv1d(_x(L, 7), _x(L, 2, 1, 3))),
    ("conv1d_4d_input", lambda L: F(L).conv1d(_x(L, 1, 1, 7, 7), _x(L, 2, 1, 3))),
    ("conv1d_4d_weight", lambda L: F(L).conv1d(_x(L, 1, 1, 7), _x(L, 2, 1, 3, 3))),
    ("conv1d_2d_weight", lambda L: F(L).conv1d(_x(L, 1, 1, 7), _x(L, 2, 1))),
    ("conv1d_stride_pair", lambda L: F(L).conv1d(_x(L, 1, 1, 7), _x(L, 2, 1, 3), stride=(1, 2))),
    ("conv1d_padding_pair", lambda L: F(L).conv1d(_x(L, 1, 1, 7), _x(L, 2, 1, 3), padding=[1, 1])),
    ("conv1d_channels", lambda L: F(L).conv1d(_x(L, 1, 3, 30), _x(L, 2, 1, 4))),
    ("conv1d_kernel_too_big", lambda L: F(L).conv1d(_x(L, 1, 1, 3), _x(L, 2, 1, 4))),
    ("conv1d_groups_divisible", lambda L: F(L).conv1d(_x(L, 1, 4, 8), _x(L, 3, 2, 3), groups=2)),
    ("conv1d_same_strided", lambda L: F(L).conv1d(_x(L, 1, 1, 7), _x(L, 2, 1, 4), padding="same", stride=2)),
    ("conv1d_padding_string", lambda L: F(L).conv1d(_x(L, 1, 1, 7), _x(L, 2, 1, 4), padding="full")),
    ("conv1d_weight_double_batch", lambda L: F(L).conv1d(_x(L, 2, 1, 30), _x(L, 2, 1, 4, dtype=L.float64))),
    ("conv1d_weight_double", lambda L: F(L).conv1d(_x(L, 1, 1, 30), _x(L, 2, 1, 4, dtype=L.float64))),
    ("conv1d_weight_double_groups", lambda L: F(L).conv1d(_x(L, 1, 2, 30), _x(L, 2, 1, 4, dtype=L.float64),
                                                          groups=2)),
    ("conv1d_bias_double", lambda L: F(L).conv1d(_x(L, 1, 1, 9), _x(L, 2, 1, 4), _x(L, 2, dtype=L.float64))),
    ("conv1d_negative_padding", lambda L: F(L).conv1d(_x(L, 1, 1, 9), _x(L, 2, 1, 4), padding=-1)),
    ("conv1d_module_groups", lambda L: L.nn.Conv1d(2, 4, 3, groups=3)),
    ("conv1d_module_out_groups", lambda L: L.nn.Conv1d(2, 3, 3, groups=2)),
    ("conv1d_module_padding_mode", _set_sorted(lambda L: L.nn.Conv1d(2, 4, 3, padding_mode="zero"))),
    ("conv1d_module_same_strided", lambda L: L.nn.Conv1d(2, 4, 3, padding="same", stride=2)),
    ("conv1d_module_padding_string", _set_sorted(lambda L: L.nn.Conv1d(2, 4, 3, padding="full"))),
    ("conv1d_module_wrong_channels", lambda L: L.nn.Conv1d(2, 4, 3)(_x(L, 1, 3, 5))),
    ("conv1d_module_reflect_too_much", lambda L: L.nn.Conv1d(1, 1, 3, padding=4, padding_mode="reflect")(
        _x(L, 1, 1, 3))),
    # ---- group_norm and GroupNorm ----------------------------------------------------------------------------
    ("group_norm_1d_input", lambda L: F(L).group_norm(_x(L, 3), 1)),
    ("group_norm_channels_divisible", lambda L: F(L).group_norm(_x(L, 2, 3, 4), 2)),
    ("group_norm_too_many_groups", lambda L: F(L).group_norm(_x(L, 2, 4, 4), 8)),
    ("group_norm_zero_groups", lambda L: F(L).group_norm(_x(L, 2, 3, 4), 0)),
    ("group_norm_negative_groups", lambda L: F(L).group_norm(_r(L, 2, 4, 3), -2)),
    ("group_norm_one_value_per_group", lambda L: F(L).group_norm(_r(L, 1, 3, 1), 3)),
    ("group_norm_one_value_per_group_2d", lambda L: F(L).group_norm(_r(L, 1, 3), 3)),
    ("group_norm_weight_size", lambda L: F(L).group_norm(_x(L, 2, 4, 4), 2, _x(L, 3))),
    ("group_norm_weight_2d", lambda L: F(L).group_norm(_x(L, 2, 4, 4), 2, _x(L, 2, 2))),
    ("group_norm_bias_size", lambda L: F(L).group_norm(_x(L, 2, 4, 4), 2, _x(L, 4), _x(L, 2, 2))),
    ("group_norm_bias_size_no_weight", lambda L: F(L).group_norm(_x(L, 2, 4, 4), 2, None, _x(L, 3))),
    ("group_norm_long", lambda L: F(L).group_norm(_x(L, 2, 4, 4, dtype=L.int64), 2)),
    ("group_norm_long_mixed", lambda L: F(L).group_norm(_x(L, 2, 4, 4, dtype=L.int64), 2, _x(L, 4))),
    ("group_norm_mixed_double_weight", lambda L: F(L).group_norm(_x(L, 2, 4, 4), 2, _x(L, 4, dtype=L.float64))),
    ("group_norm_mixed_double_input", lambda L: F(L).group_norm(_x(L, 2, 4, 4, dtype=L.float64), 2, _x(L, 4))),
    ("group_norm_module_divisible", lambda L: L.nn.GroupNorm(2, 3)),
    ("group_norm_module_zero_groups", lambda L: L.nn.GroupNorm(0, 3)),
    # ---- instance_norm and InstanceNorm1d / 2d / 3d ---------------------------------------------------------------
    ("instance_norm_2d_input", lambda L: F(L).instance_norm(_r(L, 3, 4))),
    ("instance_norm_one_position", lambda L: F(L).instance_norm(_r(L, 3, 4, 1))),
    ("instance_norm_1d_input", lambda L: F(L).instance_norm(_r(L, 5))),
    ("instance_norm_1d_input_eval", lambda L: F(L).instance_norm(_r(L, 5), L.zeros(4), L.ones(4),
                                                                 use_input_stats=False)),
    ("instance_norm_eval_without_stats", lambda L: F(L).instance_norm(_r(L, 3, 4, 5), use_input_stats=False)),
    ("instance_norm_weight_size", lambda L: F(L).instance_norm(_r(L, 3, 4, 5), weight=L.ones(3))),
    ("instance_norm_running_size", lambda L: F(L).instance_norm(_r(L, 3, 4, 5), L.zeros(3), L.ones(3))),
    ("instance_norm_running_mean_only", lambda L: F(L).instance_norm(_r(L, 3, 4, 5), L.zeros(4))),
    ("instance_norm_running_var_only", lambda L: F(L).instance_norm(_r(L, 3, 4, 5), None, L.ones(4))),
    ("instance_norm_long", lambda L: F(L).instance_norm(_x(L, 3, 4, 5, dtype=L.int64))),
    ("instance_norm_mixed_double_weight", lambda L: F(L).instance_norm(_r(L, 3, 4, 5),
                                                                       weight=L.ones(4, dtype=L.float64))),
    ("batch_norm_running_mean_only", lambda L: F(L).batch_norm(_r(L, 3, 4), L.zeros(4), None, training=True)),
    ("instance_norm1d_module_dims", lambda L: L.nn.InstanceNorm1d(4)(_r(L, 4))),
    ("instance_norm2d_module_dims", lambda L: L.nn.InstanceNorm2d(4)(_r(L, 2, 4, 5, 5, 5))),
    ("instance_norm3d_module_dims", lambda L: L.nn.InstanceNorm3d(4)(_r(L, 2, 4, 5))),
    ("instance_norm1d_module_affine_features", lambda L: L.nn.InstanceNorm1d(3, affine=True)(_r(L, 2, 4, 5))),
    ("instance_norm1d_module_features_warns", lambda L: L.nn.InstanceNorm1d(3)(_r(L, 2, 4, 5))),
    ("instance_norm1d_module_unbatched_features_warns", lambda L: L.nn.InstanceNorm1d(3)(_r(L, 2, 4))),
    ("instance_norm2d_module_unbatched_warns", lambda L: L.nn.InstanceNorm2d(4)(_r(L, 2, 4, 5))),
    # ---- interpolate: PyTorch's Python checks, then ATen's ------------------------------------------------------
    ("interpolate_no_size", lambda L: F(L).interpolate(_x(L, 2, 3, 4, 5))),
    ("interpolate_size_and_scale", lambda L: F(L).interpolate(_x(L, 2, 3, 4, 5), size=3, scale_factor=2)),
    ("interpolate_size_length", lambda L: F(L).interpolate(_x(L, 2, 3, 4, 5), size=(3,))),
    ("interpolate_size_float", lambda L: F(L).interpolate(_x(L, 2, 3, 4, 5), size=(3, 4.0))),
    ("interpolate_scale_length", lambda L: F(L).interpolate(_x(L, 2, 3, 4, 5), scale_factor=(2, 3, 4))),
    ("interpolate_recompute_with_size", lambda L: F(L).interpolate(_x(L, 2, 3, 4), size=3,
                                                                   recompute_scale_factor=True)),
    ("interpolate_align_corners_nearest", lambda L: F(L).interpolate(_x(L, 2, 3, 4), size=3, align_corners=False)),
    ("interpolate_align_corners_area", lambda L: F(L).interpolate(_x(L, 2, 3, 4, 4), size=3, mode="area",
                                                                  align_corners=True)),
    ("interpolate_antialias_linear", lambda L: F(L).interpolate(_x(L, 2, 3, 4), size=3, mode="linear",
                                                                antialias=True)),
    ("interpolate_bilinear_3d", lambda L: F(L).interpolate(_x(L, 2, 3, 4), size=3, mode="bilinear")),
    ("interpolate_linear_4d", lambda L: F(L).interpolate(_x(L, 2, 3, 4, 4), size=3, mode="linear")),
    ("interpolate_trilinear_4d", lambda L: F(L).interpolate(_x(L, 2, 3, 4, 4), size=3, mode="trilinear")),
    ("interpolate_bicubic_3d", lambda L: F(L).interpolate(_x(L, 2, 3, 4), size=3, mode="bicubic")),
    ("interpolate_2d_input", lambda L: F(L).interpolate(_x(L, 3, 4), size=3)),
    ("interpolate_unknown_mode", lambda L: F(L).interpolate(_x(L, 2, 3, 4, 4), size=3, mode="cubic")),
    ("interpolate_lanczos_align_corners", lambda L: F(L).interpolate(_x(L, 1, 1, 4, 4), size=3, mode="lanczos",
                                                                     align_corners=True)),
    ("interpolate_lanczos_no_antialias", lambda L: F(L).interpolate(_x(L, 1, 1, 4, 4), size=3, mode="lanczos")),
    ("interpolate_size_0_1d", lambda L: F(L).interpolate(_x(L, 2, 3, 5), size=0)),
    ("interpolate_size_0_2d", lambda L: F(L).interpolate(_x(L, 2, 3, 4, 5), size=(0, 2), mode="bilinear")),
    ("interpolate_size_0_3d", lambda L: F(L).interpolate(_x(L, 1, 2, 3, 4, 5), size=(2, 0, 2))),
    ("interpolate_size_negative", lambda L: F(L).interpolate(_x(L, 2, 3, 4, 5), size=-1)),
    ("interpolate_scale_too_small", lambda L: F(L).interpolate(_x(L, 2, 3, 4, 5), scale_factor=0.1)),
    ("interpolate_scale_negative", lambda L: F(L).interpolate(_x(L, 2, 3, 4, 5), scale_factor=-2)),
    ("interpolate_scale_nan", lambda L: F(L).interpolate(_x(L, 1, 1, 2), scale_factor=float("nan"))),
    ("interpolate_scale_huge", lambda L: F(L).interpolate(_x(L, 1, 1, 2), scale_factor=1e20)),
    ("interpolate_empty_spatial", lambda L: F(L).interpolate(_x(L, 2, 3, 0, 4), size=3)),
    ("interpolate_empty_channels", lambda L: F(L).interpolate(_x(L, 2, 0, 2, 4), size=3)),
    ("interpolate_empty_channels_1d", lambda L: F(L).interpolate(_x(L, 2, 0, 4), size=3, mode="linear")),
    ("interpolate_long_nearest_1d", lambda L: F(L).interpolate(_x(L, 1, 1, 3, dtype=L.int64), size=5)),
    ("interpolate_long_nearest_2d", lambda L: F(L).interpolate(_x(L, 1, 1, 3, 3, dtype=L.int64), size=5)),
    ("interpolate_int_nearest_exact_3d", lambda L: F(L).interpolate(_x(L, 1, 1, 2, 2, 2, dtype=L.int32), size=3,
                                                                    mode="nearest-exact")),
    ("interpolate_bool_nearest_2d", lambda L: F(L).interpolate(_x(L, 1, 1, 3, 3, dtype=L.bool), size=5)),
    ("interpolate_long_linear", lambda L: F(L).interpolate(_x(L, 1, 1, 3, dtype=L.int64), size=5, mode="linear")),
    ("interpolate_long_bilinear", lambda L: F(L).interpolate(_x(L, 1, 1, 3, 3, dtype=L.int64), size=5,
                                                             mode="bilinear")),
    ("interpolate_long_bicubic", lambda L: F(L).interpolate(_x(L, 1, 1, 3, 3, dtype=L.int64), size=5,
                                                            mode="bicubic")),
    ("interpolate_uint8_linear", lambda L: F(L).interpolate(_x(L, 1, 1, 3, dtype=L.uint8), size=5, mode="linear")),
    ("interpolate_uint8_nearest", lambda L: F(L).interpolate(L.arange(6, dtype=L.uint8).view(1, 1, 2, 3), size=4)),
    ("interpolate_long_area", lambda L: F(L).interpolate(_x(L, 1, 1, 3, 3, dtype=L.int64), size=2, mode="area")),
    ("upsample_warns", lambda L: F(L).upsample(_r(L, 1, 1, 2, 2), size=3)),
    ("upsample_nearest_warns", lambda L: F(L).upsample_nearest(_r(L, 1, 1, 2, 2), scale_factor=2)),
    ("upsample_bilinear_warns", lambda L: F(L).upsample_bilinear(_r(L, 1, 1, 2, 2), size=3)),
    ("upsample_module_no_size", lambda L: L.nn.Upsample()(_x(L, 1, 1, 2, 2))),
    ("upsample_module_scale_list", lambda L: L.nn.Upsample(scale_factor=[2, 3])),
    # ---- pdist and cdist -------------------------------------------------------------------------------------
    ("pdist_1d", lambda L: L.pdist(_x(L, 3))),
    ("pdist_3d", lambda L: F(L).pdist(_x(L, 2, 3, 4))),
    ("pdist_long", lambda L: L.pdist(_x(L, 3, 2, dtype=L.int64))),
    ("pdist_negative_p", lambda L: L.pdist(_x(L, 3, 2), -1)),
    ("cdist_1d_x1", lambda L: L.cdist(_x(L, 3), _x(L, 2, 3))),
    ("cdist_1d_x2", lambda L: L.cdist(_x(L, 2, 3), _x(L, 3))),
    ("cdist_columns", lambda L: L.cdist(_x(L, 2, 3), _x(L, 2, 4))),
    ("cdist_long_x1", lambda L: L.cdist(_x(L, 2, 3, dtype=L.int64), _x(L, 2, 3))),
    ("cdist_long_x2", lambda L: L.cdist(_x(L, 2, 3), _x(L, 2, 3, dtype=L.int64))),
    ("cdist_mixed_dtypes", lambda L: L.cdist(_x(L, 2, 3), _x(L, 2, 3, dtype=L.float64))),
    ("cdist_negative_p", lambda L: L.cdist(_x(L, 2, 3), _x(L, 2, 3), -1)),
    ("cdist_compute_mode", lambda L: L.cdist(_x(L, 2, 3), _x(L, 2, 3), compute_mode="foo")),
    ("cdist_batch_mismatch", lambda L: L.cdist(_x(L, 2, 2, 3), _x(L, 3, 4, 3))),
]
