#!/usr/bin/env python3
"""The hybrid plumbing with a perfect model: how far labelling the lines below the confidence
threshold can take attribution when every answer is right.

  bench/hybrid-oracle.py [--bin PATH] [--data ../shared/eval/pdnc-dev] [--novels A,B,...]
                         [--thresholds 0.6,0.8] [--show N] [--markdown]

A loopback HTTP server speaks OpenAI's chat-completions format exactly as StoryVoice's client
sends it (POST {OPENAI_BASE_URL}/chat/completions, response_format json_schema
"speaker_labels"; Sources/LanguageModels/WireFormat.swift, Sources/Analysis/SpanPrompt.swift).
For each span it is asked about ("Label these spans: S12, ..."; S<n> is the n-th segment of the
offline analysis, whose text the prompt shows between [S12] and [/S12]) it answers from PDNC's
gold quotation_info.csv: the span is aligned to a gold quote as the scorer aligns (IoU >= 0.5),
and the gold speaker is given as the roster id of the system character the scorer maps to that
gold character (the one with most lines if several do), or "new:<main name>" when none does.
A span that matches no gold quote keeps its offline speaker; one whose gold speaker is
_group/_unknowable too. Enrichment requests ("character_profiles") get an empty answer.

Then, for each novel, `storyvoice analyze FILE --format json` runs offline, with
`--llm openai:oracle --mode hybrid` (the default threshold, and any --thresholds given) and with
`--mode full`, against the loopback (OPENAI_BASE_URL, a throwaway STORYVOICE_CACHE_DIR), and each
output is scored with ../shared/eval/score_attribution.py. For hybrid it also counts the lines it
kept (not sent) that are wrong, by their confidence: what a better threshold or better
confidence would have to catch.
"""
import argparse, collections, importlib, json, os, re, subprocess, sys, tempfile, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
DEFAULT_NOVELS = "DaisyMiller,TheAwakening,TheGambler,AlicesAdventuresInWonderland"


# The scorer's loader, the analysis run and the scorer's character mapping.
sys.path.insert(0, here)
calibration = importlib.import_module("attribution-calibration")
load_scorer, default_binary, analyse = calibration.load_scorer, calibration.default_binary, calibration.analyse


def to_gold_of(s, gchars, system):
    """System character id -> gold character id (or None), as the scorer maps them."""
    return calibration.errors.mapping(s, gchars, system)[0]


class Oracle:
    """Gold answers for one novel, keyed by the offline analysis's segment index."""

    def __init__(self, s, folder, offline):
        self.text, gchars, gold = s.load_gold(folder)
        segments = offline["segments"]
        pred, index_of = [], []
        for k, q in enumerate(segments):
            if q.get("kind") != "dialogue": continue
            a, b = s.trim(self.text, int(q["start"]), int(q["end"]))
            if b > a: pred.append(dict(start=a, end=b)); index_of.append(k)
        m = s.align(gold, pred)
        # System characters the scorer maps to each gold character; the busiest speaks for it.
        to_gold, by_gold = to_gold_of(s, gchars, offline), {}
        for c in offline.get("characters", []):
            gid = to_gold.get(str(c.get("id")))
            if gid is not None and (gid not in by_gold or c.get("lines", 0) > by_gold[gid][1]):
                by_gold[gid] = (str(c["id"]), c.get("lines", 0))
        self.answers = {}
        for k, q in enumerate(segments):
            if q.get("kind") == "dialogue":
                self.answers[k] = str(q["speaker"]) if q.get("speaker") else "narration"
        for i, j in m.items():
            g, k = gold[i], index_of[j]
            if not g["scorable"]: continue
            if g["speaker"] in by_gold: self.answers[k] = by_gold[g["speaker"]][0]
            else: self.answers[k] = "new:" + gchars[g["speaker"]]["main"]
        self.segments = segments
        self.asked, self.mismatched = [], 0
        self.lock = threading.Lock()

    def label(self, user):
        spans = []
        for line in user.split("\n"):
            if line.startswith("Label these spans: "):
                spans = [x.strip() for x in line[len("Label these spans: "):].split(",") if x.strip()]
        shown = {sid: body for sid, body in re.findall(r"\[(S\d+)\] (.*?) \[/\1\]", user, re.S)}
        labels = []
        for sid in spans:
            k = int(sid[1:])
            with self.lock:
                self.asked.append(k)
                seg = self.segments[k] if k < len(self.segments) else None
                if seg is None or (sid in shown and shown[sid] != self.text[seg["start"]:seg["end"]]): self.mismatched += 1
            labels.append({"span": sid, "speaker": self.answers.get(k, "narration")})
        return {"labels": labels}


