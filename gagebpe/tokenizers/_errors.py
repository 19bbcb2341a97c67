"""What the tokenizers refuse, and how they say so.
"""


class TokenizerError(ValueError):
    """A tokenizer's file is malformed (a codes, rank, vocabulary or model
    file), or a tokenizer was asked for something it does not hold."""


class UnknownCharacterError(TokenizerError):
    """Text holds a character the tokenizer's vocabulary cannot represent
    (and no ``<unk>`` token or byte fallback was declared).  ``character``
    and ``position`` (its index in the text) say which."""

    def __init__(self, character: str, position: int) -> None:
        super().__init__(f"character {character!r} at position {position} is not in "
                         "the vocabulary (declare unk_token= or byte_fallback=True)")
        self.character = character
        self.position = position
