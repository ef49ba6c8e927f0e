#!/usr/bin/env python3
"""Chat-story export speed and memory (a benchmark, not a test).

    bench/chat-export.py [--binary .build/release/storyvoice] [--quick]

Speed: a 10-message conversation exported in each format at 30 and 60 fps, as × real time
(video seconds per wall second; the goal is ≥ 2× for 9:16 at 30 fps on 2 cores). Reference, in
the same run: ffmpeg encoding a still frame of the same size, rate and length with the same
codec settings, i.e. the encoder alone; the ratio says how much drawing and piping cost.
Memory: the peak resident memory of the whole process tree (storyvoice and ffmpeg) for a
10-message and a 500-message conversation (goal: flat, under 200 MB).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from importlib import import_module

tree_peak = import_module("tree-peak")

LINES = [
    ("alex", "did you see what happened at the lake last night?"),
    ("me", "No?? What happened 😳"),
    ("alex", "someone left all the boats untied. every single one"),
    ("me", "That's so weird. Who would do that"),
    ("alex", "the caretaker says he saw a light on the water around 3am 🔦"),
    ("me", "Okay I'm officially never going there again"),
    ("alex", "too late. we're going tonight"),
    ("me", "Absolutely not."),
    ("alex", "bring a torch 😂"),
    ("me", "I hate you."),
]


def conversation(count):
    messages = [{"character_id": LINES[i % len(LINES)][0], "text": LINES[i % len(LINES)][1]} for i in range(count)]
    return {"title": f"{count} messages", "characters": [
        {"id": "me", "name": "Me", "color": "#007AFF", "is_me": True},
        {"id": "alex", "name": "Alex", "color": "#34C759", "avatar_emoji": "🦊"}], "messages": messages}


def duration(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "json", path], capture_output=True, text=True, check=True)
    return float(json.loads(out.stdout)["format"]["duration"])


def timed(command):
    started = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - started


def peak(command):
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    highest = 0
    while process.poll() is None:
        highest = max(highest, tree_peak.tree_rss(process.pid))
        time.sleep(0.1)
    if process.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}")
    return highest


def main():
    binary = sys.argv[sys.argv.index("--binary") + 1] if "--binary" in sys.argv else ".build/release/storyvoice"
    quick = "--quick" in sys.argv
    sizes = {"tiktok": "1080x1920", "instagram": "1080x1080", "youtube": "1920x1080"}
    with tempfile.TemporaryDirectory() as work:
        small = os.path.join(work, "ten.chat.json")
        large = os.path.join(work, "five-hundred.chat.json")
        json.dump(conversation(10), open(small, "w"))
        json.dump(conversation(500), open(large, "w"))
        print(f"{'format':<10} {'fps':>3} {'video s':>8} {'wall s':>7} {'× real time':>12} {'encoder alone ×':>16} {'ratio':>6}")
        for name, size in sizes.items():
            for fps in ([30] if quick else [30, 60]):
                out = os.path.join(work, f"{name}-{fps}.mp4")
                wall = timed([binary, "chat", "render", small, "-o", out, "--format", name, "--fps", str(fps)])
                length = duration(out)
                reference = os.path.join(work, f"ref-{name}-{fps}.mp4")
                ref_wall = timed(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"color=c=white:s={size}:r={fps}:d={length}",
                                  "-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency", "-threads", "2", "-crf", "21", "-pix_fmt", "yuv420p", reference])
                ours, alone = length / wall, length / ref_wall
                print(f"{name:<10} {fps:>3} {length:>8.1f} {wall:>7.1f} {ours:>11.2f}× {alone:>15.2f}× {ours / alone:>6.2f}")
        for label, path in [("10 messages", small), ("500 messages", large)]:
            out = os.path.join(work, "peak.mp4")
            highest = peak([binary, "chat", "render", path, "-o", out, "--format", "tiktok", "--fps", "30", "--speed", "fast"])
            print(f"peak memory, {label} (9:16, 30 fps, {duration(out):.0f} s of video): {highest / 2**20:.0f} MB")


if __name__ == "__main__":
    main()
