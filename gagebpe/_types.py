"""The types the public API's annotations share."""
import os
from collections.abc import Iterable, Set as AbstractSet
from typing import Literal, TextIO, Union

# What the API takes as bytes: anything with the buffer protocol, as
# ``lzma`` takes; these three are the ones the annotations name.
BytesLike = Union[bytes, bytearray, memoryview]
# A file's name, as ``open`` takes it.
PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
# A path a tokenizer's file is read from or written to.
StrPath = Union[str, "os.PathLike[str]"]
# Special tokens allowed or disallowed in a text: a set of them, or "all".
Specials = Union[AbstractSet[str], Literal["all"]]
# What a tokenizer trains on: a str, a text file, or an iterable of either.
TrainingText = Union[str, TextIO, Iterable[Union[str, TextIO]]]
