"""``python -m gagebpe``: the command line (``gagebpe.cli``)."""
import sys

from .cli import main

sys.exit(main())