class State:
    oracle = None
    requests = 0
    problems = []


def make_handler(state):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args): pass

        def reply(self, status, payload):
            body = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
            if not self.path.endswith("/chat/completions"):
                return self.reply(404, {"error": {"message": "no route " + self.path}})
            if body.get("stream"):
                state.problems.append("a streaming request")
                return self.reply(400, {"error": {"message": "the oracle does not stream"}})
            messages = body.get("messages", [])
            user = next((m["content"] for m in reversed(messages) if m.get("role") == "user"), "")
            schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("name")
            state.requests += 1
            if schema == "speaker_labels" or "Label these spans: " in user:
                answer = state.oracle.label(user)
            else:  # enrichment and anything else: nothing to add
                answer = {"characters": []}
            content = json.dumps(answer)
            prompt_tokens = sum(len(m.get("content", "")) for m in messages) // 4
            self.reply(200, {
                "id": "chatcmpl-oracle-%d" % state.requests, "object": "chat.completion", "created": int(time.time()),
                "model": body.get("model", "oracle"),
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content, "refusal": None}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": len(content) // 4, "total_tokens": prompt_tokens + len(content) // 4},
            })
    return Handler


def kept_wrong(s, folder, system):
    """Wrong found lines that kept their offline confidence (not sent), by confidence; and wrong sent lines."""
    text, gchars, gold = s.load_gold(folder)
    items = [x for x in system.get("segments", []) if x.get("kind") == "dialogue"]
    pred = []
    for q in items:
        a, b = s.trim(text, int(q["start"]), int(q["end"]))
        if b > a: pred.append(dict(start=a, end=b, speaker=q.get("speaker"), confidence=q.get("confidence")))
    to_gold = to_gold_of(s, gchars, system)
    names = {str(c.get("id")): c.get("name") for c in system.get("characters", [])}
    m = s.align(gold, pred)
    kept, sent_wrong, examples = collections.Counter(), 0, []
    for i, g in enumerate(gold):
        if not g["scorable"] or i not in m: continue
        p = pred[m[i]]
        if to_gold.get(str(p["speaker"])) == g["speaker"]: continue
        if p["confidence"] is None: sent_wrong += 1
        else:
            kept[round(p["confidence"], 2)] += 1
            examples.append("%.2f %s | gold %s, system %s" % (p["confidence"], text[g["start"]:g["end"]].replace("\n", " ")[:70],
                                                           gchars[g["speaker"]]["main"], names.get(str(p["speaker"]), p["speaker"])))
    return kept, sent_wrong, examples


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=default_binary())
    parser.add_argument("--data", default=os.path.join(root, "../shared/eval/pdnc-dev"))
    parser.add_argument("--novels", default=DEFAULT_NOVELS)
    parser.add_argument("--thresholds", default="", help="extra hybrid thresholds to run besides the default")
    parser.add_argument("--show", type=int, default=0, help="examples of wrong kept lines per novel")
    parser.add_argument("--markdown", action="store_true", help="also print the table as Markdown")
    args = parser.parse_args()
    s = load_scorer(args.data)
    state = State()
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(state))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d/v1" % server.server_address[1]
    cache = tempfile.mkdtemp(prefix="oracle-cache-")
    env = dict(os.environ, OPENAI_BASE_URL=base, OPENAI_API_KEY="sk-oracle-loopback", STORYVOICE_CACHE_DIR=cache)
    runs = [("hybrid", None)] + [("hybrid", float(t)) for t in args.thresholds.split(",") if t.strip()] + [("full", None)]
    columns = ["offline"] + ["hybrid" + ("@%.2f" % t if t is not None else "") for m, t in runs if m == "hybrid"] + ["full"]
    totals = {c: [0, 0] for c in columns}
    sent_totals = {c: [0, 0] for c in columns}
    rows, details = [], []
    t_start = time.monotonic()
    for novel in [n.strip() for n in args.novels.split(",") if n.strip()]:
        folder = os.path.join(args.data, novel)
        text_path = os.path.join(folder, "novel_text.txt")
        offline = analyse(args.bin, text_path)
        results = {"offline": s.score(folder, offline)["attribution"]["all"]}
        dialogue = sum(1 for x in offline["segments"] if x.get("kind") == "dialogue")
        for mode, threshold in runs:
            column = mode if mode == "full" else "hybrid" + ("@%.2f" % threshold if threshold is not None else "")
            state.oracle = Oracle(s, folder, offline)
            argv = [args.bin, "analyze", text_path, "--format", "json", "--llm", "openai:oracle", "--mode", mode]
            if threshold is not None: argv += ["--threshold", str(threshold)]
            run = subprocess.run(argv, capture_output=True, text=True, env=env)
            if run.returncode != 0:
                print("%s %s FAILED (exit %d): %s" % (novel, column, run.returncode, run.stderr.strip()[-400:]))
                continue
            system = calibration.first_json(run.stdout)
            results[column] = s.score(folder, system)["attribution"]["all"]
            asked = len(set(state.oracle.asked))
            sent_totals[column][0] += asked; sent_totals[column][1] += dialogue
            notes = [l for l in run.stderr.splitlines() if l.startswith("note:")]
            if state.oracle.mismatched or notes:
                print("%s %s: %d span text(s) differ from the offline segments; notes: %s" % (novel, column, state.oracle.mismatched, notes[:3]))
            if column == "hybrid":
                kept, sent_wrong, examples = kept_wrong(s, folder, system)
                details.append((novel, asked, dialogue, kept, sent_wrong, examples))
        for c in columns:
            if c in results:
                totals[c][0] += results[c][0]; totals[c][1] += results[c][1]
        rows.append((novel, results))
    server.shutdown()
    print("%-30s " % "novel (attribution, right/scorable)" + " ".join("%16s" % c for c in columns))
    for novel, results in rows:
        print("%-30s " % novel[:30] + " ".join("%16s" % ("%.3f (%d/%d)" % (r[0] / r[1], r[0], r[1]) if (r := results.get(c)) else "-") for c in columns))
    print("%-30s " % "all" + " ".join("%16s" % ("%.3f (%d/%d)" % (t[0] / t[1], t[0], t[1]) if t[1] else "-") for t in totals.values()))
    print("%-30s " % "dialogue segments sent" + " ".join("%16s" % ("%.1f%%" % (100 * v[0] / v[1]) if v[1] else "-") for v in sent_totals.values()))
    print("\nhybrid at the default threshold: wrong lines it kept (not sent), by confidence; wrong lines after the oracle's answer")
    for novel, asked, dialogue, kept, sent_wrong, examples in details:
        print("  %-28s sent %d of %d segments; kept wrong %d (%s); sent and still wrong %d" % (
            novel, asked, dialogue, sum(kept.values()), ", ".join("%.2f: %d" % kv for kv in sorted(kept.items(), reverse=True)), sent_wrong))
        for e in examples[:args.show]: print("      " + e)
    if args.markdown:
        sent_of = {novel: (asked, dialogue) for novel, asked, dialogue, *_ in details}
        print("\n| novel | offline | " + " | ".join(columns[1:]) + " | hybrid sent |")
        print("|---|" + "---|" * (len(columns) + 1))
        for novel, results in rows:
            a, d = sent_of.get(novel, (0, 0))
            print("| %s | " % novel + " | ".join("%.3f" % (results[c][0] / results[c][1]) if c in results else "–" for c in columns)
                  + " | %.1f %% |" % (100 * a / d if d else 0))
        print("| **all (%d quotes)** | " % totals["offline"][1] + " | ".join("**%.3f**" % (t[0] / t[1]) if t[1] else "–" for t in totals.values())
              + " | %.1f %% |" % (100 * sent_totals["hybrid"][0] / sent_totals["hybrid"][1] if sent_totals["hybrid"][1] else 0))
    if state.problems: print("problems: %s" % collections.Counter(state.problems))
    print("(%d requests answered, %.0f s)" % (state.requests, time.monotonic() - t_start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
