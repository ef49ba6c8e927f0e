#!/usr/bin/env python3
"""Measures the flagship (stories read aloud) on real novels, for the numbered items of issue #24.

Standard library only (like Tests/Browser/browser_test.py). Starts its own server (the given
binary, a free port, a temporary data and segment-cache directory, STORYVOICE_LOCAL_MODEL=off,
the engines of --engines), imports novels from ../shared/eval/pdnc-dev/ through the API as the
web app does (multipart upload), analyses them and prints figures. Each section is bounded by
its own timeouts; choose some with --only. Sections:

  segments  GET /api/stories/{id}/segments (the whole line list): time (median) and size, per novel  (items 4, 10)
  audio     GET .../segments/{n}/audio at the start, middle and end of a novel: an uncached line
            (first request) and a cached one (repeated), medians                                     (items 1, 10)
  page      the story page of a ~300k-character novel in headless Chromium: time until a line
            and Play show and until Play gives sound, DOM nodes/<option>s/<select>s, line rows
            (virtualised or not), chapters listed, title, favicon, how far down the lines are,
            raw line breaks or _italics_ in the rows, the voice picker (a <select> or the picker
            dialog), a voice that clashes with another character's (what changed, what the card
            says), a model analysis without a key (where the error shows), whether an upload
            starts the analysis, a bad story id, sign-out and a second reader on the same tab.
            Works with the page before and after the virtualised story page (44cf7bf).            (items 2, 3, 4, 5, 7, 8, 9)
  playback  in the browser: plays from the start (or from --playback-from) for --playback-seconds, then jumps to unrendered
            lines; silence between lines beyond the planned pauses, share of the window with
            sound, jump latency, what the play button and status say while it waits. Slow
            engines make the gaps: compare --engines espeak-ng,flite with
            --engines espeak-ng,flite,festival,piper                                               (item 1)
  text      line text with hard wraps or raw _italics_, from the line list                         (item 8)
  cast      one character's voice changed through PUT /api/stories/{id}/cast/{role} (as the web
            app does): whose voices changed                                                        (item 7)
  chapters  chapters the API reports (and the CLI finds) for a .txt and for an EPUB built here
            (title page + nav/TOC + chapters, EPUB 3); the EPUB's first lines: front matter?       (items 5, 6)
  export    Daisy Miller exported (M4B) twice, the second run from the segment cache: wall time,
            ffmpeg's CPU time and cores used, chapters in the M4B                                  (items 5, 11)
  errors    on a second server whose OpenAI base URL does not resolve (no network): a model
            analysis with no key and with a key; time until the job fails, attempts, messages,
            whether it can be cancelled, how long another reader's analysis waits                  (item 3)

Examples (run from the repository so the binary finds its scripts and venv):
  bench/flagship.py --binary .build/release/storyvoice
  bench/flagship.py --binary /work/snap/storyvoice --repo /work/main --only segments,audio
  bench/flagship.py --only page,playback --page-novel TheGambler --playback-seconds 90
  bench/flagship.py --only errors --error-timeout 900 --json out.json
The default set is every section but `errors` (which can take a quarter of an hour).
"""
import argparse
import base64
import io
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ALL_SECTIONS = ["segments", "audio", "page", "playback", "text", "cast", "chapters", "export", "errors"]
DEFAULT_SECTIONS = [s for s in ALL_SECTIONS if s != "errors"]
PASSWORD = "correct horse battery"
FINISHED = ("succeeded", "failed", "cancelled")
RESULTS = {}


def say(message):
    print(message, flush=True)


def record(section, key, value):
    RESULTS.setdefault(section, {})[key] = value


def median(values):
    return statistics.median(values) if values else None


def ms(seconds):
    return "n/a" if seconds is None else f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def load():
    try:
        with open("/proc/loadavg") as file:
            return " ".join(file.read().split()[:3])
    except OSError:
        return "?"


class Deadline(Exception):
    pass


def wait_until(description, probe, timeout, interval=0.25):
    """Calls probe() until it returns something truthy; raises Deadline after `timeout` s."""
    deadline = time.time() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.time() > deadline:
            raise Deadline(f"timed out after {timeout:.0f} s waiting for {description}")
        time.sleep(interval)


# --- the server ---------------------------------------------------------------------------------

