# zstd-window.py IN OUT LOG: IN (zstd frames, streamed, so that the
# first frame after any skippable ones has a window descriptor) with that
# frame's window rewritten to 2^LOG bytes (31: 2 GiB): a stream that asks
# a decoder for a window it never uses.  Frames carry no header checksum.
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
p = 0
while struct.unpack_from('<I', d, p)[0] & 0xFFFFFFF0 == 0x184D2A50:
    p += 8 + struct.unpack_from('<I', d, p + 4)[0]
assert struct.unpack_from('<I', d, p)[0] == 0xFD2FB528
assert d[p + 4] & 0x20 == 0, 'single segment: no window descriptor'
d[p + 5] = (int(sys.argv[3]) - 10) << 3
open(sys.argv[2], 'wb').write(d)
