#!/usr/bin/env python3
"""How soon the agent speaks on a call with the local voice agent: a throwaway server with the
engines on this machine (no OpenAI key: the local model, the installed voices), browser calls
placed through POST /api/calls/browser and the media stream (Twilio's Media Streams protocol,
spoken by a minimal WebSocket client here), timed from sending `start` (the answer) to the first
`media` frame of the agent. For built-in scenarios: the first call (its opening voiced while the
ticket is issued and the socket opens) and a second (the opening kept); for a scenario of one's
own: called at once after it was made (the model writes the greeting live), and again once the
opening is kept. Figures, not a test; the load average is printed beside them.

The server's voicing of the built-in openings at start is off unless --ahead SECONDS is given:
then the calls begin that long after the server is up (its openings are made meanwhile).

    bench/call-first-audio.py .build/debug/storyvoice [--engines espeak-ng,flite,piper] [--scenarios default,comedian] [--ahead 60]

--answers measures the turns instead (issue 45: each answer within 2 s of the caller stopping,
with a journey listener at the same time): calls of --scenario in which a caller asks questions
spoken by --asker (Piper Joe by default, `storyvoice say`), sent as a phone line sends them:
8 kHz μ-law in 20 ms frames at real-time pace, silence between questions. The agent's audio is
played at the call's pace (each mark echoed once the audio before it has played) and the next
question waits until it has been heard and the agent is quiet. Per question: from the end of the
caller's speech (the frame with its last loud sample sent) to the first frame of the answer; per
call: from `start` to the opening's first frame. --load alone,journey runs the questions alone
(the reference), then while another user on the same server listens to a journey in real time
(bench/voice-latency.py's listener), and `busy` with a third user's chat stories written too;
the ratio says what the others cost the caller. A call
is placed by a new user (a trial: 60 s a call) whenever less than 25 s of the current one is
left. The first question of each run warms the model and is not counted.

    bench/call-first-audio.py .build/release/storyvoice --answers [--questions 10] [--load alone,journey] [--scenario default]
"""
import argparse, array, base64, collections, importlib.util, json, math, os, socket, statistics, struct, subprocess, tempfile, threading, \
    time, urllib.request, uuid

# The other bench's questions, journey listener and HTTP client.
_spec = importlib.util.spec_from_file_location("voice_latency", os.path.join(os.path.dirname(os.path.abspath(__file__)), "voice-latency.py"))
voice_latency = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(voice_latency)

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port

class Socket:
    """The client half of RFC 6455, text frames only: enough for the media stream."""
    def __init__(self, port, path):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=300)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        assert b" 101 " in head.split(b"\r\n")[0], head

    def send(self, message):
        data = json.dumps(message).encode()
        mask = os.urandom(4)
        size = len(data)
        header = bytes([0x81]) + (bytes([0x80 | size]) if size < 126 else bytes([0x80 | 126]) + struct.pack(">H", size)
                                  if size < 65536 else bytes([0x80 | 127]) + struct.pack(">Q", size))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _exactly(self, count):
        data = b""
        while len(data) < count:
            piece = self.sock.recv(count - len(data))
            if not piece: raise EOFError
            data += piece
        return data

    def receive(self):
        first, second = self._exactly(2)
        size = second & 0x7F
        if size == 126: size = struct.unpack(">H", self._exactly(2))[0]
        elif size == 127: size = struct.unpack(">Q", self._exactly(8))[0]
        payload = self._exactly(size)
        if first & 0x0F == 0x8: raise EOFError
        return json.loads(payload) if first & 0x0F == 0x1 else None

    def close(self):
        try:
            self.send({"event": "stop", "streamSid": "MZbench"})
            self.sock.close()
        except OSError:
            pass

SILENCE = b"\xff" * 160

