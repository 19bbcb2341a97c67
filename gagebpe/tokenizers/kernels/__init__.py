"""The tokenizers' Numba kernels: pre-tokenization (``pretokenize``),
distinct pieces (``distinct``) and merge training (``word_merges``,
``word_text``, ``byte_vocab``).  Rank-ordered encoding, which
dictionaries share, is ``gagebpe.kernels.rank_merge``.  Internal."""
