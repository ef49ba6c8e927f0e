#!/usr/bin/env python3
"""StoryVoice's hibari worker: loads the hibari voice once and synthesizes on request.

Run by HibariEngine (Sources/SpeechEngines/HibariEngine.swift) with the project's .venv Python:

    .venv/bin/python scripts/hibari-worker.py [--threads N]

Protocol (Piper's; one request at a time; stdin and stdout are the only channel):

  request   one JSON line on stdin:
            {"id": 7, "text": "Hello.", "speed": 1.0, "pitch": 0.0, "formant": 1.0, "seed": 0}
            (everything but "id" and "text" is optional)
            speed    0.5-2.0, hibari's own (durations divided by it)
            pitch    semitones, -12..12: the model's F0 curve scaled by 2^(pitch/12) before the
                     pulse train is made, so the pitch moves and the spectral envelope (the
                     formants) stays where it is
            formant  0.75-1.3: the spectral envelope stretched along frequency by this factor
                     (a smaller factor is a longer vocal tract: a larger, darker-sounding
                     speaker), the pitch left alone
            seed     the noise component's seed, so the same request gives the same audio
            "text" may hold [[...]] blocks of exact IPA (espeak-ng's, as the lexicon gives Piper
            and Kokoro): each is spoken as those phonemes, turned into hibari's alphabet (misaki's:
            eɪ → A, aɪ → I, oʊ → O, tʃ → ʧ, ...) and handed over as hibari's own inline form
            [word](/phonemes/)
  response  one JSON header line on stdout, then exactly "bytes" bytes of raw audio:
            {"id": 7, "sample_rate": 24000, "bytes": 48000}
            followed by mono signed 16-bit little-endian PCM; or, on failure, a header alone:
            {"id": 7, "error": "what went wrong", "bytes": 0}

At start-up, once the model is loaded, the worker prints one ready line:
            {"ready": true, "sample_rate": 24000, "voice": "heart", "model": "hibari-0.2.1", "bytes": 0}

hibari's network predicts, per 12.5 ms frame, a spectral envelope, phases, noise and F0; its own
numpy vocoder (hibari.dsp.synth) makes the waveform. Pitch and formant moves act on those
outputs, not on the waveform, which is why they sound less processed than resampling. Only the
voice inside the wheel ("heart", from Kokoro's af_heart) is used: hibari downloads its other
voices on first use, and this worker never asks for them (nothing is downloaded at run time).
Everything libraries print goes to stderr, because stdout carries the protocol.
"""

import argparse
import json
import math
import os
import re
import sys

VOICE = "heart"
PHONEME_BLOCK = re.compile(r"\[\[(.*?)\]\]", re.S)
# espeak-ng's IPA to misaki's alphabet (Kokoro's, which hibari reads): diphthongs and affricates
# are one symbol there, r-coloured vowels two.
IPA_TO_MISAKI = [("eɪ", "A"), ("aɪ", "I"), ("aʊ", "W"), ("oʊ", "O"), ("ɔɪ", "Y"), ("əʊ", "Q"), ("tʃ", "ʧ"), ("dʒ", "ʤ"),
                 ("ɝ", "ɜɹ"), ("r", "ɹ"), ("g", "ɡ"), ("ɫ", "l")]


def with_phonemes(text, vocabulary):
    """[[IPA]] blocks as hibari's inline [word](/phonemes/), symbols it lacks dropped."""
    def block(match):
        phonemes = match.group(1)
        for ipa, misaki in IPA_TO_MISAKI:
            phonemes = phonemes.replace(ipa, misaki)
        phonemes = "".join(symbol for symbol in phonemes if symbol in vocabulary and symbol != "/")
        return f"[word](/{phonemes}/)" if phonemes.strip() else " "
    return PHONEME_BLOCK.sub(block, text)


def warp(spectrum, factor):
    """Each frame's bins stretched along frequency: out[b] = in[b / factor], linearly interpolated
    (bins past the end repeat the last one). Works on log magnitudes and unwrapped-free phases
    alike, frame by frame ([bins, frames])."""
    import numpy as np

    bins = spectrum.shape[0]
    source = np.arange(bins, dtype=np.float32) / np.float32(factor)
    low = np.minimum(np.floor(source).astype(np.int64), bins - 1)
    high = np.minimum(low + 1, bins - 1)
    weight = (source - low).astype(np.float32)[:, None]
    return spectrum[low] * (1 - weight) + spectrum[high] * weight


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1, help="ONNX intra-op threads")
    args = parser.parse_args()

    # The protocol owns the real stdout; anything printed by libraries lands on stderr.
    protocol = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    sys.stdout = sys.stderr

    import numpy as np
    import onnxruntime
    from hibari import Hibari, SAMPLE_RATE, __version__
    from hibari import dsp
    from hibari.voices import VOICES

    if not VOICES[VOICE].get("bundled"):
        raise SystemExit("hibari-worker: the heart voice is not inside this hibari wheel")
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = max(1, args.threads)
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    # Idle ONNX threads sleep instead of spinning, as in piper-worker.py (the language model
    # shares the cores).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    tts = Hibari(voice=VOICE, threads=max(1, args.threads))
    tts.sess = onnxruntime.InferenceSession(tts.model_path, options, providers=["CPUExecutionProvider"])
    tts.phonemize("Ready.")  # loads the G2P (lexicon, tagger, OOV net) now, not on the first line

    def speak(text, speed, pitch, formant, seed):
        rng = np.random.default_rng(seed)
        parts = []
        for phonemes in tts.phonemize(with_phonemes(text, tts.vocab)):
            ids = tts.ids(phonemes)
            if len(ids) < 3:
                continue
            out = tts.sess.run(None, {"ids": np.asarray([ids], np.int64), "speed": np.asarray([speed], np.float32)})
            lh, th, ln, lr, phi, f0 = (o[0] for o in out)
            if pitch:
                f0 = f0 * np.float32(2 ** (pitch / 12))
            if formant != 1:
                lh, th, ln, lr, phi = (warp(part, formant) for part in (lh, th, ln, lr, phi))
            parts.append(dsp.synth(lh, th, ln, lr, phi, f0, rng))
        audio = np.concatenate(parts) if parts else np.zeros(0, np.float32)
        return (np.clip(audio, -1.0, 1.0) * 32767.0).astype("<i2").tobytes()

    def send(header: dict, body: bytes = b"") -> None:
        header["bytes"] = len(body)
        protocol.write(json.dumps(header).encode("utf-8") + b"\n" + body)

    send({"ready": True, "sample_rate": SAMPLE_RATE, "voice": VOICE, "model": f"hibari-{__version__}"})

    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        request_id = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            text = request["text"]
            if not isinstance(text, str):
                raise ValueError("text must be a string")
            speed = float(request.get("speed") or 1.0)
            pitch = float(request.get("pitch") or 0.0)
            formant = float(request.get("formant") or 1.0)
            seed = int(request.get("seed") or 0)
            if not (0.5 <= speed <= 2.0) or not math.isfinite(speed):
                raise ValueError(f"speed {speed} is outside 0.5-2.0")
            if not (-12 <= pitch <= 12):
                raise ValueError(f"pitch {pitch} is outside -12..12 semitones")
            if not (0.75 <= formant <= 1.3):
                raise ValueError(f"formant {formant} is outside 0.75-1.3")
            send({"id": request_id, "sample_rate": SAMPLE_RATE}, speak(text, speed, pitch, formant, seed))
        except Exception as error:  # one bad request must not end the worker
            send({"id": request_id, "error": f"{type(error).__name__}: {error}"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
