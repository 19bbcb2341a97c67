"""The release this is, in one place (``pyproject.toml`` reads it)."""
__version__ = "0.45.0"
