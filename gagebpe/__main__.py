"""``python -m gagebpe``: the command line (``gagebpe.cli``).

Imports ``cli``.
"""
import sys

from .cli import console

sys.exit(console())
