"""Byte-level tokenizers' files: tiktoken's rank files, GPT-2's
``encoder.json`` and ``vocab.bpe``, Hugging Face's ``tokenizer.json``, and
gagebpe's own.

- tiktoken: a line per token, ``base64(bytes) rank``; no pattern, no
  special tokens (they are given when loading).
- GPT-2 ("data gym"): tokens spelled in a printable alphabet, one
  character per byte: the 188 bytes whose character is printable (but
  not the space) stand for themselves, the other 68, in byte order, for
  U+0100 onwards.  The 256 single bytes rank first in that alphabet's
  order; each ``vocab.bpe`` line (after its ``#version`` line) is a merge,
  the next rank; ``encoder.json`` maps tokens to ids, which must be the
  ranks, plus the special tokens.
- Hugging Face: a BPE model whose vocabulary and merges are spelled in
  the same alphabet, a ByteLevel pre-tokenizer (the GPT-2 pattern) or a
  Split on the pattern followed by ByteLevel, and added special tokens.
- gagebpe: JSON with the tokens (base64) in rank order, the merges that
  made them, the pattern and the special tokens.
"""
import base64
import json

from ._errors import TokenizerError

FORMAT = "gagebpe-bytebpe"


def printable_alphabet():
    """byte -> the character GPT-2's files spell it with."""
    own = [b for b in range(256) if chr(b).isprintable() and chr(b) != " "]
    spelled = {b: chr(b) for b in own}
    for k, b in enumerate(b for b in range(256) if b not in spelled):
        spelled[b] = chr(256 + k)
    return spelled


def _spell(token, spelled):
    return "".join(spelled[b] for b in token)


def _unspell(text, unspelled, where):
    try:
        return bytes(unspelled[c] for c in text)
    except KeyError as e:
        raise TokenizerError(f"{where}: {text!r} has a character outside GPT-2's byte "
                             f"alphabet ({e})") from None


