"""The Numba kernels: pure functions over NumPy arrays, with no knowledge
of the container -- the BPE grammar engine (``pairs``, ``re_pair``,
``grammar``, ``cutoff``, ``long_rules``), expansion (``expand``), LZ and
long repeats (``lz``, ``repeats``), the entropy coders (``huffman``,
``coded_sequence``, ``sorted_table``, ``bits``, ``mixing``), the filters
and case folding (``filters``, ``case``), the block check (``xxh64``),
and Gage's 1994 coder (``gage1994``).  The tokenizers share ``pair_hash``.
Internal."""