def question_audio(binary, asker, text, directory, index):
    """`text` spoken by `asker` as 8 kHz μ-law frames, cut after the frame with the last loud sample."""
    wav = os.path.join(directory, f"caller-{index}.wav")
    subprocess.run([binary, "say", text, "--voice", asker, "--output", wav], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    def converted(*codec):
        return subprocess.run(["ffmpeg", "-loglevel", "error", "-i", wav, "-ac", "1", "-ar", "8000", *codec, "-"],
                              check=True, stdout=subprocess.PIPE).stdout
    pcm, mulaw = array.array("h", converted("-f", "s16le")), converted("-f", "mulaw")
    loud = [i for i in range(0, len(pcm) // 160) if math.sqrt(sum(x * x for x in pcm[i * 160:(i + 1) * 160]) / 160) > 400]
    frames = [mulaw[i * 160:(i + 1) * 160] for i in range(0, (loud[-1] + 1) if loud else 0)]
    return [frame.ljust(160, b"\xff") for frame in frames]

class Line:
    """A phone line on the media stream. The caller's side sends a 20 ms frame every 20 ms (its
    question's frames, else silence) and echoes each mark once the agent's audio before it has
    played; the agent's frames are timed as they arrive."""
    def __init__(self, stream):
        self.stream, self.lock = stream, threading.Lock()
        self.speech = collections.deque()
        self.spoken = threading.Event()
        self.spoken_at = None
        self.frames = []  # arrival times of the agent's frames
        self.playhead = 0.0  # when the agent's audio received so far will have played
        self.marks = []  # (when played, name)
        self.closed = False
        threading.Thread(target=self._send, daemon=True).start()
        threading.Thread(target=self._receive, daemon=True).start()

    def say(self, frames):
        """Speaks `frames`; returns when the last has been sent (the moment the caller stopped)."""
        self.spoken.clear()
        with self.lock:
            self.speech.extend(frames)
        self.spoken.wait()
        return self.spoken_at

    def first_frame_after(self, moment, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline and not self.closed:
            with self.lock:
                later = [at for at in self.frames if at > moment]
            if later: return later[0]
            time.sleep(0.01)
        return None

    def wait_quiet(self, quiet=1.5, timeout=120):
        """Until the agent's audio has played and nothing has come for `quiet` seconds."""
        deadline = time.time() + timeout
        while time.time() < deadline and not self.closed:
            with self.lock:
                last = max([self.playhead] + self.frames[-1:])
            if time.time() > last + quiet: return
            time.sleep(0.05)

    def close(self):
        self.closed = True
        time.sleep(0.05)  # the sender's last frame
        self.stream.close()

    def _send(self):
        tick, chunk = time.time(), 0
        while not self.closed:
            with self.lock:
                frame = self.speech.popleft() if self.speech else None
                last = frame is not None and not self.speech
                due = [name for at, name in self.marks if at <= time.time()]
                self.marks = [(at, name) for at, name in self.marks if at > time.time()]
            chunk += 1
            try:
                self.stream.send({"event": "media", "streamSid": "MZbench", "sequenceNumber": str(chunk + 1), "media": {
                    "track": "inbound", "chunk": str(chunk), "timestamp": str(chunk * 20),
                    "payload": base64.b64encode(frame or SILENCE).decode()}})
                for name in due:
                    self.stream.send({"event": "mark", "streamSid": "MZbench", "mark": {"name": name}})
            except OSError:
                self.closed = True
            if last:
                self.spoken_at = time.time()
                self.spoken.set()
            tick += 0.02
            time.sleep(max(0, tick - time.time()))
        self.spoken.set()

    def _receive(self):
        try:
            while True:
                message = self.stream.receive()
                if not message: continue
                now, event = time.time(), message.get("event")
                with self.lock:
                    if event == "media":
                        self.frames.append(now)
                        self.playhead = max(self.playhead, now) + len(base64.b64decode(message["media"]["payload"])) / 8000
                    elif event == "mark":
                        self.marks.append((self.playhead, message["mark"]["name"]))
                    elif event == "clear":
                        self.marks, self.playhead = [], now
        except (OSError, EOFError, ValueError):
            self.closed = True

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--engines", default="espeak-ng,flite,piper")
    parser.add_argument("--scenarios", default="default,comedian,birthday_wishes")
    parser.add_argument("--ahead", type=float, default=0)
    parser.add_argument("--answers", action="store_true", help="time the answers to a caller's questions (see above)")
    parser.add_argument("--questions", type=int, default=10)
    parser.add_argument("--asker", default="piper:en_US-joe-medium", help="the caller's voice, for 'storyvoice say'")
    parser.add_argument("--scenario", default="default")
    parser.add_argument("--load", default="alone,journey", help="alone, journey, busy (a journey and chat generation), comma-separated (alone first: the reference)")
    parser.add_argument("--warm-load", type=float, default=20, help="seconds the journey runs before its questions")
    args = parser.parse_args()
    data, port = tempfile.mkdtemp(), free_port()
    env = dict(os.environ, STORYVOICE_DATA_DIR=data, STORYVOICE_ENGINES=args.engines, STORYVOICE_CALL_AGENT="local",
               STORYVOICE_CALL_OPENINGS_AHEAD="1" if args.ahead else "0")
    env.pop("OPENAI_API_KEY", None)
    server = subprocess.Popen([args.binary, "serve", "--port", str(port), "--hostname", "127.0.0.1"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"

    def request(path, body=None, token=None, method=None):
        headers = {"Content-Type": "application/json"}
        if token: headers["Authorization"] = f"Bearer {token}"
        made = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None, headers=headers, method=method)
        return json.load(urllib.request.urlopen(made, timeout=600))

    def user():
        return request("/auth/register", {"email": f"bench-{uuid.uuid4().hex[:8]}@example.com", "password": "correct horse battery"})["access_token"]

    def connect(token, scenario):
        """A browser call's stream, started: (socket, ticket, moment `start` was sent)."""
        ticket = request("/api/calls/browser", {"scenario": scenario}, token)
        stream = Socket(port, ticket["media_stream_path"])
        stream.send({"event": "connected", "protocol": "Call", "version": "1.0.0"})
        started = time.time()
        stream.send({"event": "start", "sequenceNumber": "1", "streamSid": "MZbench", "start": {
            "streamSid": "MZbench", "accountSid": "", "callSid": "", "tracks": ["inbound"],
            "customParameters": {"call_token": ticket["token"]},
            "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000, "channels": 1}}})
        return stream, ticket, started

    def answers(questions, label):
        """Asks each question on calls placed as needed: (seconds to each answer's first audio
        (None: none came), seconds from each call's start to its first audio)."""
        waits, openings, line, ends = [], [], None, 0
        try:
            for index, (text, frames) in enumerate(questions):
                if line is None or line.closed or time.time() > ends:
                    if line: line.close()
                    stream, ticket, started = connect(user(), args.scenario)
                    line = Line(stream)
                    first = line.first_frame_after(0, timeout=300)
                    openings.append(first - started if first else None)
                    ends = (first or time.time()) + ticket["duration_limit"] - 25
                    line.wait_quiet()
                asked = time.time()
                stopped = line.say(frames)
                answered = line.first_frame_after(asked, timeout=60)
                wait = answered - stopped if answered else None
                line.wait_quiet()
                print(f"  [{label}] {text!r:40} first audio of the answer {f'{wait:5.2f} s' if wait is not None else 'never'} after the caller stopped"
                      + (" (warm-up)" if index == 0 else ""), flush=True)
                if index: waits.append(wait)
        finally:
            if line: line.close()
        return waits, openings

    def call(token, scenario, whole=False):
        """Seconds from `start` to the agent's first audio, and from the ticket's request. With
        `whole`, the call stays up until the agent has been silent for 5 s (its greeting said
        whole is kept for the next call)."""
        asked = time.time()
        stream, _, started = connect(token, scenario)
        try:
            while True:
                message = stream.receive()
                if message and message.get("event") == "media":
                    first = time.time() - started, time.time() - asked
                    if whole:
                        stream.sock.settimeout(5)
                        try:
                            while True: stream.receive()
                        except (socket.timeout, EOFError):
                            pass
                    return first
        except EOFError:
            return None, None
        finally:
            stream.close()

    def run_answers():
        texts = ["Hello there."] + voice_latency.QUESTIONS[:args.questions]
        questions = [(text, question_audio(args.binary, args.asker, text, data, i)) for i, text in enumerate(texts)]
        results = {}
        for load in args.load.split(","):
            listener = None
            if load in ("journey", "busy"):
                # busy: a third user also has chat stories written, one after another.
                listener = voice_latency.Load(base, args.binary, env, chat=load == "busy")
                listener.start()
                time.sleep(args.warm_load)
            results[load] = answers(questions, load)
            if listener:
                listener.finish()
                print(f"  while the journey played: its listener waited {len(listener.waits)} times "
                      f"({', '.join(f'{w:.1f}s' for w in listener.waits)}); {len(listener.chats)} chat stories written; "
                      f"failures: {listener.failures or 'none'}", flush=True)
        print("\nmedians (answers: from the end of the caller's speech to the agent's first audio; openings: from start):")
        def median(values):
            done = [v for v in values if v is not None]
            return (statistics.median(done) if done else None), len(done), len(values)
        reference = median(results["alone"][0])[0] if "alone" in results else None
        for load, (waits, openings) in results.items():
            answer, answered, asked = median(waits)
            opening, opened, calls = median(openings)
            ratio = f"  ×{answer / reference:.2f} of alone" if answer and reference and load != "alone" else ""
            print(f"  {load:8} answers {f'{answer:5.2f} s' if answer is not None else '  -  '} ({answered}/{asked} answered){ratio};"
                  f"  openings {f'{opening:5.2f} s' if opening is not None else '  -  '} ({opened}/{calls} calls)")
        print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")

    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(base + "/health", timeout=2); break
            except Exception:
                time.sleep(0.2)
        time.sleep(args.ahead)
        if args.answers:
            run_answers()
            return
        rows = []
        for scenario in args.scenarios.split(","):
            token = user()
            for label in ("first call", "second call"):
                after_start, after_ticket = call(token, scenario)
                rows.append((scenario, label, after_start))
                print(f"{scenario:22} {label:12} first audio {after_start or 0:6.2f} s after start ({after_ticket or 0:6.2f} s after asking for the ticket)", flush=True)
        token = user()
        custom = request("/mobile/scenarios", {"name": "Pirate", "voice": "ballad",
                         "prompt": "You are Captain Salt, a jolly pirate calling to recruit a deckhand for a treasure hunt."}, token)
        for label in ("made just now", "called again"):
            after_start, after_ticket = call(token, custom["id"], whole=True)
            print(f"{'custom (pirate)':22} {label:12} first audio {after_start or 0:6.2f} s after start ({after_ticket or 0:6.2f} s after asking for the ticket)", flush=True)
        print(f"\nload average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    finally:
        server.terminate()
        server.wait(timeout=30)

if __name__ == "__main__":
    main()
