#!/usr/bin/env python3
"""Runs a command and reports its wall time and the peak resident memory of its whole process
tree (the command and every worker it starts: Piper, Kokoro, ffmpeg), sampled every 0.2 s.

    bench/tree-peak.py -- .build/release/storyvoice narrate story.txt --voices best -o out.m4b
    bench/tree-peak.py --seconds 900 -- …   stops the command (SIGINT) after 15 minutes
"""
import signal
import os
import subprocess
import sys
import time


def tree_rss(root):
    """Resident bytes of `root` and all its descendants, from /proc."""
    children, rss = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(entry))
            rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return total


def main():
    command = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else sys.argv[1:]
    limit = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv[:sys.argv.index("--") if "--" in sys.argv else 0] else None
    started = time.monotonic()
    process = subprocess.Popen(command)
    peak = 0
    while process.poll() is None:
        peak = max(peak, tree_rss(process.pid))
        if limit is not None and time.monotonic() - started > limit:
            process.send_signal(signal.SIGINT)
            limit = None
        time.sleep(0.2)
    print(f"tree-peak: exit {process.returncode}, {time.monotonic() - started:.1f} s wall, peak tree RSS {peak / 2**20:.0f} MB",
          file=sys.stderr)
    sys.exit(process.returncode)


if __name__ == "__main__":
    main()
