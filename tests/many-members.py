# many-members.py OUT N UNAME: a .tgz of uname.txt and N one-byte
# members of no format pathdoctor reads.
import io
import sys
import tarfile

n = int(sys.argv[2])
with open(sys.argv[3], 'rb') as f:
    uname = f.read()
with tarfile.open(sys.argv[1], 'w:gz', compresslevel=1) as t:
    ti = tarfile.TarInfo('a/uname.txt')
    ti.size = len(uname)
    t.addfile(ti, io.BytesIO(uname))
    for i in range(n):
        ti = tarfile.TarInfo('m/%07d.txt' % i)
        ti.size = 1
        t.addfile(ti, io.BytesIO(b'x'))