class Server:
    """`storyvoice serve` on a free port with its own data and cache directories."""

    def __init__(self, options, extra_env=None, name="server"):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.dir = tempfile.mkdtemp(prefix=f"flagship-{name}-")
        env = dict(os.environ)
        env.update({
            "STORYVOICE_DATA_DIR": os.path.join(self.dir, "data"),
            "STORYVOICE_CACHE_DIR": os.path.join(self.dir, "cache"),
            "STORYVOICE_PUBLIC_DIR": os.path.join(options.repo, "Public"),
            "STORYVOICE_ENGINES": options.engines,
            "STORYVOICE_LOCAL_MODEL": "off",
        })
        env.update(extra_env or {})
        self.log_path = os.path.join(self.dir, "server.log")
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen([options.binary, "serve", "--port", str(self.port)], cwd=options.repo, env=env,
                                        stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        self.keep = options.keep
        try:
            wait_until("the server's /health", self.healthy, options.start_timeout, 0.3)
        except Deadline:
            self.stop()
            raise

    def healthy(self):
        if self.process.poll() is not None:
            raise RuntimeError(f"the server exited ({self.process.returncode}); see {self.log_path}")
        try:
            with urllib.request.urlopen(self.url + "/health", timeout=5) as response:
                return response.status == 200
        except OSError:
            return False

    def stop(self):
        if self.process.poll() is None:
            # Only the process group this script started (the server and its engines, ffmpeg).
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        self.log.close()
        if not self.keep:
            shutil.rmtree(self.dir, ignore_errors=True)


class HTTPFailure(Exception):
    def __init__(self, status, body):
        super().__init__(f"HTTP {status}: {body!r:.300}")
        self.status, self.body = status, body


class Client:
    """One account on the server, with a bearer token (signs in again when it expires)."""

    def __init__(self, base, email=None, register=True):
        self.base = base
        self.email = email or f"bench-{uuid.uuid4().hex[:10]}@example.com"
        self.token = None
        if register:
            self.token = self.call("POST", "/auth/register", {"email": self.email, "password": PASSWORD}, auth=False)["access_token"]
        else:
            self.login()

    def login(self):
        body = urllib.parse.urlencode({"username": self.email, "password": PASSWORD}).encode()
        self.token = self.call("POST", "/auth/login", data=body, auth=False,
                               headers={"Content-Type": "application/x-www-form-urlencoded"})["access_token"]

    def request(self, method, path, body=None, data=None, headers=None, auth=True, timeout=600, retried=False):
        """(status, bytes, seconds) of one request; HTTP errors are returned, not raised."""
        headers = dict(headers or {})
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if auth:
            headers["Authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                payload = response.read()
                return response.status, payload, time.perf_counter() - started
        except urllib.error.HTTPError as error:
            payload = error.read()
            if error.code == 401 and auth and not retried:
                self.login()
                return self.request(method, path, body, data, headers, auth, timeout, True)
            return error.code, payload, time.perf_counter() - started

    def call(self, method, path, body=None, ok=(200, 201, 202, 204), **kwargs):
        status, payload, _ = self.request(method, path, body, **kwargs)
        if status not in ok:
            raise HTTPFailure(status, payload[:500])
        return json.loads(payload) if payload else None

    def upload(self, filename, content):
        """POST /api/stories as multipart/form-data, as the web app's upload form does."""
        boundary = "----flagship" + uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{filename}\"\r\n"
                f"Content-Type: application/octet-stream\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
        return self.call("POST", "/api/stories", data=body, headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})

    def job(self, job_id):
        return self.call("GET", f"/api/jobs/{job_id}")

    def wait_job(self, job_id, timeout, on_change=None):
        last = None

        def finished():
            nonlocal last
            job = self.job(job_id)
            snapshot = (job["status"], job.get("message"), job.get("attempts"))
            if snapshot != last and on_change:
                on_change(job)
            last = snapshot
            return job if job["status"] in FINISHED else None
        return wait_until(f"job {job_id}", finished, timeout, 0.5)

    def analyse(self, story_id, timeout):
        started = time.time()
        job = self.call("POST", f"/api/stories/{story_id}/analyze", {})
        job = self.wait_job(job["id"], timeout)
        if job["status"] != "succeeded":
            raise RuntimeError(f"analysis failed: {job.get('error')}")
        return time.time() - started


class Library:
    """Novels imported and analysed once per server, shared by the sections that use them."""

    def __init__(self, options, client):
        self.options, self.client, self.stories = options, client, {}

    def novel_path(self, name):
        """`sample` is the repository's sample story; other names are folders of --novels."""
        if name == "sample":
            return os.path.join(self.options.repo, "examples", "the-open-window.txt")
        return os.path.join(self.options.novels, name, "novel_text.txt")

    def get(self, name, content=None, filename=None):
        if name not in self.stories:
            if content is None:
                with open(self.novel_path(name), "rb") as file:
                    content = file.read()
                filename = os.path.basename(self.novel_path(name)) if name == "sample" else f"{name}.txt"
            story = self.client.upload(filename, content)
            took = self.client.analyse(story["id"], self.options.analysis_timeout)
            say(f"  imported and analysed {name} ({story['character_count']:,} characters) in {took:.1f} s"
                f" (state right after the upload: {story['analysis_state']})")
            self.stories[name] = story
        return self.stories[name]

    def segments(self, name):
        story = self.get(name)
        return self.client.call("GET", f"/api/stories/{story['id']}/segments", timeout=self.options.request_timeout)["segments"]


# --- sections -----------------------------------------------------------------------------------

def section_segments(options, library):
    for name in options.segment_novels.split(","):
        story = library.get(name)
        times, size = [], None
        for _ in range(options.repeats):
            status, payload, took = library.client.request("GET", f"/api/stories/{story['id']}/segments", timeout=options.request_timeout)
            if status != 200:
                raise HTTPFailure(status, payload[:300])
            times.append(took)
            size = len(payload)
        reply = json.loads(payload)
        count = len(reply["segments"])
        say(f"  {name}: GET /segments (all) median {ms(median(times))} (min {ms(min(times))}, max {ms(max(times))}, n={len(times)}), "
            f"{size:,} bytes, {count:,} lines")
        figures = {"median_s": median(times), "min_s": min(times), "max_s": max(times), "bytes": size,
                   "lines": count, "characters": story["character_count"]}
        if "total" in reply:  # the server pages lines (?from=&count=)
            pages = {}
            for label, fraction in (("start", 0.0), ("middle", 0.5), ("end", 0.98)):
                first = int(fraction * count)
                page_times = []
                for _ in range(options.repeats):
                    status, page, took = library.client.request(
                        "GET", f"/api/stories/{story['id']}/segments?from={first}&count={options.page_size}", timeout=options.request_timeout)
                    if status != 200:
                        raise HTTPFailure(status, page[:300])
                    page_times.append(took)
                pages[label] = {"from": first, "median_s": median(page_times), "bytes": len(page)}
            say(f"    pages of {options.page_size} lines: " + ", ".join(
                f"{label} (from {p['from']}) {ms(p['median_s'])}, {p['bytes']:,} bytes" for label, p in pages.items()))
            figures["pages"] = pages
        else:
            say("    (this server does not page lines: no `total` in the reply)")
        record("segments", name, figures)


def pick_lines(segments, fraction, count, used):
    """`count` uncached lines of 100-400 characters nearest to `fraction` of the book."""
    centre = int(fraction * (len(segments) - 1))
    order = sorted(range(len(segments)), key=lambda i: abs(i - centre))
    chosen = []
    for index in order:
        line = segments[index]
        if index not in used and not line["cached"] and 100 <= len(line["text"]) <= 400:
            chosen.append(index)
            used.add(index)
            if len(chosen) == count:
                break
    return chosen


def section_audio(options, library):
    for name in options.audio_novels.split(","):
        story = library.get(name)
        segments = library.segments(name)
        used = set()
        figures = {}
        for label, fraction in (("start", 0.02), ("middle", 0.5), ("end", 0.98)):
            lines = pick_lines(segments, fraction, options.repeats, used)
            uncached, cached = [], []
            for index in lines:
                path = f"/api/stories/{story['id']}/segments/{index}/audio"
                status, payload, took = library.client.request("GET", path, timeout=options.request_timeout)
                if status != 200:
                    raise HTTPFailure(status, payload[:300])
                uncached.append(took)
            for _ in range(options.repeats):
                status, payload, took = library.client.request("GET", f"/api/stories/{story['id']}/segments/{lines[0]}/audio",
                                                               timeout=options.request_timeout)
                cached.append(took)
            chars = [len(segments[i]["text"]) for i in lines]
            say(f"  {name} {label:6} (lines {lines[0]}…, {min(chars)}-{max(chars)} chars): uncached median {ms(median(uncached))} "
                f"(max {ms(max(uncached))}), cached median {ms(median(cached))} (max {ms(max(cached))}); "
                f"{len(payload):,} bytes of WAV for line {lines[0]}")
            figures[label] = {"lines": lines, "uncached_median_s": median(uncached), "uncached_max_s": max(uncached),
                              "cached_median_s": median(cached), "cached_max_s": max(cached), "wav_bytes": len(payload)}
        record("audio", name, figures)


def section_text(options, library):
    for name in options.text_novels.split(","):
        segments = library.segments(name)
        wrapped = [line for line in segments if "\n" in line["text"].strip()]
        italics = [line for line in segments if re.search(r"(^|\W)_[^_\n]+_(\W|$)", line["text"])]
        example = italics[0]["text"] if italics else ""
        match = re.search(r"_[^_\n]+_", example)
        say(f"  {name}: {len(wrapped):,} of {len(segments):,} lines carry hard line breaks; {len(italics):,} show raw _italics_"
            + (f" (e.g. line {italics[0]['index']}: …{example[max(0, match.start() - 20):match.end() + 20]!r}…)" if match else ""))
        record("text", name, {"lines": len(segments), "hard_wrapped": len(wrapped), "raw_italics": len(italics)})


def section_cast(options, library):
    client = library.client
    for name, who in (("sample", "Sappleton"), (options.page_novel, None)):
        story = library.get(name)
        before = client.call("GET", f"/api/stories/{story['id']}/analysis")
        characters = before["analysis"]["characters"]
        target = next((c for c in characters if who and who in c["name"]), None) \
            or max(characters, key=lambda c: c["lines"])
        current = before["cast"]["characters"][target["id"]]
        voices = [v["id"] for v in client.call("GET", "/api/voices")["voices"]]
        new_voice = next((v for v in ("flite:slt", "flite:awb", "espeak-ng:en-us") if v in voices and v != current["voice"]),
                         next(v for v in voices if v != current["voice"]))
        choice = {"voice": new_voice, "rate": current["rate"], "pitch": current["pitch"], "volume": current["volume"]}
        after = client.call("PUT", f"/api/stories/{story['id']}/cast/{target['id']}", choice)
        names = {c["id"]: c["name"] for c in characters}
        changed = []
        for role, assignment in after["cast"]["characters"].items():
            old = before["cast"]["characters"].get(role, {}).get("voice")
            if role != target["id"] and old != assignment["voice"]:
                changed.append(f"{names.get(role, role)}: {old} -> {assignment['voice']}")
        if before["cast"]["narrator"]["voice"] != after["cast"]["narrator"]["voice"]:
            changed.append(f"Narrator: {before['cast']['narrator']['voice']} -> {after['cast']['narrator']['voice']}")
        reported = after.get("also_changed")
        said = "no also_changed in the reply" if reported is None else \
            f"the reply's also_changed names {len(reported)}: {[(r['name'], r['from'], r['to']) for r in reported]}"
        say(f"  {name}: gave {target['name']} {new_voice} (was {current['voice']}); "
            + (f"{len(changed)} other role(s) changed too: {'; '.join(changed)}" if changed else "no other role changed")
            + f"; {said}")
        record("cast", name, {"character": target["name"], "voice": new_voice, "others_changed": changed,
                              "also_changed": reported})


# --- EPUB -------------------------------------------------------------------------------------

def xml_escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def split_chapters(text):
    """(front matter, [(heading, body)]) split at lines that are a Roman numeral or 'CHAPTER …' alone."""
    heading = re.compile(r"^[ \t]*((?:CHAPTER|Chapter|PART|Part)\s+[IVXLC\d]+\.?|[IVXLC]+\.?)[ \t]*$", re.M)
    marks = list(heading.finditer(text))
    if len(marks) < 2:
        return text, [("Chapter 1", text)]
    chapters = []
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        chapters.append((mark.group(1).strip(), text[mark.end():end]))
    return text[:marks[0].start()], chapters


def paragraphs_html(text):
    return "\n".join(f"<p>{xml_escape(' '.join(p.split()))}</p>" for p in re.split(r"\n\s*\n", text) if p.strip())


def xhtml(title, body):
    return (f'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" '
            f'xmlns:epub="http://www.idpf.org/2007/ops" lang="en" xml:lang="en">\n<head><title>{xml_escape(title)}</title></head>\n'
            f"<body>\n{body}\n</body>\n</html>\n")


def build_epub(text, title, author):
    """An EPUB 3 as a publisher (or Project Gutenberg) makes one: a title page, the table of
    contents (the nav document, in the spine), then one document per chapter."""
    _, chapters = split_chapters(text)
    files = {}
    files["OEBPS/titlepage.xhtml"] = xhtml("Title Page", f'<section epub:type="titlepage"><h1>{xml_escape(title)}</h1>'
                                            f"<p>by {xml_escape(author)}</p></section>")
    toc = "\n".join(f'<li><a href="chapter{i + 1:03}.xhtml">Chapter {xml_escape(h)}</a></li>' for i, (h, _) in enumerate(chapters))
    files["OEBPS/nav.xhtml"] = xhtml("Table of Contents", '<nav epub:type="toc" id="toc"><h2>Table of Contents</h2><ol>\n'
                                     '<li><a href="titlepage.xhtml">Title Page</a></li>\n<li><a href="nav.xhtml">Table of Contents</a></li>\n'
                                     f"{toc}\n</ol></nav>")
    for i, (heading, body) in enumerate(chapters):
        files[f"OEBPS/chapter{i + 1:03}.xhtml"] = xhtml(f"Chapter {heading}", f"<h2>{xml_escape(heading)}</h2>\n{paragraphs_html(body)}")
    manifest = ['<item id="titlepage" href="titlepage.xhtml" media-type="application/xhtml+xml"/>',
                '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>']
    spine = ['<itemref idref="titlepage"/>', '<itemref idref="nav"/>']
    for i in range(len(chapters)):
        manifest.append(f'<item id="c{i + 1:03}" href="chapter{i + 1:03}.xhtml" media-type="application/xhtml+xml"/>')
        spine.append(f'<itemref idref="c{i + 1:03}"/>')
    files["OEBPS/content.opf"] = (
        '<?xml version="1.0" encoding="utf-8"?>\n<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">\n'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\n'
        f'<dc:identifier id="uid">urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, title)}</dc:identifier>\n'
        f"<dc:title>{xml_escape(title)}</dc:title>\n<dc:creator>{xml_escape(author)}</dc:creator>\n<dc:language>en</dc:language>\n"
        '<meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>\n</metadata>\n'
        f"<manifest>\n{chr(10).join(manifest)}\n</manifest>\n<spine>\n{chr(10).join(spine)}\n</spine>\n</package>\n")
    files["META-INF/container.xml"] = (
        '<?xml version="1.0"?>\n<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\n'
        '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>\n</container>\n')
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        for path, content in files.items():
            archive.writestr(path, content, compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue(), len(chapters)


def cli_chapters(options, path):
    try:
        done = subprocess.run([options.binary, "analyze", path, "--format", "json"], cwd=options.repo, capture_output=True,
                              timeout=options.analysis_timeout, env={**os.environ, "STORYVOICE_ENGINES": options.engines,
                                                                     "STORYVOICE_LOCAL_MODEL": "off"})
        return len(json.loads(done.stdout)["chapters"]) if done.returncode == 0 else f"exit {done.returncode}"
    except (subprocess.TimeoutExpired, ValueError, KeyError) as error:
        return f"failed ({type(error).__name__})"


def section_chapters(options, library):
    name = options.chapter_novel
    with open(library.novel_path(name), encoding="utf-8") as file:
        text = file.read()
    first_words = " ".join(split_chapters(text)[1][0][1].split()[:6])
    epub, made = build_epub(text, name, "Anonymous")
    epub_path = os.path.join(tempfile.mkdtemp(prefix="flagship-epub-"), f"{name}.epub")
    with open(epub_path, "wb") as file:
        file.write(epub)
    for label, key, content, filename, path in (("txt", name, None, None, library.novel_path(name)),
                                                ("epub", name + ".epub", epub, f"{name}.epub", epub_path)):
        story = library.get(key, content, filename)
        analysis = library.client.call("GET", f"/api/stories/{story['id']}/analysis")["analysis"]
        chapters = analysis["chapters"]
        cli = cli_chapters(options, path)
        status, payload, _ = library.client.request("GET", f"/api/stories/{story['id']}/chapters")
        if status == 200:
            listed = json.loads(payload)["chapters"]
            say(f"  {label}: GET /chapters lists {len(listed)}: "
                + ", ".join(f"{c['title']} (line {c['first_line']}, {c['line_count']} lines)" for c in listed[:4]) + ("…" if len(listed) > 4 else ""))
            record("chapters", f"{label}_endpoint", [(c["title"], c["first_line"], c["line_count"]) for c in listed])
        else:
            say(f"  {label}: GET /chapters answers {status}")
        titles = [c["title"] for c in chapters]
        say(f"  {label}: the API reports {len(chapters)} chapter(s), the CLI finds {cli}"
            + (f" (made {made} in the EPUB)" if label == "epub" else "") + f": {titles[:6]}{'…' if len(titles) > 6 else ''}")
        record("chapters", label, {"api": len(chapters), "cli": cli, "titles": titles})
        if label == "epub":
            segments = library.segments(key)
            start = next((line["index"] for line in segments if first_words.split()[0] in line["text"]
                          and " ".join(line["text"].split()).find(first_words) >= 0), None)
            front = [line["text"] for line in segments[:start or 0]]
            joined = " | ".join(" ".join(t.split()) for t in front)
            flags = [word for word in ("Title Page", "Table of Contents", "Contents", "Chapter I", "Anonymous") if word in joined]
            say(f"  epub: the story's first words are on line {start}; before them {len(front)} line(s) "
                f"({sum(len(t) for t in front):,} chars) are read, containing {flags}: {joined[:200]!r}")
            record("chapters", "epub_front_matter", {"first_story_line": start, "lines_before": len(front), "found": flags,
                                                     "text": joined[:500]})
            os.makedirs(options.artifacts, exist_ok=True)
            shutil.copy(epub_path, os.path.join(options.artifacts, os.path.basename(epub_path)))
    shutil.rmtree(os.path.dirname(epub_path), ignore_errors=True)


class ProcessWatch:
    """Samples ffmpeg processes under a server: wall time alive and CPU time used."""

    def __init__(self, root):
        self.root, self.seen = root, {}
        self.tick = os.sysconf("SC_CLK_TCK")

    def descendants(self):
        children = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as file:
                        stat = file.read()
                except OSError:
                    continue
                fields = stat[stat.rindex(")") + 2:].split()
                children.setdefault(int(fields[1]), []).append((int(entry), stat))
        found, todo = [], [self.root]
        while todo:
            for pid, stat in children.get(todo.pop(), []):
                found.append((pid, stat))
                todo.append(pid)
        return found

    def sample(self):
        now = time.time()
        for pid, stat in self.descendants():
            command = stat[stat.index("(") + 1:stat.rindex(")")]
            if command != "ffmpeg":
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            cpu = (int(fields[11]) + int(fields[12])) / self.tick
            entry = self.seen.setdefault(pid, {"first": now, "last": now, "cpu": 0, "threads": 0})
            entry["last"], entry["cpu"] = now, cpu
            entry["threads"] = max(entry["threads"], int(fields[17]))

    def summary(self):
        if not self.seen:
            return {"processes": 0, "alive_s": 0, "cpu_s": 0}
        first = min(e["first"] for e in self.seen.values())
        last = max(e["last"] for e in self.seen.values())
        return {"processes": len(self.seen), "alive_s": last - first, "cpu_s": sum(e["cpu"] for e in self.seen.values()),
                "max_threads": max(e["threads"] for e in self.seen.values())}


def section_export(options, library, server):
    name = options.export_novel
    story = library.get(name)
    client = library.client
    runs = []
    for run in ("fresh", "cached"):
        watch = ProcessWatch(server.process.pid)
        messages = []
        started = time.time()
        job = client.call("POST", f"/api/stories/{story['id']}/render", {"format": "m4b"})
        deadline = started + options.export_timeout
        while True:
            job = client.job(job["id"])
            if job.get("message") and (not messages or messages[-1][1] != job["message"]):
                messages.append((round(time.time() - started, 1), job["message"]))
            if job["status"] in FINISHED:
                break
            if time.time() > deadline:
                raise Deadline(f"the {run} export did not finish in {options.export_timeout} s ({job['progress']:.2f})")
            watch.sample()
            time.sleep(0.25)
        took = time.time() - started
        ffmpeg = watch.summary()
        cores = ffmpeg["cpu_s"] / ffmpeg["alive_s"] if ffmpeg["alive_s"] else 0
        say(f"  {name} {run} export: {job['status']} in {took:.1f} s; ffmpeg alive {ffmpeg['alive_s']:.1f} s "
            f"({100 * ffmpeg['alive_s'] / took:.0f}% of the export), {ffmpeg['cpu_s']:.1f} s CPU ({cores:.2f} cores while alive, "
            f"{ffmpeg['processes']} process(es), up to {ffmpeg.get('max_threads', 0)} threads)")
        if options.verbose:
            for at, message in messages:
                say(f"      {at:7.1f} s  {message}")
        runs.append({"run": run, "status": job["status"], "seconds": took, "ffmpeg": ffmpeg, "messages": messages[-5:]})
        if job["status"] != "succeeded":
            say(f"    error: {job.get('error')}")
            break
    record("export", name, runs)
    if runs[-1]["status"] == "succeeded":
        status, payload, _ = client.request("GET", f"/api/stories/{story['id']}/audio")
        path = os.path.join(tempfile.mkdtemp(prefix="flagship-m4b-"), f"{name}.m4b")
        with open(path, "wb") as file:
            file.write(payload)
        try:
            probe = json.loads(subprocess.run(["ffprobe", "-v", "error", "-print_format", "json", "-show_format", "-show_chapters", path],
                                              capture_output=True, text=True, timeout=60).stdout)
            chapters = [c.get("tags", {}).get("title") for c in probe.get("chapters", [])]
            say(f"  the M4B: {float(probe['format']['duration']) / 60:.1f} min, {len(payload) / 1e6:.1f} MB, "
                f"{len(chapters)} chapter(s) {chapters[:6]}")
            record("export", "m4b", {"duration_s": float(probe["format"]["duration"]), "chapters": chapters})
        except (OSError, ValueError, KeyError, subprocess.TimeoutExpired) as error:
            say(f"  ffprobe failed: {error}")
        shutil.rmtree(os.path.dirname(path), ignore_errors=True)


def section_errors(options):
    """A second server whose OpenAI base URL does not resolve, as with no network: a model
    analysis without a key; one with a key (how long until the job fails, and until its first
    error can be seen through the API; how long another reader's analysis queued behind it
    waits); then cancelling one (DELETE /api/jobs/{id}) and how soon the worker is free again."""
    server = Server(options, {"OPENAI_BASE_URL": "https://api.openai.invalid/v1", "OPENAI_API_KEY": ""}, "errors")
    try:
        reader, other = Client(server.url), Client(server.url)
        with open(os.path.join(options.repo, "examples", "the-open-window.txt"), "rb") as file:
            sample = file.read()
        story = reader.upload("the-open-window.txt", sample)
        reader.analyse(story["id"], options.analysis_timeout)
        model = {"llm": "openai:gpt-4o-mini", "mode": "hybrid"}
        status, payload, took = reader.request("POST", f"/api/stories/{story['id']}/analyze", model)
        say(f"  no key: POST analyze answers {status} in {ms(took)}: {payload[:160].decode(errors='replace')}")
        record("errors", "no_key", {"status": status, "seconds": took})
        reader.call("PUT", "/api/settings", {"api_keys": {"openai": "sk-flagship-0123456789abcdef"}})

        def other_reader_analysis():
            theirs = other.upload("the-open-window.txt", sample)
            return time.time(), other.call("POST", f"/api/stories/{theirs['id']}/analyze", {})

        # 1. A model analysis with a key and no network, and another reader's analysis behind it.
        started = time.time()
        job = reader.call("POST", f"/api/stories/{story['id']}/analyze", model)
        time.sleep(2)
        their_started, their_job = other_reader_analysis()
        seen = {}

        def both_done():
            current = reader.job(job["id"])
            if current.get("error") and "first_error" not in seen:
                seen["first_error"] = (time.time() - started, current["status"], current["error"])
            if options.verbose:
                say(f"    {time.time() - started:6.1f} s  {current['status']} attempt {current['attempts']}: {current.get('message')}"
                    + (" (error set)" if current.get("error") else ""))
            if current["status"] in FINISHED and "model" not in seen:
                seen["model"] = (time.time() - started, current)
            if "other" not in seen:
                theirs = other.job(their_job["id"])
                if theirs["status"] in FINISHED:
                    seen["other"] = time.time() - their_started
            return "model" in seen and "other" in seen
        try:
            wait_until("the failing model analysis", both_done, options.error_timeout, 2)
        except Deadline:
            pass
        if "first_error" in seen:
            at, state, error = seen["first_error"]
            say(f"  key, no network: the job's first error is visible through the API after {at:.1f} s (job then {state!r}): {error!r:.160}")
            record("errors", "first_error_s", at)
        if "model" in seen:
            took, current = seen["model"]
            say(f"  key, no network: the job {current['status']} after {took:.1f} s, {current['attempts']} attempt(s)")
            record("errors", "no_network", {"seconds": took, "status": current["status"], "attempts": current["attempts"]})
        else:
            current = reader.job(job["id"])
            say(f"  key, no network: not finished within {options.error_timeout:.0f} s ({current['status']}, attempt {current['attempts']})")
            record("errors", "no_network", {"seconds": None, "timeout": options.error_timeout, "attempts": current["attempts"]})
        if "other" in seen:
            say(f"  another reader's offline analysis, queued 2 s after it, finished after {seen['other']:.1f} s")
            record("errors", "other_reader_wait_s", seen["other"])
        else:
            say(f"  another reader's offline analysis did not finish within {options.error_timeout:.0f} s")
        if "model" not in seen:
            reader.request("DELETE", f"/api/jobs/{job['id']}")

        # 2. Cancelling a running model analysis: the answer, how soon it stops, the next job.
        job = reader.call("POST", f"/api/stories/{story['id']}/analyze", model)
        try:
            wait_until("the model analysis to run", lambda: reader.job(job["id"])["status"] == "running", 60, 0.2)
        except Deadline:
            pass
        cancelled_at = time.time()
        status, payload, took = reader.request("DELETE", f"/api/jobs/{job['id']}")
        say(f"  cancel: DELETE /api/jobs/{{id}} of a running job answers {status} in {ms(took)}")
        record("errors", "cancel_status", status)
        if status == 200:
            try:
                wait_until("the job to be cancelled", lambda: reader.job(job["id"])["status"] == "cancelled", 60, 0.2)
                say(f"  cancel: the job reads 'cancelled' after {time.time() - cancelled_at:.1f} s")
            except Deadline as error:
                say(f"  cancel: {error}")
        their_started, their_job = other_reader_analysis()
        try:
            other.wait_job(their_job["id"], options.analysis_timeout)
            say(f"  another reader's analysis started after the cancel finished after {time.time() - their_started:.1f} s")
            record("errors", "after_cancel_wait_s", time.time() - their_started)
        except Deadline as error:
            say(f"  another reader's analysis after the cancel: {error}")
        for leftover in reader.call("GET", "/api/jobs")["jobs"]:
            if leftover["status"] in ("queued", "running"):
                reader.request("DELETE", f"/api/jobs/{leftover['id']}")
    finally:
        server.stop()


# --- the browser ----------------------------------------------------------------------------

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


class Browser:
    """Headless Chromium over WebDriver (chromedriver started here on a free port)."""

    def __init__(self, options):
        self.port = free_port()
        self.driver_process = subprocess.Popen([options.chromedriver, f"--port={self.port}"], stdout=subprocess.DEVNULL,
                                               stderr=subprocess.DEVNULL, start_new_session=True)
        self.driver = f"http://127.0.0.1:{self.port}"
        wait_until("chromedriver", self.ready, 30, 0.2)
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": options.chromium,
            "args": ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000",
                     "--autoplay-policy=no-user-gesture-required", "--mute-audio"]}}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]
        # A novel's page can keep the main thread busy for longer than WebDriver's 30 s default.
        self.s("POST", "/timeouts", {"script": 300_000, "pageLoad": 300_000})
        self.artifacts = options.artifacts

    def ready(self):
        try:
            with urllib.request.urlopen(self.driver + "/status", timeout=2) as response:
                return json.loads(response.read())["value"]["ready"]
        except OSError:
            return False

    def call(self, method, path, body=None, timeout=300):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.driver + path, data=data, method=method, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.loads(response.read())["value"]
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"WebDriver {method} {path}: {error.read().decode()[:300]}") from None

    def s(self, method, path, body=None, timeout=300):
        return self.call(method, f"/session/{self.session}{path}", body, timeout)

    def go(self, url):
        self.s("POST", "/url", {"url": url})

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def wait_for(self, description, script, timeout, interval=0.05):
        def probe():
            try:
                return self.js(script)
            except RuntimeError as error:
                if "javascript error" in str(error) or "script timeout" in str(error):
                    return None
                raise
        return wait_until(description, probe, timeout, interval)

    def click(self, css, timeout=30):
        def attempt():
            found = self.s("POST", "/elements", {"using": "css selector", "value": css})
            if not found:
                return False
            try:
                self.s("POST", f"/element/{found[0][ELEMENT]}/click", {})
                return True
            except RuntimeError as error:
                if any(word in str(error) for word in ("stale", "not interactable", "intercepted")):
                    return False
                raise
        wait_until(f"a clickable {css}", attempt, timeout, 0.2)

    def type(self, css, text):
        found = wait_until(css, lambda: self.s("POST", "/elements", {"using": "css selector", "value": css}), 30, 0.1)
        self.s("POST", f"/element/{found[0][ELEMENT]}/value", {"text": text})

    def screenshot(self, name):
        os.makedirs(self.artifacts, exist_ok=True)
        path = os.path.join(self.artifacts, f"{name}.png")
        with open(path, "wb") as file:
            file.write(base64.b64decode(self.s("GET", "/screenshot")))
        return path

    def quit(self):
        try:
            self.s("DELETE", "", timeout=30)
        except Exception:
            pass
        if self.driver_process.poll() is None:
            os.killpg(self.driver_process.pid, signal.SIGTERM)
            try:
                self.driver_process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.driver_process.pid, signal.SIGKILL)


