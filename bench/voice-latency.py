#!/usr/bin/env python3
"""Voice-to-voice latency of a spoken turn with the engines on this machine, alone and while the
same server tells a journey to a listener and writes chat stories for other users.

    bench/voice-latency.py .build/release/storyvoice [--asker piper:en_US-joe-medium]
        [--load alone,busy] [--send stream,upload] [--questions 10]

Ten questions, spoken by --asker (Piper Joe by default: espeak-ng's questions are often misheard),
go to a throwaway server (faster-whisper hears, the model on this machine answers, the best
installed voice speaks), sent as a person speaks them:

- stream: the recording is sent in 250 ms pieces at the pace it is spoken
  (POST /api/voice/listen, POST /api/voice/listen/{id} …), then the turn with `listening_id`
  (what the web app does while the button is held);
- upload: the whole recording in one POST /api/voice/turn once it has been spoken.

For each: from the end of speech (the last piece sent, or the upload) to the first audio of the
answer, and each stage's share: transcription (to stt-end), the model's first sentence or
clause (to tts-start 0), its speech (to tts-audio 0). Figures, not a test.

--load busy runs the same questions while, on the same server, another user listens to a
journey (its player following the playhead in real time, as the web app does) and a third has
chat stories written one after another (POST /api/chat/generate). The first row, measured in the
same run, is the reference: `alone`; the ratio says what the other users cost the talker.
"""
import argparse, json, os, socket, statistics, subprocess, tempfile, threading, time, urllib.error, urllib.request, uuid, wave

QUESTIONS = [
    "What is the capital of France?", "How many legs does a spider have?", "Why is the sky blue?",
    "What is the boiling point of water?", "Who wrote Romeo and Juliet?", "How far away is the moon?",
    "What do bees make?", "What is the largest ocean?", "How many days are in a leap year?",
    "What colour are bananas?",
]
JOURNEY = {"start": "51.7520,-1.2577", "end": "51.7700,-1.2577", "mode": "walking", "style": "fantasy"}


def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port


class Client:
    def __init__(self, base, token=None):
        self.base, self.token = base, token

    def call(self, method, path, body=None, raw=None, content_type="application/json", timeout=900):
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        headers = {"Content-Type": content_type}
        if self.token: headers["Authorization"] = f"Bearer {self.token}"
        with urllib.request.urlopen(urllib.request.Request(self.base + path, data=data, method=method, headers=headers), timeout=timeout) as response:
            payload = response.read()
            return json.loads(payload) if payload and response.headers.get_content_type() == "application/json" else payload

    def register(self, name):
        body = {"email": f"{name}-{uuid.uuid4().hex[:6]}@example.com", "password": "correct horse battery"}
        self.token = self.call("POST", "/auth/register", body)["access_token"]
        return body["email"]

    def events(self, path, body=None, raw=None, content_type="application/json"):
        """A turn's server-sent events: yields (seconds since sent, event)."""
        data = raw if raw is not None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, headers={
            "Authorization": f"Bearer {self.token}", "Content-Type": content_type})
        sent = time.time()
        with urllib.request.urlopen(request, timeout=900) as response:
            for line in response:
                line = line.decode().strip()
                if line.startswith("data: "):
                    yield time.time() - sent, json.loads(line[6:])


def spoken(binary, asker, question, directory, index):
    """The question as 16 kHz mono 16-bit samples (bytes), and as a WAV file."""
    wav = os.path.join(directory, f"q{index}.wav")
    if asker == "espeak-ng":
        subprocess.run(["espeak-ng", "-w", wav, question], check=True)
    else:
        subprocess.run([binary, "say", question, "--voice", asker, "--output", wav], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    resampled = os.path.join(directory, f"q{index}-16k.wav")
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", wav, "-ac", "1", "-ar", "16000", "-sample_fmt", "s16", resampled], check=True)
    with wave.open(resampled) as w:
        return w.readframes(w.getnframes()), wav


def turn_streamed(client, pcm):
    """Sends the speech in 250 ms pieces at the pace it is spoken, then the turn."""
    session = client.call("POST", "/api/voice/listen", {"sample_rate": 16000})["id"]
    piece = 16000 * 2 // 4
    started = time.time()
    for offset in range(0, len(pcm), piece):
        time.sleep(max(0, started + offset / 32000 - time.time()))
        client.call("POST", f"/api/voice/listen/{session}", raw=pcm[offset:offset + piece], content_type="application/octet-stream")
    time.sleep(max(0, started + len(pcm) / 32000 - time.time()))
    return client.events("/api/voice/turn", {"listening_id": session})


def turn_uploaded(client, wav_path):
    boundary = uuid.uuid4().hex
    payload = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"q.wav\"\r\nContent-Type: audio/wav\r\n\r\n").encode() \
        + open(wav_path, "rb").read() + f"\r\n--{boundary}--\r\n".encode()
    return client.events("/api/voice/turn", raw=payload, content_type=f"multipart/form-data; boundary={boundary}")


def measure(events):
    seen, heard, answer = {}, "", ""
    for at, event in events:
        key = event["type"] + (str(event.get("index", "")) if event["type"].startswith("tts") else "")
        seen.setdefault(key, at)
        if event["type"] == "stt-end": heard = event["text"]
        if event["type"] == "llm-end": answer = event["text"]
        if event["type"] == "error": answer = "ERROR " + event["message"]
    return seen, heard, answer


