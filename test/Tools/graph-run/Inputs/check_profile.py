"""Checks graph-run --profile's table and Chrome trace.

Usage: check_profile.py TABLE.txt TRACE.json RUNS NAME...

TABLE.txt is graph-run's stdout: its profile table must have one row per
NAME (the kernel call sites, in any order), each called RUNS times, with
shares that add up to at most 100%. TRACE.json must parse, hold RUNS run
events and, inside each (start and end within it), one event per call site.
"""

import json
import sys


def fail(message):
    sys.exit("check_profile.py: " + message)


def main():
    table_path, trace_path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    names = sys.argv[4:]

    lines = open(table_path).read().splitlines()
    header = [i for i, line in enumerate(lines) if line.startswith("kernel ")]
    if len(header) != 1:
        fail("no profile table header in " + table_path)
    rows = []
    for line in lines[header[0] + 1:]:
        if "kernel call sites" in line:
            break
        fields = line.split()
        # name kind calls total mean share gflops bytes gbps
        if len(fields) != 9:
            fail("bad row: " + line)
        rows.append(fields)
    got = sorted(row[0] for row in rows)
    if got != sorted(names):
        fail("rows %s, expected %s" % (got, sorted(names)))
    share = 0.0
    for row in rows:
        if int(row[2]) != runs:
            fail("%s called %s times, expected %d" % (row[0], row[2], runs))
        share += float(row[5].rstrip("%"))
    if share > 100.5:
        fail("the shares add up to %.1f%%" % share)

    trace = json.load(open(trace_path))
    events = trace["traceEvents"]
    for event in events:
        if event["ph"] != "X" or event["dur"] < 0:
            fail("not a complete event: %s" % event)
    run_events = [e for e in events if e["cat"] == "run"]
    kernel_events = [e for e in events if e["cat"] == "kernel"]
    if len(run_events) != runs:
        fail("%d run events, expected %d" % (len(run_events), runs))
    for run in run_events:
        inside = [
            e for e in kernel_events if e["ts"] >= run["ts"] and
            e["ts"] + e["dur"] <= run["ts"] + run["dur"] + 1e-9
        ]
        if sorted(e["name"] for e in inside) != sorted(names):
            fail("%s holds %s, expected %s" %
                 (run["name"], sorted(e["name"] for e in inside),
                  sorted(names)))
    if len(kernel_events) != runs * len(names):
        fail("%d kernel events, expected %d" %
             (len(kernel_events), runs * len(names)))
    print("profile ok: %d call sites, %d runs" % (len(names), runs))


if __name__ == "__main__":
    main()
