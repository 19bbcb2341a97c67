"""The checks of the public API's arguments that compressing and
decompressing share: thread counts, output limits and format names.
"""
import os

FORMATS = ("gbpe", "gage1994")


def check_threads(threads):
    if not isinstance(threads, int) or threads < 0:
        raise ValueError("threads must be a non-negative integer")
    return threads or os.cpu_count() or 1


def check_limit(limit):
    """A total output limit as a number (None: no limit)."""
    if limit is None:
        return float("inf")
    if not isinstance(limit, int) or limit < 0:
        raise ValueError("a limit must be a non-negative integer or None")
    return limit


def check_format(format):
    if format not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}, not {format!r}")
    return format
