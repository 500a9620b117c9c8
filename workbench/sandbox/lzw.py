"""The ``compress`` content coding (Unix ``compress``/``.Z``, LZW), which HTTP still lists.

No well-kept Python package decodes it, so here are a decoder (for request bodies the sandbox
receives) and an encoder (for tests and clients). Format notes: codes are written LSB-first,
9 bits up to ``maxbits``; each change of code width (and each CLEAR) skips to the end of the
current group of ``width`` bytes, as the original ``compress`` does. Checked against
``gzip -d``, which reads the same format.
"""

from __future__ import annotations

MAGIC = b"\x1f\x9d"
BLOCK_MODE = 0x80
CLEAR = 256


class LZWError(ValueError):
    """The body is not valid ``compress`` data."""


def _pad(pos: int, seg: int, width: int) -> int:
    group = width * 8
    return seg + -(-(pos - seg) // group) * group


def decompress(data: bytes) -> bytes:
    """Decode ``compress`` (``.Z``) data."""
    if len(data) < 3 or data[:2] != MAGIC:
        raise LZWError("not `compress` data (missing the 1f 9d header)")
    flags = data[2]
    if flags & 0x60:
        raise LZWError("unknown `compress` flags")
    maxbits = flags & 0x1F
    if not 9 <= maxbits <= 16:
        raise LZWError(f"`compress` data uses {maxbits}-bit codes; 9 to 16 are valid")
    maxbits = max(maxbits, 10)  # as in gzip: 9 does not really mean 9
    block = bool(flags & BLOCK_MODE)
    total = len(data) * 8
    pos = seg = 24
    width, mask = 9, 0x1FF

    def read() -> int:
        nonlocal pos
        i = pos >> 3
        code = (int.from_bytes(data[i:i + 3], "little") >> (pos & 7)) & mask
        pos += width
        return code

    if pos + width > total:
        return b""
    prefix: list[int] = [0] * (1 << maxbits)
    suffix = bytearray(range(256)) + bytearray((1 << maxbits) - 256)
    prev = read()
    if prev > 255:
        raise LZWError("`compress` data starts with an invalid code")
    final = prev
    out = bytearray([prev])
    end = 256 if block else 255
    while True:
        if end >= mask and width < maxbits:
            pos = seg = _pad(pos, seg, width)
            width += 1
            mask = (mask << 1) | 1
        if pos + width > total:
            break
        code = read()
        if code == CLEAR and block:
            pos = seg = _pad(pos, seg, width)
            width, mask, end = 9, 0x1FF, 255
            continue
        temp = code
        stack = bytearray()
        if code > end:
            if code != end + 1 or prev > end:
                raise LZWError("invalid code in `compress` data (corrupted body?)")
            stack.append(final)
            code = prev
        while code >= 256:
            stack.append(suffix[code])
            code = prefix[code]
        stack.append(code)
        final = code
        if end < mask:
            end += 1
            prefix[end] = prev
            suffix[end] = final
        prev = temp
        stack.reverse()
        out += stack
    return bytes(out)


def compress(data: bytes, maxbits: int = 16) -> bytes:
    """Encode ``data`` as ``compress`` (block mode, no CLEAR codes)."""
    if not 9 <= maxbits <= 16:
        raise ValueError("maxbits must be between 9 and 16")
    header = MAGIC + bytes([BLOCK_MODE | maxbits])
    if not data:
        return header
    out = bytearray()
    acc = accbits = bitpos = seg = 0
    width, maxcode = 9, 0x1FF
    maxmax = 1 << maxbits
    free = 257
    table: dict[tuple[int, int], int] = {}

    def put(code: int, nbits: int) -> None:
        nonlocal acc, accbits, bitpos
        acc |= code << accbits
        accbits += nbits
        bitpos += nbits
        while accbits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            accbits -= 8

    def output(code: int) -> None:
        nonlocal seg, width, maxcode
        put(code, width)
        if free > maxcode:
            put(0, _pad(bitpos, seg, width) - bitpos)
            seg = bitpos
            width += 1
            maxcode = maxmax if width == maxbits else (1 << width) - 1

    ent = data[0]
    for c in data[1:]:
        nxt = table.get((ent, c))
        if nxt is not None:
            ent = nxt
            continue
        output(ent)
        if free < maxmax:
            table[(ent, c)] = free
            free += 1
        ent = c
    output(ent)
    if accbits:
        out.append(acc & 0xFF)
    return header + bytes(out)
