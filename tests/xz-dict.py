# xz-dict.py IN OUT PROPS: IN (an .xz of one block) with its first
# block's LZMA2 dictionary size rewritten to PROPS (39: 3 GiB, 40: 4 GiB)
# and the block header's CRC32 redone: a stream that asks a decoder for
# a dictionary it never uses.
import sys, zlib
# xz stream: 12-byte header, then the first block header: size byte,
# flags, [sizes], filter flags (id 0x21, props size 1, props), padding, CRC32
d = bytearray(open(sys.argv[1], 'rb').read())
b = 12
hsize = (d[b] + 1) * 4
flags = d[b + 1]
p = b + 2
def vli(p):
    while d[p] & 0x80: p += 1
    return p + 1
if flags & 0x40: p = vli(p)
if flags & 0x80: p = vli(p)
assert d[p] == 0x21 and d[p + 1] == 1, (d[p], d[p+1])
d[p + 2] = int(sys.argv[3])
crc = zlib.crc32(bytes(d[b:b + hsize - 4]))
d[b + hsize - 4:b + hsize] = crc.to_bytes(4, 'little')
open(sys.argv[2], 'wb').write(d)
