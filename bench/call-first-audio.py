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
"""
import argparse, base64, json, os, socket, struct, subprocess, tempfile, time, urllib.request, uuid

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

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--engines", default="espeak-ng,flite,piper")
    parser.add_argument("--scenarios", default="default,comedian,birthday_wishes")
    parser.add_argument("--ahead", type=float, default=0)
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

    def call(token, scenario, whole=False):
        """Seconds from `start` to the agent's first audio, and from the ticket's request. With
        `whole`, the call stays up until the agent has been silent for 5 s (its greeting said
        whole is kept for the next call)."""
        asked = time.time()
        ticket = request("/api/calls/browser", {"scenario": scenario}, token)
        stream = Socket(port, ticket["media_stream_path"])
        stream.send({"event": "connected", "protocol": "Call", "version": "1.0.0"})
        started = time.time()
        stream.send({"event": "start", "sequenceNumber": "1", "streamSid": "MZbench", "start": {
            "streamSid": "MZbench", "accountSid": "", "callSid": "", "tracks": ["inbound"],
            "customParameters": {"call_token": ticket["token"]},
            "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000, "channels": 1}}})
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

    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(base + "/health", timeout=2); break
            except Exception:
                time.sleep(0.2)
        time.sleep(args.ahead)
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
