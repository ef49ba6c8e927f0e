#!/usr/bin/env python3
"""Journeys: time from "Tell me a story" to the first audio, and how fast the story is made
(a benchmark, not a test).

    bench/journey-first-audio.py .build/release/storyvoice [--runs 3] [--engines espeak-ng,flite,piper]

A throwaway server with the engines on this machine (the model on the machine, the best
installed voice). Each run plans a 12-minute walk (which starts the model, as the web app's
Plan button does), waits while a user would read the plan, then POSTs the journey and polls
it every 0.1 s until the first sentence's audio can be fetched: that is the time to first
audio (goal: under 5 s). It then lets the teller fill its buffer (parts 1–4, the listener
still in part 1) and reports generation speed as minutes of story made per minute (must stay
above 1 for the buffer to hold).

Each run also starts a journey without preparing its opening (POST /api/journeys/prepare, which
the web app sends when it shows the plan) and stops it at its first audio: what the plan
screen's head start is worth.

Reference, in the same run: a typed voice-chat turn (POST /api/voice/turn with text) to its
first audio: the same model and voice answering one question, without a journey's job, outline
or longer prompt. The ratio says what a journey adds.
"""
import argparse, json, os, socket, statistics, subprocess, tempfile, time, urllib.request, uuid

START, END = "51.7520,-1.2577", "51.7600,-1.2577"  # 890 m north through Oxford: ~13 minutes on foot


def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port


class Client:
    def __init__(self, base):
        self.base, self.token = base, None

    def call(self, method, path, body=None, raw=False):
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"}
        if self.token: headers["Authorization"] = f"Bearer {self.token}"
        with urllib.request.urlopen(urllib.request.Request(self.base + path, data=data, method=method, headers=headers), timeout=600) as response:
            payload = response.read()
            return payload if raw else json.loads(payload or b"null")


def voice_turn(client):
    boundary = uuid.uuid4().hex
    payload = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\n"
               "Tell me a one-sentence story about a lantern.\r\n" f"--{boundary}--\r\n").encode()
    request = urllib.request.Request(client.base + "/api/voice/turn", data=payload, headers={
        "Authorization": f"Bearer {client.token}", "Content-Type": f"multipart/form-data; boundary={boundary}"})
    sent = time.time()
    first = None
    with urllib.request.urlopen(request, timeout=600) as response:
        # Read to the end: a turn left half-read keeps the model busy into the journey's run.
        for raw in response:
            line = raw.decode().strip()
            if first is None and line.startswith("data: ") and json.loads(line[6:])["type"] == "tts-audio":
                first = time.time() - sent
    return first


def listen(client, journey_id, parts, sent):
    """A listener who plays every sentence in real time from the first audio on, moving the
    playhead as the web app does. Returns the seconds spent waiting for audio (the player's
    "preparing the next part"), how many waits, and when each part was ready."""
    part, sentence, waited, waits, ready_at, waiting = 1, 0, 0.0, 0, {}, False
    while part <= parts:
        state = client.call("GET", f"/api/journeys/{journey_id}")
        for told in state["parts"]:
            if told["status"] == "ready" and told["number"] not in ready_at:
                ready_at[told["number"]] = time.time() - sent
        if state["status"] == "failed":
            raise SystemExit("the journey failed: " + str(state["error"]))
        current = state["parts"][part - 1] if part <= len(state["parts"]) else {"sentences": [], "status": "pending"}
        if sentence < len(current["sentences"]):
            waiting = False
            client.call("PUT", f"/api/journeys/{journey_id}/playhead", {"part": part, "sentence": sentence})
            time.sleep(current["sentences"][sentence]["duration_s"])
            sentence += 1
        elif current["status"] == "ready":
            part, sentence = part + 1, 0
        else:
            if not waiting:
                waits += 1
            waiting = True
            began = time.time(); time.sleep(0.25); waited += time.time() - began
    return waited, waits, ready_at, state


