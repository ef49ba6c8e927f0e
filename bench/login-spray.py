#!/usr/bin/env python3
"""A login spray (100 logins, each a new email from its own address, bcrypt at its real cost)
against a throwaway server, while a signed-in reader lists their stories: the reader's latency
(p50, p99) idle and during the spray, and what the logins were answered. Figures, not a test.

    bench/login-spray.py .build/release/storyvoice
"""
import json, sys, threading, time, urllib.request, urllib.error, subprocess, tempfile, os, socket, statistics
binary = sys.argv[1]
def free():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p
port = free(); data = tempfile.mkdtemp()
env = dict(os.environ, STORYVOICE_DATA_DIR=data, STORYVOICE_ENGINES="espeak-ng", STORYVOICE_TRUST_PROXY="1")
server = subprocess.Popen([binary, "serve", "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
base = f"http://127.0.0.1:{port}"
def call(method, path, body=None, headers={}, timeout=60):
    req = urllib.request.Request(base + path, data=body, method=method, headers=headers)
    t = time.time()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r: return r.status, r.read(), time.time() - t
    except urllib.error.HTTPError as e: return e.code, e.read(), time.time() - t
for _ in range(200):
    try:
        if call("GET", "/health")[0] == 200: break
    except Exception: time.sleep(0.1)
token = json.loads(call("POST", "/auth/register", json.dumps({"email": "reader@example.com", "password": "correct horse battery"}).encode(), {"Content-Type": "application/json"})[1])["access_token"]
def stories(samples, stop):
    while not stop.is_set():
        status, _, dt = call("GET", "/api/stories", headers={"Authorization": f"Bearer {token}"})
        samples.append((status, dt)); time.sleep(0.05)
def measure(label, spray):
    samples, stop = [], threading.Event()
    reader = threading.Thread(target=stories, args=(samples, stop)); reader.start()
    statuses = []
    def login(i):
        body = f"username=spray{i}%40example.com&password=wrong-password".encode()
        statuses.append(call("POST", "/auth/login", body, {"Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": f"198.51.100.{i % 250}"})[0])
    threads = [threading.Thread(target=login, args=(i,)) for i in range(spray)]
    start = time.time()
    for t in threads: t.start()
    for t in threads: t.join()
    if spray == 0: time.sleep(5)
    stop.set(); reader.join()
    lat = sorted(dt for _, dt in samples)
    p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000
    counts = {s: statuses.count(s) for s in set(statuses)}
    print(f"{label}: {spray} logins in {time.time()-start:.1f} s, login statuses {counts}; GET /api/stories n={len(lat)} p50 {p(0.5):.0f} ms p99 {p(0.99):.0f} ms, statuses {sorted(set(s for s, _ in samples))}")
try:
    measure("idle", 0)
    measure("spray", 100)
finally:
    server.terminate(); server.wait()