def register_in_browser(browser, app, email):
    browser.go(app + "/")
    browser.type("#auth-form [name=email]", email)
    browser.type("#auth-form [name=password]", PASSWORD)
    browser.click("#auth-form button[value=register]")
    browser.wait_for("the home page", "return document.querySelector('#home')?.checkVisibility()", 60)


LINES_SHOWN = """
    const lines = document.querySelectorAll('#line-list .line:not(.loading) .line-text').length;
    const play = document.querySelector('#play');
    return lines >= arguments[0] && play && play.checkVisibility() && !play.disabled ? performance.now() : null;"""

PAGE_FACTS = """
    const all = document.getElementsByTagName('*');
    const focusable = [...document.querySelectorAll('button, a[href], input, select, textarea, summary, [tabindex]:not([tabindex="-1"])')]
        .filter(n => n.checkVisibility() && !n.disabled);
    const play = focusable.indexOf(document.querySelector('#play'));
    const firstLine = focusable.indexOf(document.querySelector('#line-list .line .line-text'));
    const firstLineTop = document.querySelector('#line-list .line')?.getBoundingClientRect().top + scrollY;
    const exportTop = document.querySelector('#export')?.getBoundingClientRect().top + scrollY;
    const card = document.querySelector('#cast-list .cast-card');
    const picker = card?.querySelector('select[name=voice]');
    const icon = document.querySelector('link[rel~=icon]');
    return {
        nodes: all.length,
        options: document.getElementsByTagName('option').length,
        selects: document.getElementsByTagName('select').length,
        cards: document.querySelectorAll('#cast-list .cast-card').length,
        lines: document.querySelectorAll('#line-list .line').length,
        row_texts_with_newline: [...document.querySelectorAll('#line-list .line:not(.loading) .line-text')].filter(t => t.textContent.trim().includes('\\n')).length,
        row_texts_with_underscores: [...document.querySelectorAll('#line-list .line:not(.loading) .line-text')].filter(t => /(^|\\W)_[^_]+_(\\W|$)/.test(t.textContent)).length,
        row_italics: document.querySelectorAll('#line-list .line-text em, #line-list .line-text i').length,
        chapter_items: document.querySelectorAll('#chapter-list button.chapter').length || document.querySelectorAll('#chapter-list li').length,
        player_sticky: getComputedStyle(document.querySelector('#player')).position,
        now_text: !!document.querySelector('#now-text'),
        title: document.title,
        favicon: icon ? icon.getAttribute('href') : null,
        chapter_view: document.querySelectorAll('#story [id*=chapter i], #story [class*=chapter i]').length,
        cancel_button: !!document.querySelector('#story [id*=cancel i]'),
        tabs_play_to_first_line: play >= 0 && firstLine >= 0 ? firstLine - play : null,
        first_line_top: firstLineTop, export_top: exportTop, viewport: innerHeight, page_height: document.scrollingElement.scrollHeight,
        picker_options: picker ? picker.options.length : null,
        picker_groups: picker ? picker.querySelectorAll('optgroup').length : null,
        picker_search: card ? card.querySelectorAll('input[type=search], input[list], [role=combobox]').length : null,
        picker_sample: picker ? [...picker.options].slice(0, 4).map(o => o.textContent) : null,
    };"""