class Load:
    """Other users on the same server: a journey listened to in real time, chat stories written
    (unless `chat` is false: the journey alone)."""

    def __init__(self, base, binary, env, chat=True):
        self.base, self.binary, self.env = base, binary, env
        self.stop = threading.Event()
        self.waits, self.chats, self.failures = [], [], []
        self.threads = [threading.Thread(target=self.journey, daemon=True)] + ([threading.Thread(target=self.chat, daemon=True)] if chat else [])

    def start(self):
        for thread in self.threads: thread.start()

    def finish(self):
        self.stop.set()
        for thread in self.threads: thread.join(timeout=30)

    def journey(self):
        try:
            client = Client(self.base)
            client.register("listener")
            client.call("POST", "/api/journeys/plan", {k: JOURNEY[k] for k in ("start", "end", "mode")})
            journey = client.call("POST", "/api/journeys", JOURNEY)
            part, sentence, waiting_since = 1, 0, time.time()
            while not self.stop.is_set():
                journey = client.call("GET", f"/api/journeys/{journey['id']}")
                parts = {p["number"]: p for p in journey["parts"]}
                current = parts.get(part)
                if current and sentence < len(current["sentences"]):
                    if waiting_since is not None:
                        self.waits.append(time.time() - waiting_since)
                        waiting_since = None
                    client.call("PUT", f"/api/journeys/{journey['id']}/playhead", {"part": part, "sentence": sentence})
                    self.stop.wait(current["sentences"][sentence]["duration_s"])
                    sentence += 1
                elif current and current["status"] == "ready":
                    if part >= journey["plan"]["parts"]: break
                    part, sentence = part + 1, 0
                else:
                    waiting_since = waiting_since or time.time()
                    self.stop.wait(0.5)
        except Exception as error:  # the figures say the load failed rather than hiding it
            self.failures.append(f"journey: {error}")

    def chat(self):
        try:
            client = Client(self.base)
            email = client.register("writer")
            subprocess.run([self.binary, "admin", "grant-premium", email], env=self.env, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            while not self.stop.is_set():
                started = time.time()
                try:
                    client.call("POST", "/api/chat/generate", {"prompt": "my roommate keeps eating my food", "genre": "comedy",
                                                               "mood": "funny", "length": "short", "characters": 2})
                    self.chats.append(time.time() - started)
                except urllib.error.HTTPError as error:
                    self.failures.append(f"chat: {error.code} {error.read()[:200]!r}")
                    self.stop.wait(5)
        except Exception as error:
            self.failures.append(f"chat: {error}")


def run(client, questions, send, label):
    rows = []
    for index, (question, pcm, wav) in enumerate(questions):
        events = turn_streamed(client, pcm) if send == "stream" else turn_uploaded(client, wav)
        seen, heard, answer = measure(events)
        if index == 0:
            continue  # the first warms the model and the voices up
        stt, first, audio = seen.get("stt-end"), seen.get("tts-start0"), seen.get("tts-audio0")
        rows.append((stt, first, audio))
        print(f"  [{label}, {send}] {question!r:40} heard {heard!r:42} stt {stt or 0:5.2f}s  first clause {first or 0:5.2f}s  "
              f"first audio {audio or 0:5.2f}s | {answer[:50]!r}", flush=True)
    ok = [row for row in rows if None not in row]
    if not ok:
        return None
    median = lambda column: statistics.median(row[column] for row in ok)
    return median(0), median(1), median(2), len(ok), len(rows)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--engines", default="espeak-ng,flite,piper")
    parser.add_argument("--asker", default="piper:en_US-joe-medium",
                        help="the voice asking: espeak-ng, or a voice id for 'storyvoice say'")
    parser.add_argument("--load", default="alone,busy", help="alone, busy, or both (alone first: the reference)")
    parser.add_argument("--send", default="stream,upload", help="stream (while speaking), upload (whole recording), or both")
    parser.add_argument("--questions", type=int, default=10)
    parser.add_argument("--warm-load", type=float, default=20, help="seconds the other users run before the busy questions")
    args = parser.parse_args()
    data, port = tempfile.mkdtemp(), free_port()
    env = dict(os.environ, STORYVOICE_DATA_DIR=data, STORYVOICE_ENGINES=args.engines)
    server = subprocess.Popen([args.binary, "serve", "--port", str(port), "--hostname", "127.0.0.1"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    results = {}
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(base + "/health", timeout=2); break
            except Exception:
                time.sleep(0.2)
        talker = Client(base)
        talker.register("talker")
        questions = [(q, *spoken(args.binary, args.asker, q, data, i)) for i, q in enumerate(["Hello there."] + QUESTIONS[:args.questions])]
        sends = args.send.split(",")
        for load in args.load.split(","):
            other = None
            if load == "busy":
                other = Load(base, args.binary, env)
                other.start()
                time.sleep(args.warm_load)
            for send in sends:
                results[(load, send)] = run(talker, questions, send, load)
            if other:
                other.finish()
                print(f"  while busy: the journey's listener waited {len(other.waits)} times "
                      f"({', '.join(f'{w:.1f}s' for w in other.waits)}); {len(other.chats)} chat stories written "
                      f"({', '.join(f'{c:.0f}s' for c in other.chats)}); failures: {other.failures or 'none'}")
        print("\nmedian from the end of speech to the first audio of the answer:")
        for (load, send), result in results.items():
            if result is None:
                print(f"  {load:5} {send:6}: no answer reached speech"); continue
            stt, first, audio, ok, total = result
            reference = results.get(("alone", send))
            ratio = f"  ×{audio / reference[2]:.2f} of alone" if reference and load != "alone" else ""
            print(f"  {load:5} {send:6}: {audio:5.2f} s ({ok}/{total} answered){ratio}  — transcription {stt:.2f} s, "
                  f"model to its first clause {first - stt:.2f} s, its speech {audio - first:.2f} s")
        print(f"load average: {os.getloadavg()}")
    finally:
        server.terminate(); server.wait()


if __name__ == "__main__":
    main()
