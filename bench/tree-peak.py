#!/usr/bin/env python3
"""Runs a command and reports its wall time and the peak resident memory of its whole process
tree (the command and every worker it starts: Piper, Kokoro, ffmpeg), sampled every 0.2 s.

    bench/tree-peak.py -- .build/release/storyvoice narrate story.txt --voices best -o out.m4b
    bench/tree-peak.py --seconds 900 -- …   stops the command (SIGINT) after 15 minutes
    bench/tree-peak.py --match "storyvoice serve" -- bench/flagship.py --only export …
        runs the command but measures only the tree of the first process (other than itself)
        whose command line contains the text, e.g. the server a benchmark starts, so that the
        benchmark's own memory (a downloaded book) is not counted
At the end it lists the processes of the tree at its peak, each with its resident memory.
"""
import signal
import os
import subprocess
import sys
import time


def tree_rss(root):
    """Resident bytes of `root` and all its descendants, from /proc."""
    return sum(rss for _, rss in tree_processes(root))


def tree_processes(root):
    """(short command line, resident bytes) of `root` and each of its descendants."""
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
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        if pid in rss:
            found.append((command_line(pid), rss[pid]))
        stack.extend(children.get(pid, []))
    return found


def command_line(pid):
    """The program's name and its first arguments, enough to tell the workers apart."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            words = handle.read().decode(errors="replace").split("\0")
    except OSError:
        return str(pid)
    words = [os.path.basename(words[0])] + [w for w in words[1:4] if w]
    return f"{pid} " + " ".join(words)[:90]


def matching(text, exclude):
    """The first process whose command line contains `text`, other than those in `exclude`."""
    for entry in sorted(os.listdir("/proc"), key=lambda name: int(name) if name.isdigit() else 0):
        if not entry.isdigit() or int(entry) in exclude:
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if text in handle.read().replace(b"\0", b" ").decode(errors="replace"):
                    return int(entry)
        except OSError:
            continue
    return None


def option(name, before):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv[:before] else None


def main():
    split = sys.argv.index("--") if "--" in sys.argv else 0
    command = sys.argv[split + 1:] if split else sys.argv[1:]
    limit = float(option("--seconds", split)) if option("--seconds", split) else None
    match = option("--match", split)
    started = time.monotonic()
    process = subprocess.Popen(command)
    peak, at_peak, peak_time = 0, [], 0.0
    watched = None if match else process.pid
    while process.poll() is None:
        if watched is None:
            watched = matching(match, {os.getpid(), process.pid})
        if watched is not None:
            processes = tree_processes(watched)
            total = sum(rss for _, rss in processes)
            if total > peak:
                peak, at_peak, peak_time = total, processes, time.monotonic() - started
        if limit is not None and time.monotonic() - started > limit:
            process.send_signal(signal.SIGINT)
            limit = None
        time.sleep(0.2)
    print(f"tree-peak: exit {process.returncode}, {time.monotonic() - started:.1f} s wall, peak tree RSS {peak / 2**20:.0f} MB"
          + (f" (of the process matching {match!r})" if match else ""),
          file=sys.stderr)
    print(f"tree-peak: at the peak ({peak_time:.0f} s in):", file=sys.stderr)
    for name, rss in sorted(at_peak, key=lambda item: -item[1]):
        print(f"  {rss / 2**20:6.0f} MB  {name}", file=sys.stderr)
    sys.exit(process.returncode)


if __name__ == "__main__":
    main()