def journey(client, prepare=True, first_only=False, read_plan=8.0, hear=0, texts=None):
    story = {"start": START, "end": END, "mode": "walking", "style": "fantasy"}
    plan = client.call("POST", "/api/journeys/plan", {"start": START, "end": END, "mode": "walking"})
    if prepare:  # as the web app does when it shows the plan
        client.call("POST", "/api/journeys/prepare", story)
    time.sleep(read_plan)  # the user reads the plan; the model on the machine loads meanwhile
    sent = time.time()
    created = client.call("POST", "/api/journeys", story)
    first = None
    while first is None:
        state = client.call("GET", f"/api/journeys/{created['id']}")
        sentences = state["parts"][0]["sentences"] if state["parts"] else []
        if sentences:
            client.call("GET", sentences[0]["audio_url"], raw=True)
            first = time.time() - sent
        elif state["status"] == "failed":
            raise SystemExit("the journey failed: " + str(state["error"]))
        else:
            time.sleep(0.1)
    if first_only:
        client.call("DELETE", f"/api/journeys/{created['id']}")
        return first
    if hear:
        waited, waits, ready_at, state = listen(client, created["id"], min(hear, plan["parts"]), sent)
        durations = [part["duration_s"] for part in state["parts"]]
        heard = min(hear, plan["parts"])
        print(f"  listened to {heard} parts: waited for audio {waits} times, {waited:.1f} s in all; parts ready at "
              + ", ".join(f"{n}: {t:.0f} s" for n, t in sorted(ready_at.items()))
              + f"; {sum(durations[:heard]) / 60:.1f} min of story made by {ready_at.get(heard, 0) / 60:.1f} min", flush=True)
    if hear and len(ready_at) >= min(4, plan["parts"]):
        four = sorted(ready_at)[:min(4, plan["parts"])]
        parts = [part for part in state["parts"] if part["number"] in four]
        words = [len(" ".join(s["text"] for s in part["sentences"]).split()) for part in parts]
        if texts:  # the parts heard, with their beats
            with open(texts, "a") as out:
                for told in state["parts"]:
                    out.write(f"--- part {told['number']} ({told['status']}, beat: {told.get('beat')!r})\n"
                              + " ".join(s["text"] for s in told["sentences"]) + "\n")
        # Its teller would go on filling the buffer into the next measurement.
        client.call("DELETE", f"/api/journeys/{created['id']}")
        return first, sum(part["duration_s"] for part in parts), ready_at[four[-1]], words, [part["fallback"] for part in parts], state.get("title")
    # The buffer: parts 1-4 while the listener stays in part 1.
    while True:
        state = client.call("GET", f"/api/journeys/{created['id']}")
        ready = [part for part in state["parts"] if part["status"] == "ready"]
        if len(ready) >= min(4, plan["parts"]) or state["status"] != "telling":
            break
        time.sleep(0.5)
    made = time.time() - sent
    client.call("DELETE", f"/api/journeys/{created['id']}")
    story = sum(part["duration_s"] for part in ready)
    words = [len(" ".join(s["text"] for s in part["sentences"]).split()) for part in ready]
    return first, story, made, words, [part["fallback"] for part in ready], state.get("title")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--engines", default="espeak-ng,flite,piper")
    parser.add_argument("--listen", type=int, default=0,
                        help="also play the first N parts in real time, as a listener would, and count the waits for audio")
    parser.add_argument("--read-plan", type=float, default=8.0, help="seconds the user looks at the plan before starting")
    parser.add_argument("--texts", help="append the text of the parts heard (and their beats) to this file")
    args = parser.parse_args()
    data, port = tempfile.mkdtemp(), free_port()
    env = dict(os.environ, STORYVOICE_DATA_DIR=data, STORYVOICE_ENGINES=args.engines)
    server = subprocess.Popen([args.binary, "serve", "--port", str(port), "--hostname", "127.0.0.1"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = Client(f"http://127.0.0.1:{port}")
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(client.base + "/health", timeout=2); break
            except Exception:
                time.sleep(0.2)
        client.token = client.call("POST", "/auth/register", {"email": f"bench-{uuid.uuid4().hex[:6]}@example.com", "password": "correct horse battery"})["access_token"]
        voice_turn(client)  # warms the model and the voice
        references, firsts, colds, speeds = [], [], [], []
        for run in range(args.runs):
            # A run outlasts an access token: each signs in afresh.
            client.token = client.call("POST", "/auth/register", {"email": f"bench-{uuid.uuid4().hex[:6]}@example.com", "password": "correct horse battery"})["access_token"]
            reference = voice_turn(client)
            first, story, made, words, fallbacks, title = journey(client, read_plan=args.read_plan, hear=args.listen, texts=args.texts)
            cold = journey(client, prepare=False, first_only=True, read_plan=args.read_plan)
            references.append(reference); firsts.append(first); colds.append(cold); speeds.append(story / made)
            print(f"run {run + 1}: first audio {first:5.2f} s, not prepared {cold:5.2f} s (voice-chat turn {reference:5.2f} s, ×{first / reference:.2f}); "
                  f"{len(words)} parts ready, {story / 60:.1f} min of story in {made / 60:.1f} min = {story / made:.2f} min/min; "
                  f"words {words}; from the beat: {sum(fallbacks)}; title {title!r}", flush=True)
        print(f"\nmedian time to first audio {statistics.median(firsts):.2f} s (goal < 5 s; "
              f"{statistics.median(colds):.2f} s without the opening prepared while the plan is shown); "
              f"reference voice-chat turn {statistics.median(references):.2f} s; "
              f"generation {statistics.median(speeds):.2f} minutes of story a minute (must stay > 1); "
              f"load average {os.getloadavg()[0]:.1f}")
    finally:
        server.terminate(); server.wait()


if __name__ == "__main__":
    main()
