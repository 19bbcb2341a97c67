"""A grammar coding's payload decoded by its number, in a kernel: what
FILTERED, FOLDED and REPEATS do with the payload they wrap."""
from ..._jit import njit
from . import context as _context, packed as _packed, problems as _problems
from . import sorted_rules as _sorted
from .registry import CONTEXT, CONTEXT_LONG, PACKED, SORTED, SORTED_LONG


@njit(cache=True, nogil=True)
def decode_block(payload, size, out, coding, wrapper):
    """A block of the grammar ``coding`` into ``out`` (``size`` bytes), as
    its module's ``decode_block``; the INNER problem of ``wrapper`` if
    ``coding`` is not a grammar coding."""
    if coding == PACKED:
        return _packed.decode_block(payload, size, out, coding)
    if coding == SORTED or coding == SORTED_LONG:
        return _sorted.decode_block(payload, size, out, coding)
    if coding == CONTEXT or coding == CONTEXT_LONG:
        return _context.decode_block(payload, size, out, coding)
    return _problems.at(wrapper, _problems.INNER, coding)