def _read_text(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except UnicodeDecodeError as e:
        raise TokenizerError(f"{path}: not UTF-8 text ({e})") from None


def _read_json(path):
    try:
        return json.loads(_read_text(path))
    except ValueError as e:
        raise TokenizerError(f"{path}: not JSON ({e})") from None


def _in_rank_order(ranks, where):
    """The tokens of ``{bytes: rank}``, ranks 0..n-1 each once."""
    tokens = [None] * len(ranks)
    for token, rank in ranks.items():
        if not isinstance(rank, int) or not 0 <= rank < len(tokens) or tokens[rank] is not None:
            raise TokenizerError(f"{where}: ranks must be 0..{len(tokens) - 1}, each once "
                                 f"(rank {rank!r})")
        tokens[rank] = token
    return tokens


# -- tiktoken --------------------------------------------------------------------------

def read_tiktoken(path):
    """The tokens of a tiktoken rank file, in rank order."""
    ranks = {}
    for number, line in enumerate(_read_text(path).splitlines(), 1):
        if not line:
            continue
        try:
            token, rank = line.split()
            ranks[base64.b64decode(token, validate=True)] = int(rank)
        except ValueError:
            raise TokenizerError(f"{path}, line {number}: {line[:60]!r} is not "
                                 "'base64 rank'") from None
    return _in_rank_order(ranks, path)


def format_tiktoken(tokens):
    return "".join(f"{base64.b64encode(t).decode()} {r}\n" for r, t in enumerate(tokens))


# -- GPT-2 -------------------------------------------------------------------------------

def read_gpt2(encoder_json, vocab_bpe):
    """``(tokens, special_tokens)`` of GPT-2's two files."""
    spelled = printable_alphabet()
    unspelled = {c: b for b, c in spelled.items()}
    tokens = [bytes([b]) for b in spelled]  # the single bytes, in the alphabet's order
    lines = _read_text(vocab_bpe).split("\n")
    if not lines[0].startswith("#version"):
        raise TokenizerError(f"{vocab_bpe}: does not start with a #version line")
    for number, line in enumerate(lines[1:], 2):
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2:
            raise TokenizerError(f"{vocab_bpe}, line {number}: {line!r} is not a merge")
        tokens.append(_unspell(parts[0], unspelled, vocab_bpe)
                      + _unspell(parts[1], unspelled, vocab_bpe))
    encoder = _read_json(encoder_json)
    ranks = {t: r for r, t in enumerate(tokens)}
    special = {}
    for text, i in encoder.items():
        token = bytes(unspelled[c] for c in text) if all(c in unspelled for c in text) else None
        if token in ranks and ranks[token] == i:
            continue
        if i < len(tokens) and tokens[i] != token:
            raise TokenizerError(f"{encoder_json}: {text!r} has id {i}, but the merges "
                                 f"give rank {i} to {tokens[i]!r}")
        special[text] = i
    if len(encoder) - len(special) != len(tokens):
        raise TokenizerError(f"{encoder_json} and {vocab_bpe} disagree on the tokens")
    return tokens, special


# -- Hugging Face ------------------------------------------------------------------------

def read_hf(path):
    """``(tokens, merges, pattern, special_tokens)`` of a ``tokenizer.json``
    with a byte-level BPE model (ids taken as ranks)."""
    doc = _read_json(path)
    model = doc.get("model") or {}
    if model.get("type") != "BPE":
        raise TokenizerError(f"{path}: not a BPE model")
    unspelled = {c: b for b, c in printable_alphabet().items()}
    vocab = model.get("vocab") or {}
    special = {t["content"]: t["id"] for t in doc.get("added_tokens") or []}
    ranks = {_unspell(text, unspelled, path): i for text, i in vocab.items()
             if text not in special}
    tokens = _in_rank_order(ranks, path)
    ids = {t: r for r, t in enumerate(tokens)}
    merges = []
    for merge in model.get("merges") or []:
        left, right = merge.split(" ") if isinstance(merge, str) else merge
        a, b = _unspell(left, unspelled, path), _unspell(right, unspelled, path)
        merges.append((ids[a], ids[b]))
    return tokens, merges, _hf_pattern(doc.get("pre_tokenizer"), path), special


def _hf_pattern(pre, path):
    """The pattern of a ByteLevel pre-tokenizer, or of a Split before one."""
    from . import _patterns
    steps = pre.get("pretokenizers", []) if pre and pre.get("type") == "Sequence" else [pre]
    pattern = None
    for step in steps:
        if not step:
            continue
        if step.get("type") == "Split":
            pattern = step.get("pattern", {}).get("Regex") or step.get("pattern", {}).get("String")
        elif step.get("type") == "ByteLevel":
            if step.get("add_prefix_space"):
                raise TokenizerError(f"{path}: ByteLevel with add_prefix_space is not supported")
            if step.get("use_regex", True):
                pattern = _patterns.GPT2
        else:
            raise TokenizerError(f"{path}: pre-tokenizer {step.get('type')!r} is not supported")
    return pattern


def format_hf(tokens, merges, pattern, special_tokens):
    """The ``tokenizer.json`` of a byte-level BPE: ``ignore_merges`` makes a
    chunk that is a token that token, as tiktoken has it."""
    from . import _patterns
    spelled = printable_alphabet()
    if pattern == _patterns.GPT2:
        pre = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
               "use_regex": True}
    else:
        steps = [] if pattern is None else [
            {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated",
             "invert": False}]
        pre = {"type": "Sequence", "pretokenizers": steps + [
            {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
             "use_regex": False}]}
    doc = {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": i, "content": t, "single_word": False, "lstrip": False,
                          "rstrip": False, "normalized": False, "special": True}
                         for t, i in sorted(special_tokens.items(), key=lambda x: x[1])],
        "normalizer": None, "pre_tokenizer": pre, "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
                    "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": None,
                  "continuing_subword_prefix": None, "end_of_word_suffix": None,
                  "fuse_unk": False, "byte_fallback": False, "ignore_merges": True,
                  "vocab": {_spell(t, spelled): r for r, t in enumerate(tokens)},
                  "merges": [[_spell(tokens[a], spelled), _spell(tokens[b], spelled)]
                             for a, b in merges]},
    }
    return json.dumps(doc, ensure_ascii=False, indent=1)


# -- gagebpe ------------------------------------------------------------------------------

def format_own(tokens, merges, pattern, special_tokens):
    return json.dumps({"format": FORMAT, "pattern": pattern, "special_tokens": special_tokens,
                       "tokens": [base64.b64encode(t).decode() for t in tokens],
                       "merges": [list(m) for m in merges]}, indent=0)


def read_own(path):
    """``(tokens, merges, pattern, special_tokens)`` of gagebpe's file."""
    doc = _read_json(path)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise TokenizerError(f"{path}: not a gagebpe ByteBPE file")
    try:
        tokens = [base64.b64decode(t, validate=True) for t in doc["tokens"]]
        merges = [(int(a), int(b)) for a, b in doc["merges"]]
        return tokens, merges, doc["pattern"], dict(doc["special_tokens"])
    except (KeyError, TypeError, ValueError) as e:
        raise TokenizerError(f"{path}: malformed ByteBPE file ({e})") from None
