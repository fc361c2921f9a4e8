#!/usr/bin/env python3
"""Wall time and peak memory of one command, for the benchmark scripts.

    python3 tests/bench-peak.py [--stdin-from 'SHELL LINE'] CMD ARG...
    python3 tests/bench-peak.py --line 'COMMAND LINE'

prints "SECONDS PEAK_KB CPU_SECONDS": CMD's wall time, its own peak
resident set
(the kernel's ru_maxrss for that process, from wait4, so a producer
feeding it through --stdin-from is not counted) and its CPU time, user
and system (the figure for linear time where the producer is slower
than CMD).  CMD's output goes to
/dev/null.  With --line, the line is split into words and run as it
stands, or by sh -c where it needs a shell (a loop, a pipe, a
variable): timed from here, the figure holds no shell or timer started
around it, which on the 2-core development machine add some 13 ms to
every run (a run of /bin/true timed between two date commands), as
much to a run of 40 ms as to one of 700.  Never run by make check."""
import os
import shlex
import subprocess
import sys
import time


SHELL_SYNTAX = set(";&|<>()$`\\\"'*?[]{}~=#\n")


def command_of(line):
    """The words of line where it is a plain command, else sh -c line."""
    if SHELL_SYNTAX.isdisjoint(line):
        words = shlex.split(line)
        if words and words[0] not in ("for", "while", "if", "case"):
            return words
    return ["sh", "-c", line]


def main():
    args = sys.argv[1:]
    feeder = None
    if len(args) == 2 and args[0] == "--line":
        args = command_of(args[1])
    elif len(args) >= 2 and args[0] == "--stdin-from":
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
    print("%.4f %d %.4f" % (elapsed, usage.ru_maxrss,
                           usage.ru_utime + usage.ru_stime))


if __name__ == "__main__":
    main()
