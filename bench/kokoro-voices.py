#!/usr/bin/env python3
"""Measures Kokoro's voices and blends: speed, intelligibility, language, pitch, memory.

Run with the project's .venv Python after scripts/setup, with nothing else heavy running:

    .venv/bin/python bench/kokoro-voices.py [--threads 1] [--out DIR] [--lid-model DIR] [--piper]
                                            [--controls] [--voice SPEC ...] [--json FILE]

For each voice (default: the five voices and BLENDS) it starts nothing new: one
scripts/kokoro-worker.py process serves every request, one at a time, so the figures are those
of one warm worker with --threads ONNX threads. Per voice and paragraph (PARAGRAPHS):

  × real time   seconds of audio / seconds from request to the last byte of the answer
  WER           scripts/whisper-worker.py (Whisper tiny.en, greedy, 1 thread) against the text,
                normalised as WordErrorRate in Swift does (lower case, punctuation dropped,
                apostrophes inside words kept, hyphens split, numbers below 100 spelt out), and
                grey/gray, endeavour/endeavor taken as the same word
  P(en)         with --lid-model DIR (a multilingual CTranslate2 Whisper; tiny.en is English-only
                and always answers "en"), faster-whisper's language detection on the paragraph:
                the probability of English and the runner-up language
  pitch         F0 by YIN (40 ms frames, 10 ms hop, 50-500 Hz, first dip of the normalised
                difference below 0.2, frames within 30 dB of the loudest): median in Hz and
                range = 10th to 90th percentile in semitones

plus the worker's start-up time (spawn to ready line), one short line's latency, and its peak
resident memory (VmHWM). --piper adds Piper's Joe (scripts/piper-worker.py) as a baseline row,
--controls espeak-ng en-us+f3, flite slt and festival's HTS slt (American voices, two female).
× real time is also given by the worker's own CPU time, which the machine's load barely moves.
Nothing here listens: accent is inferred from these numbers only.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import wave

import numpy as np

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = sys.executable

VOICES = ["jm_kumo", "jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro"]
# Chosen from a pitch probe of 10 candidates so that neighbours are about 3 semitones apart, and
# to add male voices (Kokoro's Japanese set has one). "@en-gb" asks for British phonemes.
BLENDS = [
    "jm_kumo:0.8+jf_gongitsune:0.2",
    "jm_kumo:0.7+jf_alpha:0.3",
    "jm_kumo:0.5+jf_nezumi:0.5",
    "jf_alpha:0.7+jm_kumo:0.3",
    "jf_alpha:0.5+jf_tebukuro:0.5",
    "jm_kumo@en-gb",
    "jf_gongitsune@en-gb",
]
PARAGRAPHS = {
    # plain narration, no names, no dialogue (59 words)
    "plain": "The morning was cold and grey, and a hard wind came in from the sea. Along the coast "
             "road the trees bent low, and the last brown leaves blew across the empty fields. In "
             "the village the shops opened late, and the few people walking to the station kept "
             "their heads down and their hands deep in their pockets.",
    # names and dialogue: the opening of examples/the-open-window.txt (53 words)
    "names": "\"My aunt will be down presently, Mr. Nuttel,\" said a very self-possessed young lady "
             "of fifteen; \"in the meantime you must try and put up with me.\" Framton Nuttel "
             "endeavored to say the correct something which should duly flatter the niece of the "
             "moment without unduly discounting the aunt that was to come.",
}
SHORT_LINE = "Yes, of course."
# Native-accent controls from the Debian engines (--controls): what P(en), WER and pitch look like
# for voices known to be American English, female ones included.
CONTROLS = {
    "espeak-ng:en-us+f3": ["espeak-ng", "-v", "en-us+f3", "-w", "{wav}"],  # reads standard input
    "flite:slt": ["flite", "-voice", "slt", "-f", "{text}", "-o", "{wav}"],
    "festival:cmu_us_slt_arctic_hts": ["text2wave", "-eval", "(voice_cmu_us_slt_arctic_hts)", "{text}", "-o", "{wav}"],
}


class Worker:
    """A piper- or kokoro-worker: JSON header line + raw s16le body."""

    def __init__(self, command):
        started = time.monotonic()
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=PROJECT)
        self.ready = self._read()[0]
        self.startup = time.monotonic() - started
        self.next_id = 0

    def _read(self):
        header = json.loads(self.process.stdout.readline())
        return header, self.process.stdout.read(header.get("bytes", 0))

    def say(self, **request):
        self.next_id += 1
        request["id"] = self.next_id
        started = time.monotonic()
        self.process.stdin.write((json.dumps(request) + "\n").encode())
        self.process.stdin.flush()
        header, body = self._read()
        elapsed = time.monotonic() - started
        if "error" in header:
            raise RuntimeError(header["error"])
        return np.frombuffer(body, dtype="<i2"), header["sample_rate"], elapsed

    def cpu_seconds(self):
        """User + system CPU time of the worker so far (all its threads)."""
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_rss_mb(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return None

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


def write_wav(path, samples, rate):
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples.astype("<i2").tobytes())


def pitch(samples, rate):
    """(median F0 Hz, p10-p90 range in semitones, voiced share of loud frames) by YIN."""
    x = samples.astype(np.float64) / 32768.0
    window, hop = int(0.040 * rate), int(0.010 * rate)
    lag_min, lag_max = int(rate / 500), int(rate / 50)
    starts = range(0, len(x) - window - lag_max, hop)
    if not len(starts):
        return None, None, 0.0
    rms = np.array([np.sqrt(np.mean(x[s:s + window] ** 2)) for s in starts])
    loud = rms > rms.max() * 10 ** (-30 / 20)
    size = 1 << int(np.ceil(np.log2(2 * (window + lag_max))))
    squares = np.concatenate([[0.0], np.cumsum(x ** 2)])
    lags = np.arange(lag_max + 1)
    f0 = []
    for index, s in enumerate(starts):
        if not loud[index]:
            continue
        segment = x[s:s + window + lag_max]
        head = x[s:s + window]
        correlation = np.fft.irfft(np.fft.rfft(segment, size) * np.conj(np.fft.rfft(head, size)), size)[:lag_max + 1]
        energy_head = squares[s + window] - squares[s]
        energy_shifted = squares[s + lags + window] - squares[s + lags]
        difference = energy_head + energy_shifted - 2 * correlation
        difference[0] = 0.0
        cumulative = np.cumsum(difference[1:])
        normalised = np.ones(lag_max + 1)
        normalised[1:] = difference[1:] * lags[1:] / np.maximum(cumulative, 1e-12)
        below = np.nonzero(normalised[lag_min:] < 0.2)[0]
        if len(below) == 0:
            continue
        lag = lag_min + below[0]
        while lag + 1 <= lag_max and normalised[lag + 1] < normalised[lag]:
            lag += 1
        if 0 < lag < lag_max:  # parabolic interpolation of the dip
            a, b, c = normalised[lag - 1], normalised[lag], normalised[lag + 1]
            shift = 0.5 * (a - c) / (a - 2 * b + c) if (a - 2 * b + c) != 0 else 0.0
            lag = lag + shift
        f0.append(rate / lag)
    if not f0:
        return None, None, 0.0
    f0 = np.array(f0)
    p10, p50, p90 = np.percentile(f0, [10, 50, 90])
    return float(p50), float(12 * np.log2(p90 / p10)), len(f0) / max(1, int(loud.sum()))


ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen " \
       "sixteen seventeen eighteen nineteen".split()
TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
SPELLING = {"gray": "grey", "endeavoured": "endeavored", "endeavour": "endeavor"}  # US/UK variants


def spell(number):
    n = int(number)
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10 - 2] + ("" if n % 10 == 0 else " " + ONES[n % 10])
    return number


def words(text):
    text = re.sub(r"\b\d{1,2}\b", lambda match: spell(match.group(0)), text)
    text = text.lower().replace("&", " and ").replace("-", " ").replace("—", " ")
    text = re.sub(r"[‘’]", "'", text)
    text = re.sub(r"[^a-z0-9' ]+", " ", text)
    return [SPELLING.get(w, w) for w in (w.strip("'") for w in text.split()) if w]


def wer(reference, hypothesis):
    r, h = words(reference), words(hypothesis)
    row = list(range(len(h) + 1))
    for i in range(1, len(r) + 1):
        previous, row[0] = row[0], i
        for j in range(1, len(h) + 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (r[i - 1] != h[j - 1]))
    return row[len(h)] / max(1, len(r))


def asr_model_args(args):
    """whisper-worker.py's --model for --asr-model: a larger Whisper (base) mishears fewer names on
    its own account, so what it loses is more the voice's."""
    return ["--model", args.asr_model] if getattr(args, "asr_model", None) else []


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", help="keep the WAV files here (default: a temporary directory)")
    parser.add_argument("--lid-model", help="multilingual CTranslate2 Whisper directory for P(en)")
    parser.add_argument("--piper", action="store_true", help="add Piper's Joe as a baseline")
    parser.add_argument("--controls", action="store_true", help="add espeak-ng, flite and festival voices as controls")
    parser.add_argument("--voice", action="append", help="voice or blend spec, @en-gb for British phonemes (repeatable)")
    parser.add_argument("--json", help="write the results here as JSON")
    parser.add_argument("--asr-model", help="a CTranslate2 Whisper directory to judge WER with (default: tiny.en)")
    args = parser.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="kokoro-bench-")
    os.makedirs(out, exist_ok=True)
    specs = args.voice or VOICES + BLENDS
    load_before = open("/proc/loadavg").read().split()[:3]
    print(f"load average before: {' '.join(load_before)}; WAVs in {out}", file=sys.stderr)

    rows = []
    kokoro = Worker([PYTHON, "scripts/kokoro-worker.py", "--threads", str(args.threads)])
    rss_ready = kokoro.peak_rss_mb()
    print(f"kokoro: ready in {kokoro.startup:.2f} s, {rss_ready:.0f} MB", file=sys.stderr)
    def request(spec, text):
        voice, _, lang = spec.partition("@")
        return {"text": text, "voice": voice, "lang": lang or "en-us"}

    _, _, first_short = kokoro.say(**request(specs[0], SHORT_LINE))
    short_times = []
    for spec in specs:
        row = {"voice": spec, "engine": "kokoro"}
        for name, text in PARAGRAPHS.items():
            cpu = kokoro.cpu_seconds()
            samples, rate, elapsed = kokoro.say(**request(spec, text))
            cpu = kokoro.cpu_seconds() - cpu
            path = os.path.join(out, f"{re.sub(r'[^a-z0-9]+', '_', spec)}-{name}.wav")
            write_wav(path, samples, rate)
            row[name] = {"path": path, "audio_s": len(samples) / rate, "synth_s": elapsed, "cpu_s": cpu,
                         "xrt": (len(samples) / rate) / elapsed, "xrt_cpu": (len(samples) / rate) / max(cpu, 1e-3)}
            print(f"{spec} {name}: {len(samples) / rate:.1f} s audio in {elapsed:.1f} s", file=sys.stderr)
        short_times.append(kokoro.say(**request(spec, SHORT_LINE))[2])
        rows.append(row)
    summary = {"threads": args.threads, "kokoro_startup_s": kokoro.startup, "kokoro_rss_ready_mb": rss_ready,
               "kokoro_peak_rss_mb": kokoro.peak_rss_mb(), "short_line_first_s": first_short,
               "short_line_warm_median_s": float(np.median(short_times))}
    kokoro.close()

    if args.piper:
        piper = Worker([PYTHON, "scripts/piper-worker.py", "--threads", str(args.threads)])
        row = {"voice": "piper:en_US-joe-medium", "engine": "piper"}
        for name, text in PARAGRAPHS.items():
            cpu = piper.cpu_seconds()
            samples, rate, elapsed = piper.say(text=text)
            cpu = piper.cpu_seconds() - cpu
            path = os.path.join(out, f"piper_joe-{name}.wav")
            write_wav(path, samples, rate)
            row[name] = {"path": path, "audio_s": len(samples) / rate, "synth_s": elapsed, "cpu_s": cpu,
                         "xrt": (len(samples) / rate) / elapsed, "xrt_cpu": (len(samples) / rate) / max(cpu, 1e-3)}
        summary["piper_peak_rss_mb"] = piper.peak_rss_mb()
        piper.close()
        rows.append(row)

    if args.controls:
        for voice, command in CONTROLS.items():
            row = {"voice": voice, "engine": voice.split(":")[0]}
            for name, text in PARAGRAPHS.items():
                path = os.path.join(out, f"{re.sub(r'[^a-z0-9]+', '_', voice)}-{name}.wav")
                with tempfile.NamedTemporaryFile("w", suffix=".txt") as text_file:
                    text_file.write(text + "\n")
                    text_file.flush()
                    started = time.monotonic()
                    subprocess.run([part.format(text=text_file.name, wav=path) for part in command], check=True,
                                   stdin=open(text_file.name), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    elapsed = time.monotonic() - started
                with wave.open(path) as w:
                    audio_s = w.getnframes() / w.getframerate()
                row[name] = {"path": path, "audio_s": audio_s, "synth_s": elapsed, "xrt": audio_s / elapsed}
            rows.append(row)

    # Pitch (numpy, here), then Whisper tiny.en (the project's worker), then language detection.
    for row in rows:
        for name in PARAGRAPHS:
            with wave.open(row[name]["path"]) as w:
                samples = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
                rate = w.getframerate()
            row[name]["f0_median"], row[name]["f0_range_st"], row[name]["voiced"] = pitch(samples, rate)

    whisper = subprocess.Popen([PYTHON, "scripts/whisper-worker.py", "--threads", "1", *asr_model_args(args)], cwd=PROJECT,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    json.loads(whisper.stdout.readline())
    for row in rows:
        for name, text in PARAGRAPHS.items():
            whisper.stdin.write(json.dumps({"id": 1, "path": row[name]["path"]}) + "\n")
            whisper.stdin.flush()
            answer = json.loads(whisper.stdout.readline())
            row[name]["transcript"] = answer.get("text", answer.get("error"))
            row[name]["wer"] = wer(text, answer.get("text", ""))
    whisper.stdin.close()
    whisper.wait()

    if args.lid_model:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from faster_whisper import WhisperModel
        from faster_whisper.audio import decode_audio

        model = WhisperModel(args.lid_model, device="cpu", compute_type="int8", cpu_threads=1)
        for row in rows:
            for name in PARAGRAPHS:
                audio = decode_audio(row[name]["path"], sampling_rate=16000)
                language, probability, ranked = model.detect_language(audio)
                ranked = sorted(ranked, key=lambda pair: -pair[1])
                row[name]["lid"] = {"top": language, "p_en": dict(ranked).get("en", 0.0),
                                    "runner_up": [ranked[1][0], round(ranked[1][1], 3)] if ranked[0][0] == "en" else
                                    [ranked[0][0], round(ranked[0][1], 3)],
                                    "p_ja": dict(ranked).get("ja", 0.0)}

    summary["load_before"] = load_before
    summary["load_after"] = open("/proc/loadavg").read().split()[:3]
    print("| voice | × real time (plain / names; by CPU time) | WER plain / names | P(en) plain / names (runner-up) | median F0 / range |")
    print("|---|---|---|---|---|")
    for row in rows:
        p, n = row["plain"], row["names"]
        lid = ""
        if "lid" in p:
            lid = f"{p['lid']['p_en']:.3f} / {n['lid']['p_en']:.3f} ({p['lid']['runner_up'][0]}, {n['lid']['runner_up'][0]})"
        f0 = np.median([p["f0_median"], n["f0_median"]])
        st = np.median([p["f0_range_st"], n["f0_range_st"]])
        cpu = f"; {p['xrt_cpu']:.2f} / {n['xrt_cpu']:.2f}" if "xrt_cpu" in p else ""
        print(f"| {row['voice']} | {p['xrt']:.2f} / {n['xrt']:.2f}{cpu} | {p['wer']:.3f} / {n['wer']:.3f} | {lid} | "
              f"{f0:.0f} Hz / {st:.1f} st |")
    print(json.dumps(summary))
    for row in rows:
        for name in PARAGRAPHS:
            print(f"{row['voice']} {name}: {row[name]['transcript']}", file=sys.stderr)
    if args.json:
        with open(args.json, "w") as out_file:
            json.dump({"summary": summary, "rows": rows}, out_file, indent=1)


if __name__ == "__main__":
    main()
