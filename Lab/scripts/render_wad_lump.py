#!/usr/bin/env python3
"""Writes one lump of a Doom WAD to a file: render_wad_lump.py WAD LUMP OUT (e.g. DEMO1 to a .lmp
that dsda-doom's -timedemo plays). Prints the lump's sha256."""
import hashlib
import struct
import sys


def lump(wad_path: str, name: str) -> bytes:
    with open(wad_path, "rb") as f:
        data = f.read()
    kind, count, table = struct.unpack("<4sii", data[:12])
    if kind not in (b"IWAD", b"PWAD"):
        raise SystemExit(f"{wad_path}: not a WAD")
    for i in range(count):
        offset, size, raw = struct.unpack("<ii8s", data[table + 16 * i: table + 16 * i + 16])
        if raw.rstrip(b"\0").decode("ascii").upper() == name.upper():
            return data[offset: offset + size]
    raise SystemExit(f"{wad_path}: no lump {name}")


def main() -> None:
    wad_path, name, out = sys.argv[1:4]
    body = lump(wad_path, name)
    with open(out, "wb") as f:
        f.write(body)
    print(hashlib.sha256(body).hexdigest())


if __name__ == "__main__":
    main()
