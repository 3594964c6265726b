"""Runs one command and reports its wall time and CPU time (user + system) in ms.

    python3 measure.py <stdin-file|-> <cmd> [args...]

Prints {"wall": ms, "cpu": ms, "status": code, "stdout": text} as JSON. CPU comes from
getrusage(RUSAGE_CHILDREN) around the one child, so it has microsecond resolution and
does not include this wrapper's own start-up.
"""
import json
import resource
import subprocess
import sys
import time

source, cmd = sys.argv[1], sys.argv[2:]
data = b"" if source == "-" else open(source, "rb").read()
before = resource.getrusage(resource.RUSAGE_CHILDREN)
start = time.perf_counter()
proc = subprocess.run(cmd, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
wall = (time.perf_counter() - start) * 1000
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000
print(json.dumps({"wall": wall, "cpu": cpu, "status": proc.returncode, "stdout": proc.stdout.decode("utf-8", "replace"), "stderr": proc.stderr.decode("utf-8", "replace")[:400]}))
