"""concurrent.py N COMMAND...: starts N copies of COMMAND at once (each with
{} in its arguments replaced by the copy's number) and exits 1 unless every
one exits 0."""
import subprocess
import sys

count, command = int(sys.argv[1]), sys.argv[2:]
processes = [subprocess.Popen([arg.replace("{}", str(i)) for arg in command])
             for i in range(count)]
codes = [p.wait() for p in processes]
print("exit codes:", " ".join(map(str, codes)))
sys.exit(0 if all(code == 0 for code in codes) else 1)