def open_story(browser, app, story_id, line_count, timeout):
    """Loads the story page from scratch; (seconds until lines and Play show, in-page ms)."""
    browser.go("about:blank")
    started = time.time()
    browser.go(f"{app}/#/stories/{story_id}")
    # One line is enough: today's page adds all of them at once, a virtualised one shows a window.
    in_page = browser.wait_for("the lines and the Play button", LINES_SHOWN.replace("arguments[0]", "1"), timeout)
    return time.time() - started, in_page


def own_mark(browser):
    """The page's own 'storyvoice:story-interactive' mark, if it sets one (ms since navigation)."""
    return browser.js("return performance.getEntriesByName('storyvoice:story-interactive')[0]?.startTime ?? null")


def play_latency(browser, timeout):
    """Clicks Play; (ms until the button says Pause, ms until sound)."""
    clicked = browser.js("""
        performance.clearMarks('storyvoice:audio-playing');
        const t = performance.now(); document.querySelector('#play').click(); return t;""")
    pressed = browser.wait_for("Play to respond", "return document.querySelector('#play').getAttribute('aria-pressed') === 'true' ? performance.now() : null", timeout)
    sound = browser.wait_for("sound", "return performance.getEntriesByName('storyvoice:audio-playing')[0]?.startTime", timeout)
    return pressed - clicked, sound - clicked


