"""How gagebpe chooses what to write (docs/DESIGN.md): the levels, the
block policy, the small-input policy, and the writers (``compress``,
``Compressor``).  Internal: the public API is the top-level ``gagebpe``
package."""
