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

With other people on the same server (issue 45: the model on this machine is shared):

    bench/journey-first-audio.py .build/release/storyvoice --runs 1 --listen 8 --talker spoken --chat

`--listen 8` plays 8 parts in real time and lists every wait for audio (where and how long; the
goal is none). `--talker spoken` has another user talk meanwhile: a question spoken by
espeak-ng through POST /api/voice/turn every `--talk-every` seconds (`typed`: the text through
POST /api/voice/reply, the model's part alone); each turn's time to its first audio (typed: first
words) is printed against the same turns with nothing else running, measured first. `--chat`
has a third user generate chat stories (POST /api/chat/generate, the model on this machine, one
after another) meanwhile; each generation's time is printed. Both stop when the listener does.
"""
import argparse, json, os, socket, statistics, subprocess, tempfile, threading, time, urllib.error, urllib.request, uuid

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


QUESTIONS = ["What is the capital of France?", "How many legs does a spider have?", "Why is the sky blue?",
             "Who wrote Romeo and Juliet?", "What do bees make?", "What is the largest ocean?"]


def register(client):
    email = f"bench-{uuid.uuid4().hex[:6]}@example.com"
    client.token = client.call("POST", "/auth/register", {"email": email, "password": "correct horse battery"})["access_token"]
    return email


def events(request, timeout=600):
    """Server-sent events of a voice request, with the seconds since it was sent."""
    sent = time.time()
    with urllib.request.urlopen(request, timeout=timeout) as response:
        for raw in response:
            line = raw.decode().strip()
            if line.startswith("data: "):
                yield time.time() - sent, json.loads(line[6:])


def talk(client, question, mode, folder):
    """One turn of the talker: spoken (a WAV through POST /api/voice/turn) to its first audio, or
    typed (POST /api/voice/reply) to its first words; read to the end (a turn left half-read keeps
    the model busy). None when it failed."""
    if mode == "spoken":
        wav = os.path.join(folder, f"talk-{uuid.uuid4().hex[:6]}.wav")
        subprocess.run(["espeak-ng", "-w", wav, question], check=True)
        boundary = uuid.uuid4().hex
        payload = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"q.wav\"\r\nContent-Type: audio/wav\r\n\r\n").encode() \
            + open(wav, "rb").read() + f"\r\n--{boundary}--\r\n".encode()
        request = urllib.request.Request(client.base + "/api/voice/turn", data=payload, headers={
            "Authorization": f"Bearer {client.token}", "Content-Type": f"multipart/form-data; boundary={boundary}"})
        first_of = "tts-audio"
    else:
        request = urllib.request.Request(client.base + "/api/voice/reply", data=json.dumps({"text": question}).encode(), headers={
            "Authorization": f"Bearer {client.token}", "Content-Type": "application/json"})
        first_of = "llm-delta"
    first = None
    for seconds, event in events(request):
        if first is None and event["type"] == first_of:
            first = seconds
        if event["type"] == "error":
            return None
    return first


class Alongside:
    """A talker and a chat generator, each another user of the same server, working until stopped."""

    def __init__(self, base, binary, env, folder, talker=None, talk_every=20.0, chat=False):
        self.stop, self.threads, self.turns, self.chats, self.failures = threading.Event(), [], [], [], []
        if talker:
            client = Client(base); register(client)
            self.threads.append(threading.Thread(target=self.talk, args=(client, talker, talk_every, folder), daemon=True))
        if chat:
            client = Client(base); email = register(client)
            # The chat generator is premium; the operator grants it as the App Store purchase would.
            subprocess.run([binary, "admin", "grant-premium", email], env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.threads.append(threading.Thread(target=self.chat, args=(client,), daemon=True))

    def talk(self, client, mode, every, folder):
        index = 0
        while not self.stop.is_set():
            first = talk(client, QUESTIONS[index % len(QUESTIONS)], mode, folder)
            (self.turns if first is not None else self.failures).append(first if first is not None else "talk")
            index += 1
            self.stop.wait(every)

    def chat(self, client):
        while not self.stop.is_set():
            began = time.time()
            try:
                client.call("POST", "/api/chat/generate", {"prompt": "my roommate keeps eating my food", "genre": "comedy", "length": "short"})
                self.chats.append(time.time() - began)
            except urllib.error.HTTPError as error:  # a refusal is a figure too, with what it said
                self.failures.append(f"chat: {error} {error.read()[:300].decode(errors='replace')}")
            except Exception as error:
                self.failures.append(f"chat: {error}")

    def __enter__(self):
        for thread in self.threads: thread.start()
        return self

    def __exit__(self, *_):
        self.stop.set()
        for thread in self.threads: thread.join(timeout=600)


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
    "preparing the next part"), every wait as (part, sentence, seconds), when each part was
    ready, and the journey as last seen."""
    part, sentence, waited, gaps, ready_at, began = 1, 0, 0.0, [], {}, None
    while part <= parts:
        state = client.call("GET", f"/api/journeys/{journey_id}")
        for told in state["parts"]:
            if told["status"] == "ready" and told["number"] not in ready_at:
                ready_at[told["number"]] = time.time() - sent
        if state["status"] == "failed":
            raise SystemExit("the journey failed: " + str(state["error"]))
        current = state["parts"][part - 1] if part <= len(state["parts"]) else {"sentences": [], "status": "pending"}
        if sentence < len(current["sentences"]):
            if began is not None:
                gaps.append((part, sentence, time.time() - began)); began = None
            client.call("PUT", f"/api/journeys/{journey_id}/playhead", {"part": part, "sentence": sentence})
            time.sleep(current["sentences"][sentence]["duration_s"])
            sentence += 1
        elif current["status"] == "ready":
            part, sentence = part + 1, 0
        else:
            if began is None:
                began = time.time()
                # The player says where it waits (the playhead), as the web app does.
                client.call("PUT", f"/api/journeys/{journey_id}/playhead", {"part": part, "sentence": sentence})
            time.sleep(0.25)
    waited = sum(gap[2] for gap in gaps)
    return waited, gaps, ready_at, state


# (seconds to the story's first sentence, seconds the listener waited for it after the title, prepared), per journey.
STORY_FIRSTS = []


def journey(client, prepare=True, first_only=False, read_plan=8.0, hear=0, texts=None, alongside=None):
    story = {"start": START, "end": END, "mode": "walking", "style": "fantasy"}
    plan = client.call("POST", "/api/journeys/plan", {"start": START, "end": END, "mode": "walking"})
    if prepare:  # as the web app does when it shows the plan
        client.call("POST", "/api/journeys/prepare", story)
    time.sleep(read_plan)  # the user reads the plan; the model on the machine loads meanwhile
    sent = time.time()
    created = client.call("POST", "/api/journeys", story)
    # First audio: the first sentence of part 1, whatever it is (the journey's spoken title);
    # the story's own first sentence (the model's) is timed too, as `story_first`.
    first = story_first = None
    while story_first is None:
        state = client.call("GET", f"/api/journeys/{created['id']}")
        sentences = state["parts"][0]["sentences"] if state["parts"] else []
        if sentences and first is None:
            client.call("GET", sentences[0]["audio_url"], raw=True)
            first = time.time() - sent
        told = [s for s in sentences if not s.get("announcement")]
        if told:
            client.call("GET", told[0]["audio_url"], raw=True)
            story_first = time.time() - sent
            # The listener hears the title first: the story's sentence is late only by what
            # it comes after the title has played.
            title = sum(s["duration_s"] for s in sentences if s.get("announcement"))
            STORY_FIRSTS.append((story_first, max(0.0, story_first - (first + title)), prepare))
        elif state["status"] == "failed":
            raise SystemExit("the journey failed: " + str(state["error"]))
        else:
            time.sleep(0.1)
    if first_only:
        client.call("DELETE", f"/api/journeys/{created['id']}")
        return first
    if hear:
        with (alongside or Alongside(client.base, None, None, None)):
            waited, gaps, ready_at, state = listen(client, created["id"], min(hear, plan["parts"]), sent)
        durations = [part["duration_s"] for part in state["parts"]]
        heard = min(hear, plan["parts"])
        print(f"  listened to {heard} parts: waited for audio {len(gaps)} times, {waited:.1f} s in all"
              + (" (" + ", ".join(f"{s:.1f} s before part {p} sentence {k + 1}" for p, k, s in gaps) + ")" if gaps else "")
              + "; parts ready at " + ", ".join(f"{n}: {t:.0f} s" for n, t in sorted(ready_at.items()))
              + f"; {sum(durations[:heard]) / 60:.1f} min of story made by {ready_at.get(heard, 0) / 60:.1f} min", flush=True)
        words = [len(" ".join(s["text"] for s in part["sentences"]).split()) for part in state["parts"][:heard]]
        print("  parts heard (s, words; planned 60 s, " + f"{plan['words_per_part']} words): "
              + ", ".join(f"{d:.0f} s/{w}" for d, w in zip(durations[:heard], words)), flush=True)
        if alongside and (alongside.turns or alongside.chats or alongside.failures):
            turns = alongside.turns
            print(f"  alongside: {len(turns)} talker turns, first audio median {statistics.median(turns):.2f} s, max {max(turns):.2f} s"
                  if turns else "  alongside: no talker turn answered", flush=True)
            if alongside.chats:
                print(f"  alongside: {len(alongside.chats)} chat stories generated, " + ", ".join(f"{t:.0f} s" for t in alongside.chats), flush=True)
            if alongside.failures:
                print(f"  alongside failures: {alongside.failures[:5]}", flush=True)
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
    parser.add_argument("--talker", choices=["spoken", "typed"],
                        help="while listening, another user talks: spoken questions (POST /api/voice/turn) or typed ones (POST /api/voice/reply)")
    parser.add_argument("--talk-every", type=float, default=20.0, help="seconds between the talker's turns (default 20)")
    parser.add_argument("--chat", action="store_true", help="while listening, a third user generates chat stories (POST /api/chat/generate)")
    parser.add_argument("--server-log", help="append the server's log (each journey part's deadline decision) to this file")
    parser.add_argument("--smoke", action="store_true", help="start the server, run one of each request, and stop (checks the script, measures nothing)")
    args = parser.parse_args()
    data, port = tempfile.mkdtemp(), free_port()
    env = dict(os.environ, STORYVOICE_DATA_DIR=data, STORYVOICE_ENGINES=args.engines)
    log = open(args.server_log, "a") if args.server_log else subprocess.DEVNULL
    if args.server_log:
        env["STORYVOICE_LOG_LEVEL"] = "info"
    server = subprocess.Popen([args.binary, "serve", "--port", str(port), "--hostname", "127.0.0.1"], env=env,
                              stdout=log, stderr=log)
    client = Client(f"http://127.0.0.1:{port}")
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(client.base + "/health", timeout=2); break
            except Exception:
                time.sleep(0.2)
        register(client)
        voice_turn(client)  # warms the model and the voice
        if args.smoke:
            smoke(client, args, env, data)
            return
        alone = []
        if args.talker:
            # The talker's turns with nothing else running: what the same turns take alone.
            talker = Client(client.base); register(talker)
            alone = [t for t in (talk(talker, question, args.talker, data) for question in QUESTIONS[:3]) if t is not None]
            print(f"talker alone ({args.talker}): first {'audio' if args.talker == 'spoken' else 'words'} "
                  + ", ".join(f"{t:.2f} s" for t in alone), flush=True)
        references, firsts, colds, speeds = [], [], [], []
        for run in range(args.runs):
            # A run outlasts an access token: each signs in afresh.
            register(client)
            reference = voice_turn(client)
            alongside = Alongside(client.base, args.binary, env, data, talker=args.talker, talk_every=args.talk_every, chat=args.chat) \
                if args.listen and (args.talker or args.chat) else None
            first, story, made, words, fallbacks, title = journey(client, read_plan=args.read_plan, hear=args.listen, texts=args.texts, alongside=alongside)
            if alongside and alongside.turns and alone:
                print(f"  talker with the journey{' and the chat generator' if args.chat else ''}: median {statistics.median(alongside.turns):.2f} s "
                      f"against {statistics.median(alone):.2f} s alone (×{statistics.median(alongside.turns) / statistics.median(alone):.1f})", flush=True)
            cold = journey(client, prepare=False, first_only=True, read_plan=args.read_plan)
            references.append(reference); firsts.append(first); colds.append(cold); speeds.append(story / made)
            print(f"run {run + 1}: first audio {first:5.2f} s (the story's own {STORY_FIRSTS[-2][0]:5.2f} s, a wait after the title of {STORY_FIRSTS[-2][1]:4.2f} s), not prepared {cold:5.2f} s (voice-chat turn {reference:5.2f} s, ×{first / reference:.2f}); "
                  f"{len(words)} parts ready, {story / 60:.1f} min of story in {made / 60:.1f} min = {story / made:.2f} min/min; "
                  f"words {words}; from the beat: {sum(fallbacks)}; title {title!r}", flush=True)
        print(f"\nmedian time to first audio {statistics.median(firsts):.2f} s (goal < 5 s; "
              f"{statistics.median(colds):.2f} s without the opening prepared while the plan is shown); "
              f"reference voice-chat turn {statistics.median(references):.2f} s; "
              f"generation {statistics.median(speeds):.2f} minutes of story a minute (must stay > 1); "
              f"the story's first sentence {statistics.median(t for t, _, p in STORY_FIRSTS if p):.2f} s, heard "
              f"{statistics.median(w for _, w, p in STORY_FIRSTS if p):.2f} s after the title ended (medians, prepared); "
              f"load average {os.getloadavg()[0]:.1f}")
    finally:
        server.terminate(); server.wait()


def smoke(client, args, env, folder):
    """One of each request the benchmark makes, to check the script against the server."""
    plan = client.call("POST", "/api/journeys/plan", {"start": START, "end": END, "mode": "walking"})
    print(f"smoke: plan {plan['start']['name']} → {plan['end']['name']}, {plan['parts']} parts", flush=True)
    created = client.call("POST", "/api/journeys", {"start": START, "end": END, "mode": "walking", "style": "fantasy"})
    client.call("PUT", f"/api/journeys/{created['id']}/playhead", {"part": 1, "sentence": 0})
    client.call("DELETE", f"/api/journeys/{created['id']}")
    with Alongside(client.base, args.binary, env, folder, talker=args.talker, chat=False) as alongside:
        time.sleep(0.5)
    print(f"smoke: talker turns {alongside.turns}, failures {alongside.failures}", flush=True)
    if args.chat:
        chat = Client(client.base); email = register(chat)
        subprocess.run([args.binary, "admin", "grant-premium", email], env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(f"smoke: chat generator open to the third user: {chat.call('GET', '/api/chat/entitlement').get('generator')}", flush=True)


if __name__ == "__main__":
    main()
