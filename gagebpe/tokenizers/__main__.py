"""``python -m gagebpe.tokenizers``: the tokenizers' command line.

Imports ``cli``.
"""
import sys

from .cli import main

sys.exit(main())
