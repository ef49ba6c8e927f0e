#!/usr/bin/env python3
"""Line audio with the data directory alone and with a shared S3 store on loopback (issue 52):
two throwaway servers on one PostgreSQL database and one SeaweedFS bucket (scripts/postgres-test,
scripts/s3-test), the second running no jobs. A new reader's welcome story is analysed on the
first; then its first --lines lines are asked for, one at a time, as a player asks:

  rendered       the first server renders each line (the reference for what a miss costs)
  cached here    the first server again: its data directory has them
  from the store the second server: its data directory has none, the bucket has them all
  cached there   the second server again: fetched once, now its own

Per case p50 and p99 of the request's time (to the last byte), and the ratio of each to
"cached here" (the data-directory reference measured in the same run). The goal: cached line
audio p99 under 50 ms with the store as without it.

Then exports, side by side: a third server with no store (its data directory only, SQLite) and
the first (its exports go to the bucket) each export a book of --copies copies of the story
to M4B twice (the second time every line is cached: assembling, encoding and keeping), then
the book is downloaded whole and read in 64 KiB ranges at random places, as a player seeks.
Ratios are to the data directory's. Figures, not a test; the load average is printed beside them.

    bench/shared-lines.py .build/release/storyvoice [--lines 40] [--engines espeak-ng] [--copies 4]
"""
import argparse, json, os, random, socket, statistics, subprocess, tempfile, time, urllib.request, uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(base, method, path, token=None, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    headers = dict(headers or {}, **({"Content-Type": "application/json"} if data else {}))
    if token:
        headers["Authorization"] = f"Bearer {token}"
    with urllib.request.urlopen(urllib.request.Request(base + path, data=data, method=method, headers=headers), timeout=600) as response:
        return response.read()


def start_server(binary, data, port, environment, workers):
    env = dict(os.environ, STORYVOICE_DATA_DIR=data, STORYVOICE_PUBLIC_DIR=os.path.join(ROOT, "Public"), **environment)
    log = open(os.path.join(data, "server.log"), "w")
    process = subprocess.Popen([binary, "serve", "--port", str(port), "--workers", str(workers), "--welcome-story", "examples/the-open-window.txt"],
                               cwd=ROOT, env=env, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            request(base, "GET", "/health")
            return process, base
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server on {port} did not start: see {data}/server.log")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def timed_lines(base, token, story, lines, first):
    times = []
    for n in range(first, first + lines):
        started = time.perf_counter()
        request(base, "GET", f"/api/stories/{story}/segments/{n}/audio", token)
        times.append(time.perf_counter() - started)
    return times


def wait_for_job(base, token, job):
    while True:
        state = json.loads(request(base, "GET", f"/api/jobs/{job}", token))
        if state["status"] in ("succeeded", "failed"):
            if state["status"] == "failed":
                raise SystemExit(f"job {job} failed: {state.get('error')}")
            return state
        time.sleep(0.1)


def reader(base):
    return json.loads(request(base, "POST", "/auth/register", body={"email": f"bench-{uuid.uuid4().hex[:8]}@example.com", "password": "correct horse battery"}))["access_token"]


def timed_export(base, copies):
    """(first export s, second export s, download MB/s, ranged p50 ms, ranged p99 ms, MB)."""
    token = reader(base)
    text = open(os.path.join(ROOT, "examples/the-open-window.txt"), encoding="utf-8").read()
    book = "\n\n".join(f"Chapter {n}\n\n{text}" for n in range(1, copies + 1))
    story = json.loads(request(base, "POST", "/api/stories", token, {"title": "A long stay", "text": book}))["id"]
    wait_for_job(base, token, json.loads(request(base, "POST", f"/api/stories/{story}/analyze", token, {}))["id"])
    times = []
    for _ in range(2):
        started = time.perf_counter()
        wait_for_job(base, token, json.loads(request(base, "POST", f"/api/stories/{story}/render", token, {"format": "m4b"}))["id"])
        times.append(time.perf_counter() - started)
    started = time.perf_counter()
    audio = request(base, "GET", f"/api/stories/{story}/audio", token)
    download = time.perf_counter() - started
    ranged = []
    generator = random.Random(7)
    for _ in range(40):
        start = generator.randrange(0, max(1, len(audio) - 65536))
        began = time.perf_counter()
        part = request(base, "GET", f"/api/stories/{story}/audio", token, headers={"Range": f"bytes={start}-{start + 65535}"})
        ranged.append(time.perf_counter() - began)
        assert part == audio[start:start + 65536], "a ranged read differs from the whole"
    megabytes = len(audio) / 1e6
    return times[0], times[1], megabytes / download, percentile(ranged, 0.5) * 1000, percentile(ranged, 0.99) * 1000, megabytes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--lines", type=int, default=40)
    parser.add_argument("--engines", default="espeak-ng")
    parser.add_argument("--from", dest="first", type=int, default=12, help="the first line timed (the analysis renders the opening ones)")
    parser.add_argument("--copies", type=int, default=4, help="copies of the story in the exported book (4: about 15 MB of M4B, a multipart upload)")
    options = parser.parse_args()
    database = subprocess.run([os.path.join(ROOT, "scripts/postgres-test"), "start"], check=True, capture_output=True, text=True).stdout.strip()
    store = subprocess.run([os.path.join(ROOT, "scripts/s3-test"), "start"], check=True, capture_output=True, text=True).stdout.strip()
    servers = []
    try:
        # A database of its own: the test cluster may hold others'.
        name = "bench_" + uuid.uuid4().hex[:12]
        subprocess.run(["psql", database, "-qc", f"CREATE DATABASE {name}"], check=True, capture_output=True)
        environment = {
            "DATABASE_URL": database.rsplit("/", 1)[0] + f"/{name}?sslmode=disable",
            "STORYVOICE_SECRET_KEY": __import__("base64").b64encode(os.urandom(32)).decode(),
            "STORYVOICE_S3_URL": store.split("?")[0] + f"/bench-{uuid.uuid4().hex[:8]}?" + store.split("?")[1],
            "STORYVOICE_ENGINES": options.engines,
        }
        scratch = tempfile.mkdtemp(prefix="shared-lines-")
        for name in ("a", "b", "c"):
            os.makedirs(os.path.join(scratch, name))
        first, first_base = start_server(options.binary, os.path.join(scratch, "a"), free_port(), environment, 1)
        servers.append(first)
        second, second_base = start_server(options.binary, os.path.join(scratch, "b"), free_port(), environment, 0)
        servers.append(second)
        token = json.loads(request(first_base, "POST", "/auth/register", body={"email": f"bench-{uuid.uuid4().hex[:8]}@example.com", "password": "correct horse battery"}))["access_token"]
        story = json.loads(request(first_base, "GET", "/api/stories", token))["stories"][0]["id"]
        while json.loads(request(first_base, "GET", f"/api/stories/{story}", token))["analysis_state"] != "analyzed":
            time.sleep(0.2)
        time.sleep(5)  # the analysis renders the opening lines: let that end before timing
        cases = {
            "rendered": timed_lines(first_base, token, story, options.lines, options.first),
            "cached here": timed_lines(first_base, token, story, options.lines, options.first),
            "from the store": timed_lines(second_base, token, story, options.lines, options.first),
            "cached there": timed_lines(second_base, token, story, options.lines, options.first),
        }
        reference = cases["cached here"]
        print(f"{options.lines} lines of The Open Window ({options.engines}); load average {open('/proc/loadavg').read().split()[:3]}")
        print(f"{'case':16} {'p50 ms':>8} {'p99 ms':>8} {'p50 ratio':>10} {'p99 ratio':>10}")
        for case, times in cases.items():
            p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
            print(f"{case:16} {p50 * 1000:8.1f} {p99 * 1000:8.1f} {p50 / percentile(reference, 0.5):10.2f} {p99 / percentile(reference, 0.99):10.2f}")

        # Exports: a server of its own on its data directory (no store, SQLite) beside the first.
        alone = {key: value for key, value in environment.items() if key not in ("STORYVOICE_S3_URL", "DATABASE_URL")}
        third, third_base = start_server(options.binary, os.path.join(scratch, "c"), free_port(), alone, 1)
        servers.append(third)
        exports = {"data directory": timed_export(third_base, options.copies), "S3 bucket": timed_export(first_base, options.copies)}
        base = exports["data directory"]
        print(f"\nexports of {options.copies} copies ({base[5]:.1f} MB of M4B); load average {open('/proc/loadavg').read().split()[:3]}")
        print(f"{'store':16} {'first s':>8} {'cached s':>9} {'MB/s':>8} {'range p50':>10} {'range p99':>10}   ratios to the data directory")
        for case, (first_s, cached_s, rate, p50, p99, _) in exports.items():
            print(f"{case:16} {first_s:8.2f} {cached_s:9.2f} {rate:8.1f} {p50:9.1f}ms {p99:9.1f}ms   "
                  f"{first_s / base[0]:.2f} {cached_s / base[1]:.2f} {rate / base[2]:.2f} {p50 / base[3]:.2f} {p99 / base[4]:.2f}")
    finally:
        for server in servers:
            server.kill()
        subprocess.run([os.path.join(ROOT, "scripts/s3-test"), "stop"], capture_output=True)
        subprocess.run([os.path.join(ROOT, "scripts/postgres-test"), "stop"], capture_output=True)


if __name__ == "__main__":
    main()
