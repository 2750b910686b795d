"""Which frames are minigrad's own. PyTorch's ops are C++, so its warnings and tracebacks name the user's line;
minigrad's ops are Python, and these helpers skip its frames to name the same line."""
import os
import sys

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep     # the minigrad/ folder


def stacklevel_outside():
    """The `stacklevel` that makes a warning raised by the caller name the first line outside minigrad."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


def called_from_user(depth=2):
    """Did user code call the function that calls this one (`depth` frames up), rather than minigrad itself?"""
    return not sys._getframe(depth).f_code.co_filename.startswith(PACKAGE)