def section_page(options, library, server):
    browser = Browser(options)
    try:
        email = f"reader-{uuid.uuid4().hex[:8]}@example.com"
        register_in_browser(browser, server.url, email)
        client = Client(server.url, email, register=False)
        page_library = Library(options, client)
        story = page_library.get(options.page_novel)
        lines = page_library.segments(options.page_novel)
        loads = []
        for attempt in range(options.page_repeats):
            wall, in_page = open_story(browser, server.url, story["id"], len(lines), options.page_timeout)
            mark = own_mark(browser)
            pressed, sound = play_latency(browser, options.page_timeout)
            browser.js("document.querySelector('#stop').click()")
            loads.append({"wall_s": wall, "in_page_ms": in_page, "own_mark_ms": mark, "play_pressed_ms": pressed, "sound_ms": sound})
            say(f"  {options.page_novel} story page load {attempt + 1}: lines and Play shown after {wall:.2f} s "
                f"({in_page / 1000:.2f} s since navigation in the page"
                + (f"; the page's own story-interactive mark {mark / 1000:.2f} s" if mark is not None else "")
                + f"); Play answered in {pressed:.0f} ms, sound after {sound:.0f} ms")
        # Let the page finish what it builds after it is usable (cast, chapters) before counting.
        try:
            browser.wait_for("the cast and chapters", """
                const chapters = document.querySelector('#chapters');
                return document.querySelector('#cast-list .cast-card') && (!chapters || !chapters.hidden);""", 60)
        except Deadline:
            say("  (the cast or the chapter list did not show within 60 s)")
        time.sleep(2)
        facts = browser.js(PAGE_FACTS)
        record("page", "loads", loads)
        record("page", "facts", facts)
        say(f"  DOM: {facts['nodes']:,} nodes, {facts['options']:,} <option>s, {facts['selects']:,} <select>s; "
            f"{facts['cards']} cast cards, {facts['lines']:,} line rows for {len(lines):,} lines; chapters listed: {facts['chapter_items']}; "
            f"a Cancel control: {facts['cancel_button']}")
        say(f"  line rows: {facts['row_texts_with_newline']} with raw line breaks, {facts['row_texts_with_underscores']} with raw _underscores_, "
            f"{facts['row_italics']} italic elements; player position: {facts['player_sticky']}, line text in the player: {facts['now_text']}")
        screens = (facts["first_line_top"] or 0) / 844
        say(f"  layout (1280×1000): first line at y={facts['first_line_top']:.0f} px (~{screens:.1f} phone screens of 844 px), "
            f"Export at y={facts['export_top']:.0f} px of {facts['page_height']:,}; {facts['tabs_play_to_first_line']} Tab presses from Play to the first line")
        say(f"  title {facts['title']!r}; favicon {facts['favicon']!r}")
        if facts["picker_options"] is not None:
            say(f"  voice picker: a <select> of {facts['picker_options']} options, {facts['picker_groups']} groups, search box: {bool(facts['picker_search'])}; "
                f"first: {facts['picker_sample']}")
        elif browser.js("return !!document.querySelector('#cast-list .cast-card .voice-button')"):
            browser.js("document.querySelector('#cast-list .cast-card .voice-button').click()")
            picker = browser.wait_for("the voice picker", """
                const list = document.querySelector('#voice-picker-list');
                const rows = list ? list.querySelectorAll('.picker-choose').length : 0;
                return rows ? {rows, engines: list.querySelectorAll('h4').length, groups: list.querySelectorAll('h5, .picker-group, section').length,
                               search: !!document.querySelector('#voice-picker-search'), samples: list.querySelectorAll('.picker-sample').length,
                               quality: list.querySelectorAll('.quality').length} : null;""", 60)
            browser.js("document.querySelector('#voice-picker-search').value = 'scot'; document.querySelector('#voice-picker-search').dispatchEvent(new Event('input'))")
            time.sleep(0.5)
            found = browser.js("return [...document.querySelectorAll('#voice-picker-list .picker-row')].filter(r => r.checkVisibility()).length")
            browser.screenshot("page-voice-picker")
            browser.js("document.querySelector('.voice-picker .picker-head button')?.click()")
            say(f"  voice picker: a dialog of {picker['rows']} voices under {picker['engines']} engine headings ({picker['groups']} groups), "
                f"search box: {picker['search']} ('scot' leaves {found}), {picker['samples']} sample buttons, {picker['quality']} quality marks")
            record("page", "picker", {**picker, "search_scot": found})
        browser.screenshot("page-story")

        # A voice dropdown changed alone (no 'Use this voice'): saved? said?
        role = browser.js("return document.querySelectorAll('#cast-list .cast-card')[1]?.dataset.role")
        if role and browser.js(f"return !!document.querySelector('#cast-list .cast-card[data-role=\"{role}\"] select[name=voice]')"):
            before = client.call("GET", f"/api/stories/{story['id']}/analysis")["overrides"]["characters"].get(role)
            browser.js(f"""
                const select = document.querySelector('#cast-list .cast-card[data-role="{role}"] select[name=voice]');
                select.value = [...select.options].find(o => o.value !== select.value).value;
                select.dispatchEvent(new Event('change', {{bubbles: true}}));""")
            time.sleep(3)
            after = client.call("GET", f"/api/stories/{story['id']}/analysis")["overrides"]["characters"].get(role)
            said = browser.js(f"return document.querySelector('#cast-list .cast-card[data-role=\"{role}\"] [role=status]').textContent")
            say(f"  voice dropdown changed without pressing 'Use this voice': saved={before != after}, the card says {said!r}")
            record("page", "dropdown_alone", {"saved": before != after, "said": said})

        # Through the new picker: give the top speaker the second speaker's voice; what does the card say?
        cards = browser.js("return [...document.querySelectorAll('#cast-list .cast-card')].map(c => c.dataset.role)")
        if len(cards) > 2 and browser.js("return !!document.querySelector('#cast-list .cast-card .voice-button')"):
            first, second = cards[1], cards[2]
            before = client.call("GET", f"/api/stories/{story['id']}/analysis")
            wanted = before["cast"]["characters"][second]["voice"]
            browser.js(f"document.querySelector('#cast-list .cast-card[data-role=\"{first}\"] .voice-button').click()")
            browser.wait_for("the picker", f"return document.querySelector('#voice-picker-list .picker-choose[data-voice=\"{wanted}\"]')", 60)
            browser.js(f"document.querySelector('#voice-picker-list .picker-choose[data-voice=\"{wanted}\"]').click()")
            said = browser.wait_for("the card's notice", f"""
                const notice = document.querySelector('#cast-list .cast-card[data-role="{first}"] .cast-notice');
                return notice && notice.textContent.trim() && !notice.querySelector('.hint:only-child') ? notice.innerText : null;""", 60)
            after = client.call("GET", f"/api/stories/{story['id']}/analysis")
            names = {c["id"]: c["name"] for c in after["analysis"]["characters"]}
            moved = [f"{names.get(r, r)}: {before['cast']['characters'][r]['voice']} -> {a['voice']}" for r, a in after["cast"]["characters"].items()
                     if r != first and before["cast"]["characters"].get(r, {}).get("voice") != a["voice"]]
            say(f"  picker: gave {names.get(first)} {wanted} ({names.get(second)}'s voice); others that changed: {moved}; the card says {' '.join(said.split())[:200]!r}")
            record("page", "clash", {"others_changed": moved, "said": said})

        # A model analysis with no key: where does the error land?
        browser.js("document.querySelector('#model-choice').open = true; const p = document.querySelector('#model-provider'); "
                   "p.value = 'openai'; p.dispatchEvent(new Event('change'));")
        started = time.time()
        browser.click("#analyze")
        find_error = """
            for (const node of document.querySelectorAll('#story [role=status], #story [role=alert]')) {
                if (/key/i.test(node.textContent)) return [node.id || node.className, node.checkVisibility(), node.textContent];
            }
            return null;"""
        first = browser.wait_for("the cost confirmation or an error", f"if (document.querySelector('#confirm')?.open) return 'confirm'; {find_error}", 60)
        if first == "confirm":
            browser.click("#confirm-ok")
        shown = browser.wait_for("an error", find_error, 60)
        say(f"  model analysis with no key: error in #{shown[0]} after {time.time() - started:.1f} s"
            f"{' (after the cost confirmation)' if first == 'confirm' else ''}, visible={shown[1]}: {shown[2][:120]!r}")
        record("page", "no_key_error", {"element": shown[0], "visible": shown[1], "text": shown[2]})

        # An upload from the library: does the analysis start by itself?
        browser.go(f"{server.url}/#/stories")
        browser.wait_for("the library", "return document.querySelector('#upload-form [name=file]')", 60)
        browser.type("#upload-form [name=file]", os.path.join(options.repo, "examples", "the-open-window.txt"))
        browser.click("#upload-form button[type=submit]")
        browser.wait_for("the uploaded story's page", "return document.querySelector('#story-title')?.textContent", 120)
        try:
            started_by_itself = browser.wait_for("the analysis to start by itself", """
                return document.querySelector('#analysis-progress')?.checkVisibility() || document.querySelector('#line-list .line:not(.loading)') ? true : null;""", 10)
        except Deadline:
            started_by_itself = False
        say(f"  an upload starts the analysis by itself: {bool(started_by_itself)}")
        record("page", "upload_starts_analysis", bool(started_by_itself))

        # A story that cannot be loaded, then sign-out and a second reader on the same tab.
        browser.go(f"{server.url}/#/stories/00000000-0000-4000-8000-000000000000")
        problem = browser.wait_for("the failed load", "const a = document.querySelector('main [role=alert]'); "
                                   "return a && a.checkVisibility() ? [document.querySelector('main h2')?.textContent, !!document.querySelector('#line-list')] : null", 60)
        say(f"  bad story id: heading {problem[0]!r}, previous lines left on screen: {problem[1]}")
        browser.go(f"{server.url}/#/stories/{story['id']}")
        browser.wait_for("the story", LINES_SHOWN.replace("arguments[0]", "1"), options.page_timeout)
        browser.click("#logout")
        browser.wait_for("the sign-in form", "return document.querySelector('#auth-form [name=email]')?.checkVisibility()", 60)
        register_in_browser(browser, server.url, f"reader-{uuid.uuid4().hex[:8]}@example.com")
        browser.go(f"{server.url}/#/stories/{story['id']}")
        browser.wait_for("a settled page", "return document.querySelector('main [role=alert]') || document.querySelector('#line-list .line')", 60)
        leaked = browser.js("return document.querySelectorAll('#line-list .line').length + document.querySelectorAll('#cast-list .cast-card').length")
        title_left = story["title"] in browser.js("return document.body.innerText + document.title")
        say(f"  second reader on the same tab at the first reader's story: {leaked} lines/cards shown, title shown: {title_left}")
        record("page", "privacy", {"bad_id_heading": problem[0], "bad_id_leftover": problem[1], "second_reader_leak": leaked, "title_left": title_left})
    finally:
        browser.quit()


