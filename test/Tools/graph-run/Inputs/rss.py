"""Runs a command and prints its resident set size: `peak KB, last KB`, the
peak the kernel kept for it (wait4's ru_maxrss: exact, where sampling a
short run on a loaded machine could miss its peak and make a longer run
look as if it grew) and the last VmRSS sampled from /proc/PID/status
before it exited. With --compare A B (two runs' outputs of this script),
checks that B's peak is at most A's plus a slack in KB.

Usage: rss.py CMD...      |  rss.py --compare FILE_A FILE_B SLACK_KB
"""

import os
import subprocess
import sys
import time


def vm_rss(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


def measure(cmd):
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    last = 0
    while True:
        # Reaped here, not by poll(), so that its resource usage is ours.
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        rss = vm_rss(proc.pid)
        if rss:
            last = rss
        time.sleep(0.001)
    code = proc.returncode = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit("rss.py: %s exited with %d" % (cmd[0], code))
    print("peak %d KB, last %d KB" % (usage.ru_maxrss, last))


def compare(file_a, file_b, slack):
    def peak(path):
        with open(path) as f:
            return int(f.read().split()[1])
    a, b = peak(file_a), peak(file_b)
    print("peak %d KB, then %d KB: %+d KB" % (a, b, b - a))
    if b > a + slack:
        sys.exit("rss.py: the resident set grew by more than %d KB" % slack)


if sys.argv[1] == "--compare":
    compare(sys.argv[2], sys.argv[3], int(sys.argv[4]))
else:
    measure(sys.argv[1:])
