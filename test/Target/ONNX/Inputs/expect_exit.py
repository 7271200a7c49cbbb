"""Runs a command and checks its exact exit code: expect_exit.py CODE CMD...

The command's stdout and stderr are passed on (stderr to stdout, for
FileCheck). Exits 0 when the code is CODE, 1 otherwise (a crash included).
"""

import subprocess
import sys

code = int(sys.argv[1])
result = subprocess.run(sys.argv[2:], stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT)
sys.stdout.buffer.write(result.stdout)
if result.returncode != code:
    print(f"expect_exit.py: exit code {result.returncode}, expected {code}")
    sys.exit(1)