PLAYBACK_PROBE = """
    window.svEvents = [];
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function () {
        if (!this.svWatched) {
            this.svWatched = true;
            for (const type of ['playing', 'ended', 'waiting', 'pause'])
                this.addEventListener(type, () => svEvents.push([type, performance.now(), this.duration]));
        }
        return play.call(this);
    };
    performance.clearMarks();"""


def gaps_from(events, marks, lines, speed):
    """Silence between one line's end and the next line's sound, less the planned pause."""
    ends = [t for kind, t, _ in events if kind == "ended"]
    gaps = []
    for previous, current in zip(marks, marks[1:]):
        if current["line"] != previous["line"] + 1:
            continue
        end = next((t for t in ends if previous["t"] < t <= current["t"]), None)
        if end is None:
            continue
        planned = lines[current["line"]]["pause_before"] / speed * 1000
        gaps.append({"line": current["line"], "silence_ms": current["t"] - end, "planned_ms": planned,
                     "excess_ms": current["t"] - end - planned})
    return gaps


def jump_target(library, novel, fraction, used):
    """A line nobody has asked for yet (100-400 characters) near `fraction` of the book."""
    fresh = library.segments(novel)
    chosen = pick_lines(fresh, fraction, 1, used)
    if not chosen:
        raise RuntimeError(f"no unrendered line near {fraction:.0%} of {novel}")
    return chosen[0]


