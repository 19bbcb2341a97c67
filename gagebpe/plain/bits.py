"""Bits written and read most significant first, in plain Python: the bit
streams of the LZ coding (docs/FORMAT.md, section 4.11).
"""
PADDING = 16  # zero bytes after a stream, so that a window can always be loaded
MASK64 = (1 << 64) - 1


class BitWriter:
    """Appends values MSB first; ``finish`` pads the last byte with zeros."""

    def __init__(self):
        self.out = bytearray()
        self.acc = 0
        self.nbits = 0

    def put(self, value, width):
        acc = (self.acc << width) | value
        nbits = self.nbits + width
        if nbits >= 32:
            whole = nbits >> 3
            nbits &= 7
            self.out += (acc >> nbits).to_bytes(whole, "big")
            acc &= (1 << nbits) - 1
        self.acc, self.nbits = acc, nbits

    def finish(self):
        nbits = self.nbits
        tail = self.acc << ((-nbits) % 8)
        self.out += tail.to_bytes((nbits + 7) // 8, "big")
        self.acc = self.nbits = 0
        return bytes(self.out)


class BitReader:
    """Reads the bits of ``data[start:]`` MSB first; past its end, zeros.
    ``pos`` is the bit position, ``end`` the stream's length in bits."""

    def __init__(self, data, start=0):
        self.padded = bytes(data[start:]) + bytes(PADDING)
        self.end = 8 * (len(data) - start)
        self.pos = 0

    def window(self):
        """The 57 or more bits from ``pos`` on, at the top of a 64-bit int."""
        pos = self.pos
        return (int.from_bytes(self.padded[pos >> 3:(pos >> 3) + 8], "big") << (pos & 7)) & MASK64

    def peek(self, n):
        return self.window() >> (64 - n) if n else 0

    def skip(self, n):
        self.pos += n

    def read(self, n):
        value = self.peek(n)
        self.pos += n
        return value

    def overrun(self):
        return self.pos > self.end
