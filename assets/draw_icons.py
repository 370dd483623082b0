"""Draws the project's icons as PNG files, with the standard library only (zlib, struct):
the server's icon (assets/icon.png, 512x512, for the Claude Desktop bundle; assets/icon-64.png for
`initialize` and `server/discover`) and one 32x32 glyph per toolset (assets/toolsets/<toolset>.png,
carried by each tool of that toolset). Shapes are drawn with 4x4 supersampling.

Usage: python3 assets/draw_icons.py   (rewrites the files beside it; the output is deterministic)
"""

import math
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
SS = 4  # samples per pixel side


def png(path, w, h, rgba):
    """Writes 8-bit RGBA rows as a PNG (filter 0 per row, zlib level 9)."""
    raw = bytearray()
    for y in range(h):
        raw.append(0)
        raw += rgba[y * w * 4:(y + 1) * w * 4]

    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    data = b"\x89PNG\r\n\x1a\n"
    data += chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(bytes(raw), 9))
    data += chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(data)


def rounded_rect(x0, y0, x1, y1, r):
    def inside(x, y):
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return False
        cx = min(max(x, x0 + r), x1 - r)
        cy = min(max(y, y0 + r), y1 - r)
        return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
    return inside


def circle(cx, cy, r):
    return lambda x, y: (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def ellipse_top(cx, cy, rx, ry):
    """The upper half of an ellipse (a person's shoulders)."""
    return lambda x, y: y <= cy and ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1


def polygon(points):
    def inside(x, y):
        n, hit = len(points), False
        for i in range(n):
            (ax, ay), (bx, by) = points[i], points[(i + 1) % n]
            if (ay > y) != (by > y) and x < (bx - ax) * (y - ay) / (by - ay) + ax:
                hit = not hit
        return hit
    return inside


def rect(x0, y0, x1, y1):
    return lambda x, y: x0 <= x <= x1 and y0 <= y <= y1


def render(size, layers):
    """layers: [(shape in unit coordinates 0..1, (r, g, b), cut)]; a cut layer clears what is under it."""
    out = bytearray(size * size * 4)
    for py in range(size):
        for px in range(size):
            acc = [0.0, 0.0, 0.0, 0.0]
            for sy in range(SS):
                for sx in range(SS):
                    x = (px + (sx + 0.5) / SS) / size
                    y = (py + (sy + 0.5) / SS) / size
                    color = None
                    for shape, rgb, cut in layers:
                        if shape(x, y):
                            color = None if cut else rgb
                    if color:
                        acc[0] += color[0]
                        acc[1] += color[1]
                        acc[2] += color[2]
                        acc[3] += 1
            n = acc[3]
            i = (py * size + px) * 4
            if n:
                out[i:i + 4] = bytes([round(acc[0] / n), round(acc[1] / n), round(acc[2] / n),
                                      round(255 * n / (SS * SS))])
    return out


NAVY = (28, 58, 112)
WHITE = (255, 255, 255)
BLUE = (52, 110, 196)


def server_icon(size):
    bubble = rounded_rect(0.2, 0.24, 0.8, 0.66, 0.1)
    tail = polygon([(0.3, 0.6), (0.3, 0.8), (0.46, 0.64)])
    dots = [circle(0.36 + 0.14 * i, 0.45, 0.045) for i in range(3)]
    layers = [(rounded_rect(0.0, 0.0, 1.0, 1.0, 0.2), NAVY, False),
              (bubble, WHITE, False), (tail, WHITE, False)]
    layers += [(d, NAVY, False) for d in dots]
    return render(size, layers)


def glyph(name):
    c = BLUE
    if name == "people":
        shapes = [circle(0.5, 0.33, 0.17), ellipse_top(0.5, 0.9, 0.34, 0.36)]
    elif name == "teams":
        shapes = [circle(0.32, 0.36, 0.13), ellipse_top(0.32, 0.88, 0.24, 0.3),
                  circle(0.68, 0.36, 0.13), ellipse_top(0.68, 0.88, 0.24, 0.3)]
    elif name == "channels":
        shapes = [polygon([(0.36, 0.1), (0.46, 0.1), (0.36, 0.9), (0.26, 0.9)]),
                  polygon([(0.64, 0.1), (0.74, 0.1), (0.64, 0.9), (0.54, 0.9)]),
                  rect(0.14, 0.3, 0.88, 0.4), rect(0.12, 0.6, 0.86, 0.7)]
    elif name == "posts":
        shapes = [rounded_rect(0.08, 0.14, 0.92, 0.7, 0.14),
                  polygon([(0.22, 0.64), (0.22, 0.92), (0.46, 0.68)])]
    elif name == "files":
        shapes = [polygon([(0.2, 0.06), (0.6, 0.06), (0.82, 0.28), (0.82, 0.94), (0.2, 0.94)])]
        layers = [(s, c, False) for s in shapes]
        layers += [(polygon([(0.6, 0.06), (0.6, 0.28), (0.82, 0.28)]), None, True),
                   (rect(0.32, 0.48, 0.7, 0.54), None, True), (rect(0.32, 0.66, 0.7, 0.72), None, True)]
        return render(32, layers)
    elif name == "writes":
        a = math.radians(45)
        ux, uy, vx, vy = math.cos(a), -math.sin(a), math.sin(a), math.cos(a)

        def at(s, t):  # along the pencil s, across it t, from its tip at (0.14, 0.86)
            return (0.14 + s * ux + t * vx, 0.86 + s * uy + t * vy)
        shapes = [polygon([at(0.0, 0.0), at(0.2, -0.1), at(0.2, 0.1)]),
                  polygon([at(0.24, -0.1), at(0.86, -0.1), at(0.86, 0.1), at(0.24, 0.1)])]
    elif name == "api":
        shapes = [polygon([(0.36, 0.2), (0.44, 0.28), (0.22, 0.5), (0.44, 0.72), (0.36, 0.8), (0.06, 0.5)]),
                  polygon([(0.64, 0.2), (0.56, 0.28), (0.78, 0.5), (0.56, 0.72), (0.64, 0.8), (0.94, 0.5)])]
    else:
        raise SystemExit(f"no glyph for {name}")
    return render(32, [(s, c, False) for s in shapes])


def main():
    png(os.path.join(HERE, "icon.png"), 512, 512, server_icon(512))
    png(os.path.join(HERE, "icon-64.png"), 64, 64, server_icon(64))
    os.makedirs(os.path.join(HERE, "toolsets"), exist_ok=True)
    for name in ["people", "teams", "channels", "posts", "files", "writes", "api"]:
        png(os.path.join(HERE, "toolsets", f"{name}.png"), 32, 32, glyph(name))


if __name__ == "__main__":
    main()