def show_row(browser, target, total, timeout):
    """Brings line `target`'s row on screen: scrolls the list towards it by the rows' mean height
    until a virtualised list has made it (and tells the list a reader scrolled, so that it does
    not follow the playing line back meanwhile)."""
    browser.wait_for(f"line {target}'s row", f"""
        const list = document.querySelector('#line-list');
        list.dispatchEvent(new WheelEvent('wheel'));
        const row = document.querySelector('#line-{target}:not(.loading) .line-text');
        if (row) {{ row.closest('.line').scrollIntoView({{block: 'center'}}); return true; }}
        const rows = [...list.querySelectorAll('.line')];
        if (!rows.length) {{ list.scrollTop = list.scrollHeight * {target / max(1, total)}; return null; }}
        const ids = rows.map(r => Number(r.id.slice(5)));
        const height = rows.reduce((sum, r) => sum + r.offsetHeight, 0) / rows.length || 40;
        const middle = (Math.min(...ids) + Math.max(...ids)) / 2;
        list.scrollTop += ({target} - middle) * height;
        return null;""", timeout, 0.3)


def section_playback(options, library, server):
    browser = Browser(options)
    try:
        email = f"listener-{uuid.uuid4().hex[:8]}@example.com"
        register_in_browser(browser, server.url, email)
        client = Client(server.url, email, register=False)
        listener = Library(options, client)
        for novel in options.playback_novel.split(","):
            story = listener.get(novel)
            lines = listener.segments(novel)
            open_story(browser, server.url, story["id"], len(lines), options.page_timeout)
            browser.js(PLAYBACK_PROBE)
            speed = options.playback_speed
            browser.js(f"const s = document.querySelector('#speed'); s.value = '{speed:g}'; s.dispatchEvent(new Event('change'));")
            start = 0
            if options.playback_from > 0:
                # A far line nobody has heard: the listener clicks its row, as in the web app.
                start = jump_target(listener, novel, options.playback_from, set())
                show_row(browser, start, len(lines), options.page_timeout)
                started = browser.wait_for(f"line {start}'s row", f"""
                    const row = document.querySelector('#line-{start}:not(.loading) .line-text');
                    if (!row) return null;
                    const t = performance.now(); row.click(); return t;""", options.page_timeout)
            else:
                started = browser.js("const t = performance.now(); document.querySelector('#play').click(); return t;")
            window = options.playback_seconds
            time.sleep(window)
            facts = browser.js("""
                return {events: svEvents, marks: performance.getEntriesByName('storyvoice:audio-playing').map(m => ({t: m.startTime, line: m.detail.line})),
                        now: performance.now(), line: document.querySelector('#line-list .current')?.id, button: document.querySelector('#play').textContent,
                        status: document.querySelector('#player-status').textContent};""")
            marks, events = facts["marks"], facts["events"]
            gaps = gaps_from(events, marks, lines, speed)
            sound = 0.0
            playing_since = None
            for kind, t, _ in events:
                if kind == "playing":
                    playing_since = t
                elif kind in ("ended", "pause", "waiting") and playing_since is not None:
                    sound += t - playing_since
                    playing_since = None
            if playing_since is not None:
                sound += facts["now"] - playing_since
            span = facts["now"] - started
            first = marks[0]["t"] - started if marks else None
            worst = max(gaps, key=lambda g: g["excess_ms"]) if gaps else None
            over = [g for g in gaps if g["excess_ms"] > 250]
            say(f"  {novel}: {window} s of playback at {speed:g}x from line {start} of {len(lines)}: first sound after {ms(first / 1000 if first else None)}; "
                f"lines {marks[0]['line'] if marks else '-'}–{marks[-1]['line'] if marks else '-'} played; sound {100 * sound / span:.0f}% of the window; "
                f"{len(over)} of {len(gaps)} line changes silent >250 ms beyond the planned pause"
                + (f", worst {worst['excess_ms'] / 1000:.1f} s before line {worst['line']}" if worst else ""))
            record("playback", f"{novel} continuous", {"window_s": window, "from_line": start, "first_sound_ms": first, "sound_share": sound / span,
                                              "gaps": len(gaps), "gaps_over_250ms": len(over),
                                              "worst_excess_ms": worst["excess_ms"] if worst else None,
                                              "median_excess_ms": median([g["excess_ms"] for g in gaps])})
            # Jumps to lines nobody has asked for yet, while playing.
            used = set()
            jumps = []
            for label, fraction in (("middle", 0.5), ("end", 0.9)):
                target = jump_target(listener, novel, fraction, used)
                for _ in range(10):
                    show_row(browser, target, len(lines), options.page_timeout)
                    clicked = browser.js(f"""
                        const row = document.querySelector('#line-{target}:not(.loading) .line-text');
                        if (!row) return null;
                        performance.clearMarks('storyvoice:audio-playing');
                        window.seenStates = [];
                        const note = () => seenStates.push(document.querySelector('#play').textContent.trim() + ' / ' + document.querySelector('#player-status').textContent);
                        window.stateWatch?.disconnect();
                        window.stateWatch = new MutationObserver(note);
                        for (const node of [document.querySelector('#play'), document.querySelector('#player-status')])
                            stateWatch.observe(node, {{childList: true, characterData: true, subtree: true}});
                        const t = performance.now(); row.click(); return t;""")
                    if clicked is not None:
                        break
                else:
                    raise RuntimeError(f"line {target}'s row kept going away")
                time.sleep(0.5)
                meanwhile = browser.js("return [document.querySelector('#play').textContent.trim(), document.querySelector('#player-status').textContent, "
                                       "document.querySelector('#line-list .current')?.id]")
                heard = browser.wait_for("the jump's sound", f"return performance.getEntriesByName('storyvoice:audio-playing').find(m => m.detail.line === {target})?.startTime",
                                         options.page_timeout)
                states = list(dict.fromkeys(browser.js("stateWatch.disconnect(); return seenStates")))
                jumps.append({"line": target, "chars": len(lines[target]["text"]), "latency_ms": heard - clicked,
                              "button": meanwhile[0], "status": meanwhile[1], "highlight": meanwhile[2], "states": states})
                say(f"  jump to unrendered line {target} ({label}, {len(lines[target]['text'])} chars): sound after {(heard - clicked) / 1000:.2f} s; "
                    f"0.5 s in the button said {meanwhile[0]!r}, status {meanwhile[1]!r}, highlight on {meanwhile[2]}; "
                    f"button / status seen: {states[:4]}")
            record("playback", f"{novel} jumps", jumps)
            browser.js("document.querySelector('#stop').click()")
    finally:
        browser.quit()


