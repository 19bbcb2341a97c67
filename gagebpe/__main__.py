"""``python -m gagebpe``: the command line (``gagebpe.cli``).
"""
import sys

from .cli import console

sys.exit(console())
