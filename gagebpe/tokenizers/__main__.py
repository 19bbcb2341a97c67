"""``python -m gagebpe.tokenizers``: the tokenizers' command line.
"""
import sys

from .cli import main

sys.exit(main())
