#!/usr/bin/env python3
"""png_colours.py PNG COLOUR... - how many pixels of a screenshot are each colour.

Prints "nonwhite N" (pixels that are not near white) and "#rrggbb N" for
each colour given (pixels within a small distance of it, for anti-aliased
lines). Reads 8-bit RGB and RGBA PNGs, as headless Chromium writes them,
with the standard library only.
"""
import struct
import sys
import zlib


def png_rows(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("%s: not a PNG" % path)
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6) or body[12] != 0:
                raise SystemExit("%s: not 8-bit RGB(A), non-interlaced" % path)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, prev, out = zlib.decompress(idat), width * bpp, None, []
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        prev = prev or bytearray(stride)
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return out


def main():
    rows = png_rows(sys.argv[1])
    want = [(c, tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))) for c in sys.argv[2:]]
    counts = {c: 0 for c, _ in want}
    nonwhite = 0
    for row in rows:
        for px in row:
            if min(px) < 235:
                nonwhite += 1
            for c, rgb in want:
                if sum((p - q) ** 2 for p, q in zip(px, rgb)) <= 30 ** 2:
                    counts[c] += 1
    print("pixels", sum(len(r) for r in rows))
    print("nonwhite", nonwhite)
    for c, _ in want:
        print(c, counts[c])


main()
