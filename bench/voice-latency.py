#!/usr/bin/env python3
"""Voice-to-voice latency of a spoken turn with the engines on this machine: ten questions
spoken by espeak-ng (or --asker, any of the project's voices) are sent to POST /api/voice/turn of a throwaway server (faster-whisper hears,
the model on this machine answers, the best installed voice speaks). For each: from the end of
the recording (the request sent) to the first audio of the answer, and each stage's share:
transcription (to stt-end), the model's first sentence (to tts-start 0), its speech (to
tts-audio 0). Figures, not a test; the load average is printed beside them.

    bench/voice-latency.py .build/release/storyvoice [--engines espeak-ng,flite,piper]
"""
import argparse, json, os, socket, statistics, subprocess, tempfile, time, urllib.request, uuid

QUESTIONS = [
    "What is the capital of France?", "How many legs does a spider have?", "Why is the sky blue?",
    "What is the boiling point of water?", "Who wrote Romeo and Juliet?", "How far away is the moon?",
    "What do bees make?", "What is the largest ocean?", "How many days are in a leap year?",
    "What colour are bananas?",
]

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--engines", default="espeak-ng,flite,piper")
    parser.add_argument("--asker", default="espeak-ng",
                        help="the voice asking: espeak-ng, or a voice id for 'storyvoice say' (e.g. piper:en_US-joe-medium)")
    args = parser.parse_args()
    data, port = tempfile.mkdtemp(), free_port()
    env = dict(os.environ, STORYVOICE_DATA_DIR=data, STORYVOICE_ENGINES=args.engines)
    server = subprocess.Popen([args.binary, "serve", "--port", str(port), "--hostname", "127.0.0.1"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(base + "/health", timeout=2); break
            except Exception:
                time.sleep(0.2)
        body = json.dumps({"email": f"bench-{uuid.uuid4().hex[:6]}@example.com", "password": "correct horse battery"}).encode()
        token = json.load(urllib.request.urlopen(urllib.request.Request(base + "/auth/register", data=body, headers={"Content-Type": "application/json"})))["access_token"]
        rows = []
        for index, question in enumerate(["Hello there."] + QUESTIONS):  # the first warms the model up
            wav = os.path.join(data, f"q{index}.wav")
            if args.asker == "espeak-ng":
                subprocess.run(["espeak-ng", "-w", wav, question], check=True)
            else:
                subprocess.run([args.binary, "say", question, "--voice", args.asker, "--output", wav], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            boundary = uuid.uuid4().hex
            payload = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"q.wav\"\r\nContent-Type: audio/wav\r\n\r\n").encode() \
                + open(wav, "rb").read() + f"\r\n--{boundary}--\r\n".encode()
            request = urllib.request.Request(base + "/api/voice/turn", data=payload, headers={
                "Authorization": f"Bearer {token}", "Content-Type": f"multipart/form-data; boundary={boundary}"})
            sent = time.time()
            seen, heard, answer = {}, "", ""
            with urllib.request.urlopen(request, timeout=600) as response:
                for raw in response:
                    line = raw.decode().strip()
                    if not line.startswith("data: "):
                        continue
                    event = json.loads(line[6:])
                    key = event["type"] + (str(event.get("index", "")) if event["type"].startswith("tts") else "")
                    seen.setdefault(key, time.time() - sent)
                    if event["type"] == "stt-end": heard = event["text"]
                    if event["type"] == "llm-end": answer = event["text"]
                    if event["type"] == "error": answer = "ERROR " + event["message"]
            if index == 0:
                continue
            stt, first, audio = seen.get("stt-end"), seen.get("tts-start0"), seen.get("tts-audio0")
            rows.append((stt, first, audio, seen.get("run-end")))
            print(f"{question!r:45} heard {heard!r:45} stt {stt or 0:5.2f}s  first sentence {first or 0:5.2f}s  "
                  f"first audio {audio or 0:5.2f}s  whole {seen.get('run-end', 0):5.2f}s  | {answer[:60]!r}", flush=True)
        ok = [row for row in rows if row[2] is not None]
        if ok:
            median = lambda column: statistics.median(row[column] for row in ok)
            stt, first, audio = median(0), median(1), median(2)
            print(f"\nmedian voice-to-voice (request sent → first audio): {audio:.2f} s over {len(ok)} questions")
            print(f"  transcription {stt:.2f} s ({stt / audio:.0%}), model to its first sentence {first - stt:.2f} s ({(first - stt) / audio:.0%}), "
                  f"speech of it {audio - first:.2f} s ({(audio - first) / audio:.0%})")
        print(f"load average: {os.getloadavg()}")
    finally:
        server.terminate(); server.wait()

if __name__ == "__main__":
    main()
