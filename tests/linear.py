#!/usr/bin/env python3
"""Does a cost grow linearly?  The run on an input of size 2n must take
less than LIMIT times the run on size n: linear work makes the ratio
about 2, quadratic work 4.

The measure is the child's own CPU time (user + system, every thread),
so other work on the machine is not counted.  It still inflates under
load (shared caches, a sibling hyperthread, page-fault contention), and
that inflation is one-sided: no interference makes a run faster.  So a
ratio over the line is measured again, up to RETRIES more times, and
the fastest run of each size is kept.  Quadratic work stays 4 on every
run and still fails; a noisy moment does not.  Below FLOOR seconds the
clock's granularity and process start dominate, so the smaller run
counts as at least FLOOR.

    python3 tests/linear.py NAME [T1 T2] -- CMD_N... -- CMD_2N...
prints one TAP line, "ok NAME: ..." or "not ok NAME: ...".  T1 and T2,
when given, are times already measured (CPU seconds of CMD_N and
CMD_2N), so the commands run only when those are over the line.  Scripts
written in Python import settle() and cpu_seconds() instead.
"""
import os
import subprocess
import sys

LIMIT = 3.0
FLOOR = 0.05
RETRIES = 2


def cpu_seconds(argv):
    """Runs argv with its output discarded; its CPU time in seconds."""
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    _, _, use = os.wait4(p.pid, 0)
    return use.ru_utime + use.ru_stime


def linear(t1, t2):
    return t2 < LIMIT * max(t1, FLOOR)


def settle(argv1, argv2, t1, t2):
    """Given the first times t1 (size n) and t2 (size 2n), measures
    again while the ratio is over the line; the fastest of each."""
    for _ in range(RETRIES):
        if linear(t1, t2):
            break
        t1 = min(t1, cpu_seconds(argv1))
        t2 = min(t2, cpu_seconds(argv2))
    return t1, t2


def verdict(t1, t2):
    return "%s%.3f s for n, %.3f s for 2n (ratio %.2f, limit %.0f)" % (
        "" if linear(t1, t2) else "over the line: ", t1, t2,
        t2 / max(t1, FLOOR), LIMIT)


def main(args):
    if "--" not in args or args.count("--") != 2:
        sys.exit("usage: linear.py NAME [T1 T2] -- CMD_N... -- CMD_2N...")
    first, rest = args.index("--"), args[args.index("--") + 1:]
    cut = rest.index("--")
    argv1, argv2 = rest[:cut], rest[cut + 1:]
    if first == 3:
        t1, t2 = float(args[1]), float(args[2])
    elif first == 1:
        t1, t2 = cpu_seconds(argv1), cpu_seconds(argv2)
    else:
        sys.exit("linear.py: give NAME, or NAME T1 T2, before the first --")
    t1, t2 = settle(argv1, argv2, t1, t2)
    print("%s %s: %s" % ("ok" if linear(t1, t2) else "not ok", args[0],
                         verdict(t1, t2)))


if __name__ == "__main__":
    main(sys.argv[1:])
