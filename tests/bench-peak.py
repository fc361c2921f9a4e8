#!/usr/bin/env python3
"""Wall time and peak memory of one command, for the benchmark scripts.

    python3 tests/bench-peak.py [--stdin-from 'SHELL LINE'] CMD ARG...

prints "SECONDS PEAK_KB CPU_SECONDS": CMD's wall time, its own peak
resident set
(the kernel's ru_maxrss for that process, from wait4, so a producer
feeding it through --stdin-from is not counted) and its CPU time, user
and system (the figure for linear time where the producer is slower
than CMD).  CMD's output goes to
/dev/null.  Never run by make check."""
import os
import subprocess
import sys
import time


def main():
    args = sys.argv[1:]
    feeder = None
    if len(args) >= 2 and args[0] == "--stdin-from":
        feeder = subprocess.Popen(["sh", "-c", args[1]],
                                  stdout=subprocess.PIPE)
        args = args[2:]
    if not args:
        sys.exit("usage: bench-peak.py [--stdin-from LINE] CMD ARG...")
    start = time.monotonic()
    child = subprocess.Popen(args, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL,
                             stdin=feeder.stdout if feeder else None)
    if feeder:
        feeder.stdout.close()  # the child holds the only reading end
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.monotonic() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if feeder:
        feeder.wait()
    print("%.3f %d %.3f" % (elapsed, usage.ru_maxrss,
                           usage.ru_utime + usage.ru_stime))


if __name__ == "__main__":
    main()
