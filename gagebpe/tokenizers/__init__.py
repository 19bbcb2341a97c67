"""BPE tokenizers on gagebpe's kernels: the merge table as a vocabulary.

    from gagebpe.tokenizers import WordBPE
    bpe = WordBPE.train(text, 10_000)            # Sennrich et al.'s word-level BPE
    bpe.encode("lowering")                       # ['low', 'er', 'i', 'n', 'g', '</w>']
    bpe.save_codes("codes.bpe")                  # subword-nmt's codes file
    bpe.apply("a line of text\\n")               # subword-nmt's apply-bpe output

The command line ``python -m gagebpe.tokenizers`` (or ``gagebpe-tokenizers``)
is a drop-in for ``subword-nmt learn-bpe`` and ``apply-bpe``.

Training on a corpus spread over many files or machines: ``count`` each
part where it lies, ``merge_counts`` in order, ``train_counts`` once.
"""
from ._errors import TokenizerError, UnknownCharacterError
from ._byte import ByteBPE, DisallowedSpecialError
from ._counts import merge_counts
from ._word import WordBPE

__all__ = ["WordBPE", "ByteBPE", "TokenizerError", "UnknownCharacterError",
           "DisallowedSpecialError", "merge_counts"]
