"""The tokenizers' Numba kernels: pre-tokenization (``pretokenize``),
distinct pieces (``distinct``), merge training (``word_merges``,
``word_text``, ``byte_vocab``) and rank-ordered encoding
(``rank_merge``).  Internal."""