# --- main ---------------------------------------------------------------------------------------

def main():
    repo_default = os.path.dirname(HERE)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default=",".join(DEFAULT_SECTIONS), help=f"comma-separated sections of {ALL_SECTIONS}")
    parser.add_argument("--binary", default=None, help="the storyvoice binary (default: .build/release, else .build/debug, of --repo)")
    parser.add_argument("--repo", default=repo_default, help="the checkout the server runs in (Public/, scripts/, .venv/)")
    parser.add_argument("--novels", default=None, help="folder of <Name>/novel_text.txt (default ../shared/eval/pdnc-dev beside --repo)")
    parser.add_argument("--engines", default="espeak-ng,flite")
    parser.add_argument("--repeats", type=int, default=5, help="requests per figure (medians)")
    parser.add_argument("--page-size", type=int, default=100, help="lines per page when the server pages /segments")
    parser.add_argument("--segment-novels", default="DaisyMiller,TheGambler,OliverTwist")
    parser.add_argument("--audio-novels", default="OliverTwist")
    parser.add_argument("--text-novels", default="TheGambler")
    parser.add_argument("--page-novel", default="TheGambler", help="~300k characters")
    parser.add_argument("--page-repeats", type=int, default=2)
    parser.add_argument("--playback-novel", default="sample", help="'sample' (the-open-window.txt) or a folder of --novels")
    parser.add_argument("--playback-seconds", type=int, default=90)
    parser.add_argument("--playback-from", type=float, default=0.0,
                        help="start at an unheard line this far into the book (0.6: three fifths in), by clicking its row")
    parser.add_argument("--playback-speed", type=float, default=1.0, choices=[0.75, 1.0, 1.25, 1.5])
    parser.add_argument("--chapter-novel", default="TheGambler")
    parser.add_argument("--export-novel", default="DaisyMiller")
    parser.add_argument("--start-timeout", type=float, default=180)
    parser.add_argument("--analysis-timeout", type=float, default=600)
    parser.add_argument("--request-timeout", type=float, default=300)
    parser.add_argument("--page-timeout", type=float, default=300)
    parser.add_argument("--export-timeout", type=float, default=3600)
    parser.add_argument("--error-timeout", type=float, default=120, help="how long to wait for a model analysis without network to fail")
    parser.add_argument("--chromedriver", default=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--artifacts", default=os.path.join(tempfile.gettempdir(), "flagship-bench"))
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--keep", action="store_true", help="keep the servers' data directories")
    parser.add_argument("--verbose", action="store_true")
    options = parser.parse_args()
    # Stopped by SIGTERM or SIGINT (even when started in the background, where the shell
    # ignores SIGINT for it), the servers, engines and chromedriver started here still go.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    options.repo = os.path.abspath(options.repo)
    if not options.binary:
        options.binary = next((p for p in (os.path.join(options.repo, ".build", kind, "storyvoice") for kind in ("release", "debug"))
                               if os.path.exists(p)), None)
        if not options.binary:
            parser.error("no built storyvoice in --repo; pass --binary")
    options.binary = os.path.abspath(options.binary)
    options.novels = options.novels or os.path.join(os.path.dirname(options.repo), "shared", "eval", "pdnc-dev")
    sections = [s.strip() for s in options.only.split(",") if s.strip()]
    unknown = [s for s in sections if s not in ALL_SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {unknown}; choose from {ALL_SECTIONS}")

    built = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(os.path.getmtime(options.binary)))
    head = subprocess.run(["git", "-C", options.repo, "log", "-1", "--format=%h %ci"], capture_output=True, text=True).stdout.strip()
    public_changes = subprocess.run(["git", "-C", options.repo, "status", "--porcelain", "--", "Public"],
                                    capture_output=True, text=True).stdout.strip()
    say(f"flagship bench: {options.binary} (built {built}); {options.repo} at {head or '?'}"
        f"{', Public/ has uncommitted changes' if public_changes else ''}; engines {options.engines}; "
        f"load average {load()}; {os.cpu_count()} cores; sections {sections}")
    RESULTS["meta"] = {"binary": options.binary, "binary_mtime": built, "repo_head": head, "public_uncommitted": bool(public_changes),
                       "engines": options.engines, "load_before": load(), "started": time.strftime("%Y-%m-%d %H:%M:%S")}
    failures = 0
    server = None
    try:
        needs_server = [s for s in sections if s != "errors"]
        if needs_server:
            server = Server(options)
            library = Library(options, Client(server.url))
        for section in sections:
            say(f"[{section}] (load average {load()})")
            started = time.time()
            try:
                if section == "segments":
                    section_segments(options, library)
                elif section == "audio":
                    section_audio(options, library)
                elif section == "text":
                    section_text(options, library)
                elif section == "cast":
                    section_cast(options, library)
                elif section == "chapters":
                    section_chapters(options, library)
                elif section == "export":
                    section_export(options, library, server)
                elif section == "page":
                    section_page(options, library, server)
                elif section == "playback":
                    section_playback(options, library, server)
                elif section == "errors":
                    section_errors(options)
            except (Deadline, HTTPFailure, RuntimeError, OSError, AssertionError, KeyError, IndexError, TypeError) as error:
                failures += 1
                say(f"  FAILED: {type(error).__name__}: {error}")
                record(section, "failure", str(error))
            say(f"  ({time.time() - started:.0f} s)")
    finally:
        if server:
            server.stop()
    RESULTS["meta"]["load_after"] = load()
    say(f"done; load average {load()}")
    if options.json:
        with open(options.json, "w") as file:
            json.dump(RESULTS, file, indent=2)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
