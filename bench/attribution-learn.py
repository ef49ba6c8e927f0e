#!/usr/bin/env python3
"""The analysis's two learned models (issue 48, item 2), fitted on the development novels and
judged leave one novel out:

  - the turn model (Sources/StoryText/Attribution/TurnCandidates.swift): who, of the people
    talking near a line a turn rule attributed, said it; a conditional logit over each line's
    candidates. Printed first: per novel, the turn lines right as the rules chose, as shipped,
    and as the model fitted on the other twelve picks;
  - the learned confidence (LineFeatures.swift, LearnedConfidence.swift): the chance a line's
    speaker is right; a logistic model, judged against each kind's measured value (the
    confidence before it). Both choose hybrid's threshold by the same rule on the twelve (the
    value below which SEND_SHARE of their dialogue segments lie); it prints the share sent, the
    attribution a perfect model would reach, log loss and expected calibration error, and the
    same at equal cost (the lowest-confidence share of lines sent).

  bench/attribution-learn.py [--bin PATH] [--data ../shared/eval/pdnc-dev] [--cache DIR] [--l2 X]
                             [--write speakers|confidence]

Reads `storyvoice analyze FILE --format json --features`. Needs numpy (the project's .venv has
it: .venv/bin/python3 bench/attribution-learn.py). --write fits on all thirteen and writes the
weights as Swift; after a rule change write speakers, rebuild, then write confidence (it reads
the turn model's choices), and rebuild.
"""
import argparse, collections, hashlib, importlib, json, math, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
WEIGHTS_SWIFT = os.path.join(root, "Sources/StoryText/Attribution/LearnedWeights.swift")
SPEAKER_WEIGHTS_SWIFT = os.path.join(root, "Sources/StoryText/Attribution/LearnedSpeakerWeights.swift")
SEND_SHARE = 0.33
L2 = 1.0


sys.path.insert(0, here)
calibration = importlib.import_module("attribution-calibration")  # its loader, alignment and kinds


def analyse(binary, path, cache):
    """`analyze --features` of one novel, kept in `cache` by the binary's and the text's hash."""
    key = hashlib.sha256(open(binary, "rb").read() + open(path, "rb").read()).hexdigest()[:16]
    cached = os.path.join(cache, key + ".json") if cache else None
    if cached and os.path.isfile(cached): return json.load(open(cached))
    out = subprocess.run([binary, "analyze", path, "--format", "json", "--features"], capture_output=True, text=True, check=True)
    system = calibration.first_json(out.stdout)
    if cached:
        os.makedirs(cache, exist_ok=True)
        json.dump(system, open(cached, "w"))
    return system


class Novel:
    """One novel's found scorable lines (features, kind's value, right?) and its dialogue
    segments (features or None, kind's value) for the share sent. The kind's value is what
    Confidence.swift gives the line's evidence and standing (`calibration.kind_values`)."""

    def __init__(self, s, folder, system, width):
        text, gchars, gold = s.load_gold(folder)
        segments = system["segments"]
        kind = calibration.kind_values(system)
        features = {x["segment"]: x["features"] for x in system["lineFeatures"]}
        dialogue = [i for i, x in enumerate(segments) if x.get("kind") == "dialogue"]
        pred, index = [], []
        for i in dialogue:
            a, b = s.trim(text, int(segments[i]["start"]), int(segments[i]["end"]))
            if b > a:
                pred.append(dict(start=a, end=b, speaker=segments[i].get("speaker"), confidence=segments[i].get("confidence")))
                index.append(i)
        resolve = calibration.mapping(s, gchars, system)
        m = s.align(gold, pred)
        self.x, self.right, self.shipped, self.scorable, self.missed = [], [], [], 0, 0
        for g, quote in enumerate(gold):
            if not quote["scorable"]: continue
            self.scorable += 1
            if g not in m:
                self.missed += 1
                continue
            p, i = pred[m[g]], index[m[g]]
            self.x.append(features.get(i))
            self.right.append(resolve(p["speaker"]) == quote["speaker"])
            self.shipped.append(kind.get(i, round(float(p["confidence"] or 0), 4)))
        # The turn model's lines: each candidate's features, which are right, the rules' choice
        # and the shipped one (the segment's speaker).
        self.turns = []
        global PRONOUN_AFTER
        PRONOUN_AFTER = system["candidateFeatureNames"].index("pronoun.after")
        candidates = {x["segment"]: x.get("candidates") for x in system["lineFeatures"] if x.get("candidates")}
        for g, quote in enumerate(gold):
            if not quote["scorable"] or g not in m or index[m[g]] not in candidates: continue
            i, options = index[m[g]], candidates[index[m[g]]]
            right = [resolve(c.get("speaker")) == quote["speaker"] for c in options]
            rule = next(k for k, c in enumerate(options) if c["features"][0] == 1)
            shipped = next((k for k, c in enumerate(options) if c.get("speaker") == segments[i].get("speaker")), rule)
            self.turns.append((np.array([c["features"] for c in options], dtype=float), np.array(right, dtype=float), rule, shipped))
        self.segments = [features.get(i) for i in dialogue]
        self.segment_shipped = [kind.get(i, round(float(segments[i].get("confidence") or 0), 4)) for i in dialogue]
        self.width = width


def matrix(rows, width):
    """Feature rows as an array; a line with no features (a script's NAME:, no speaker) is NaN."""
    return np.array([r if r is not None else [np.nan] * width for r in rows], dtype=float)


def fit(x, y, l2=L2):
    """L2-regularised logistic regression by Newton's method on standardised features."""
    mean, std = x.mean(axis=0), x.std(axis=0)
    std[std == 0] = 1
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / std])
    w = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], l2)
    penalty[0] = 0
    for _ in range(50):
        p = 1 / (1 + np.exp(-z @ w))
        gradient = z.T @ (p - y) + penalty * w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8: break
    # Back to the raw features: bias and weights the Swift code applies as they are.
    weights = w[1:] / std
    bias = w[0] - (mean * weights).sum()
    return bias, weights


def fit_choice(turns, l2=L2):
    """A conditional logit (softmax over each line's candidates) by Newton's method; lines none
    of whose candidates is right teach nothing and are left out. Returns raw-feature weights."""
    x = np.vstack([f for f, _, _, _ in turns])
    mean, std = x.mean(axis=0), x.std(axis=0)
    std[std == 0] = 1
    lines = [((f - mean) / std, r / r.sum()) for f, r, _, _ in turns if r.sum() > 0]
    w = np.zeros(x.shape[1])
    for _ in range(50):
        gradient, hessian = l2 * w, l2 * np.eye(len(w))
        for f, y in lines:
            z = f @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            gradient = gradient + f.T @ (p - y)
            fp = f.T @ p
            hessian = hessian + (f.T * p) @ f - np.outer(fp, fp)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8: break
    # Per-line constants cancel in a softmax, so the mean needs no bias: weights on raw features.
    return w / std


PRONOUN_AFTER = None  # the index of "pronoun.after" in the candidates' features (set by load)


def choose(weights, turns):
    """The candidate each line's model picks, as TurnCandidates.Choice.allowed lets it: the rules'
    choice or a candidate the pronoun after the line does not contradict."""
    picks = []
    for f, _, rule, _ in turns:
        scores = f @ weights
        if PRONOUN_AFTER is not None:
            scores = np.where((f[:, PRONOUN_AFTER] == -1) & (np.arange(len(f)) != rule), -np.inf, scores)
        picks.append(int(np.argmax(scores)))
    return picks


def predict(model, x):
    bias, weights = model
    out = 1 / (1 + np.exp(-(bias + np.nan_to_num(x) @ weights)))
    out[np.isnan(x).any(axis=1)] = np.nan
    return out


def learned(model, rows, fallback, width):
    """The model's confidence of each row; a line with no features keeps its kind's value (a
    script's NAME:, or no speaker: 0), as the Swift code does."""
    values = predict(model, matrix(rows, width))
    return [float(v) if not np.isnan(v) else c for v, c in zip(values, fallback)]


def loo(novels, names, width, l2=L2):
    """{novel: (its found lines' confidences, its dialogue segments', the other novels' segments')}
    from a model fitted on the other novels."""
    out = {}
    for n in names:
        train = [novels[m] for m in names if m != n]
        x = np.vstack([matrix(t.x, width) for t in train])
        y = np.concatenate([np.array(t.right, dtype=float) for t in train])
        keep = ~np.isnan(x).any(axis=1)
        model = fit(x[keep], y[keep], l2)
        held = novels[n]
        out[n] = (learned(model, held.x, held.shipped, width), learned(model, held.segments, held.segment_shipped, width),
                  [c for t in train for c in learned(model, t.segments, t.segment_shipped, width)])
    return out


def load(binary, data, cache):
    """{novel: Novel}, the novels' names, the line features' names and the turn candidates'."""
    s = calibration.load_scorer(data)
    names = sorted(n for n in os.listdir(data) if os.path.isfile(os.path.join(data, n, "novel_text.txt")))
    with ThreadPoolExecutor(2) as pool:
        systems = list(pool.map(lambda n: analyse(binary, os.path.join(data, n, "novel_text.txt"), cache), names))
    feature_names = systems[0]["featureNames"]
    novels = {n: Novel(s, os.path.join(data, n), system, len(feature_names)) for n, system in zip(names, systems)}
    return novels, names, feature_names, systems[0]["candidateFeatureNames"]


def kinds_fit(novels):
    """Each shipped value's (kind's, standing's) accuracy on these novels."""
    counts = collections.defaultdict(lambda: [0, 0])
    for n in novels:
        for c, ok in zip(n.shipped, n.right): counts[c][0] += ok; counts[c][1] += 1
    return {c: r / t for c, (r, t) in counts.items()}


def ece(conf, right, bands=10):
    total = 0.0
    for b in range(bands):
        sel = [(c, r) for c, r in zip(conf, right) if min(bands - 1, int(c * bands)) == b]
        if sel: total += len(sel) / len(conf) * abs(sum(r for _, r in sel) / len(sel) - sum(c for c, _ in sel) / len(sel))
    return total


def log_loss(conf, right):
    return -sum(math.log(max(1e-6, c if r else 1 - c)) for c, r in zip(conf, right)) / max(1, len(conf))


def threshold(values, share=SEND_SHARE):
    """The value below which `share` of these segment confidences lie."""
    return float(np.quantile(np.array(values), share))


def evaluate(name, held, line_conf, segment_conf, limit):
    sent_segments = sum(c < limit for c in segment_conf) / max(1, len(segment_conf))
    right = sum(ok or c < limit for c, ok in zip(line_conf, held.right))
    return dict(name=name, sent=sent_segments, oracle=right / max(1, held.scorable),
                loss=log_loss(line_conf, held.right), ece=ece(line_conf, held.right), lines=line_conf)


SHARES = [0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40]


def oracle_at(conf, right, share, scorable):
    """Attribution with a perfect model when the lowest-confidence `share` of these lines is
    sent; lines tied at the cut are sent in proportion (their expected value)."""
    order = sorted(zip(conf, right))
    budget, fixed, i = share * len(order), 0.0, 0
    while i < len(order) and budget > 0:
        j = i
        while j < len(order) and order[j][0] == order[i][0]: j += 1
        block = order[i:j]
        wrong = sum(not r for _, r in block)
        taken = min(len(block), budget)
        fixed += wrong * taken / len(block)
        budget -= taken
        i = j
    return (sum(right) + fixed) / scorable


def turn_folds(novels, names, l2=L2):
    """The turn model judged leave one novel out: {novel: (lines a turn rule attributed, right as
    the rules chose, right as shipped, right as the model fitted on the other novels picks)}.
    (The shipped analysis also keeps a speaker's last lines where the model would take them; the
    held-out pick does not, which moved no figure by more than a quote or two.)"""
    out = {}
    for n in names:
        turns = novels[n].turns
        weights = fit_choice([t for m in names if m != n for t in novels[m].turns], l2)
        held = choose(weights, turns)
        out[n] = (len(turns), int(sum(r[k] for _, r, k, _ in turns)), int(sum(r[k] for _, r, _, k in turns)),
                  int(sum(t[1][k] for t, k in zip(turns, held))))
    return out


def report_turns(novels, names, l2):
    print("Turn model, leave one novel out (lines a turn rule attributed; right as the rules chose / as shipped / held out):")
    folds = turn_folds(novels, names, l2)
    for n in names:
        lines, rule, shipped, cv = folds[n]
        print("  %-30s %5d lines: %5d / %5d / %5d (%+d on the rules)" % (n, lines, rule, shipped, cv, cv - rule))
    totals = [sum(f[i] for f in folds.values()) for i in range(4)]
    print("  %-30s %5d lines: %5d / %5d / %5d (%+d on the rules, %+.4f of all scorable quotes)" % (
        "all", *totals, totals[3] - totals[1], (totals[3] - totals[1]) / max(1, sum(novels[n].scorable for n in names))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=calibration.default_binary())
    parser.add_argument("--data", default=os.path.join(root, "../shared/eval/pdnc-dev"))
    parser.add_argument("--cache", default=os.path.join(root, ".build/attribution-learn"))
    parser.add_argument("--l2", type=float, default=L2)
    parser.add_argument("--write", choices=["speakers", "confidence"],
                        help="fit on every novel and write the turn model's weights (LearnedSpeakerWeights.swift) or the"
                             " confidence's (LearnedWeights.swift); the confidence is fitted on what the shipped turn model says,"
                             " so write speakers, rebuild, then write confidence")
    args = parser.parse_args()
    novels, names, feature_names, candidate_names = load(args.bin, args.data, args.cache)
    width = len(feature_names)

    report_turns(novels, names, args.l2)

    rows, pooled = [], collections.defaultdict(lambda: dict(conf=[], right=[], sent=0, segments=0, oracle=0, scorable=0))
    held_out = loo(novels, names, width, args.l2)
    for n in names:
        train = [novels[m] for m in names if m != n]
        held = novels[n]
        kinds = kinds_fit(train)
        train_kinds = [kinds.get(c, c) for t in train for c in t.segment_shipped]
        line_conf, segment_conf, train_learned = held_out[n]
        results = [
            evaluate("kinds", held, [kinds.get(c, c) for c in held.shipped], [kinds.get(c, c) for c in held.segment_shipped],
                     threshold(train_kinds)),
            evaluate("learned", held, line_conf, segment_conf, threshold(train_learned)),
        ]
        rows.append((n, results))
        for r in results:
            p = pooled[r["name"]]
            p["conf"] += r["lines"]; p["right"] += held.right
            p["sent"] += r["sent"] * len(held.segments); p["segments"] += len(held.segments)
            p["oracle"] += r["oracle"] * held.scorable; p["scorable"] += held.scorable

    print("Leave one novel out: each novel scored by a model fitted on the other %d (L2 %.2f, threshold at %.0f %% of their segments)" % (
        len(names) - 1, args.l2, SEND_SHARE * 100))
    print("%-30s %22s %22s" % ("novel", "kinds: sent / oracle", "learned: sent / oracle"))
    for n, results in rows:
        print("%-30s %22s %22s" % (n, *("%.3f / %.3f" % (r["sent"], r["oracle"]) for r in results)))
    for name, p in pooled.items():
        print("%-8s pooled: sent %.3f of dialogue segments, perfect-model attribution %.4f, log loss %.4f, ECE %.4f" % (
            name, p["sent"] / p["segments"], p["oracle"] / p["scorable"], log_loss(p["conf"], p["right"]), ece(p["conf"], p["right"])))

    print("\nThe learned model at fixed thresholds (its values are probabilities; pooled held-out lines):")
    p = pooled["learned"]
    for limit in (0.70, 0.75, 0.80, 0.85):
        sent = [c < limit for c in p["conf"]]
        fixed = sum(not r for s_, r in zip(sent, p["right"]) if s_)
        print("  %.2f: sends %.1f %% of found lines, perfect-model attribution %.4f" % (
            limit, 100 * sum(sent) / len(sent), (sum(p["right"]) + fixed) / p["scorable"]))

    print("\nAt equal cost (the lowest-confidence share of all found lines sent, pooled; ties split evenly):")
    print("%-8s " % "sent" + " ".join("%8.0f%%" % (q * 100) for q in SHARES))
    for name, p in pooled.items():
        print("%-8s " % name + " ".join("%9.4f" % oracle_at(p["conf"], p["right"], q, p["scorable"]) for q in SHARES))

    if args.write == "speakers":
        turns = [t for n in names for t in novels[n].turns]
        weights = fit_choice(turns, args.l2)
        lines = ["// Written by bench/attribution-learn.py --write speakers; do not edit. Fitted on the %d development" % len(names),
                 "// novels (%d lines a turn rule attributed, L2 %.2f); judged leave one novel out by the same script." % (len(turns), args.l2),
                 "enum LearnedSpeakerWeights {",
                 "    static let names: [String] = [",
                 *["        \"%s\"," % f for f in candidate_names],
                 "    ]",
                 "    static let weights: [Double] = [",
                 *["        %.6f,  // %s" % (w, f) for w, f in zip(weights, candidate_names)],
                 "    ]",
                 "}"]
        open(SPEAKER_WEIGHTS_SWIFT, "w").write("\n".join(lines) + "\n")
        print("wrote %s" % os.path.relpath(SPEAKER_WEIGHTS_SWIFT, root))
    if args.write == "confidence":
        x = np.vstack([matrix(novels[n].x, width) for n in names])
        y = np.concatenate([np.array(novels[n].right, dtype=float) for n in names])
        keep = ~np.isnan(x).any(axis=1)
        bias, weights = fit(x[keep], y[keep], args.l2)
        lines = ["// Written by bench/attribution-learn.py --write; do not edit. Fitted on the %d development novels" % len(names),
                 "// (%d lines, L2 %.2f); judged leave one novel out by the same script (docs/analysis.md)." % (int(keep.sum()), args.l2),
                 "enum LearnedWeights {",
                 "    static let names: [String] = [",
                 *["        \"%s\"," % f for f in feature_names],
                 "    ]",
                 "    static let bias = %.6f" % bias,
                 "    static let weights: [Double] = [",
                 *["        %.6f,  // %s" % (w, f) for w, f in zip(weights, feature_names)],
                 "    ]",
                 "}"]
        open(WEIGHTS_SWIFT, "w").write("\n".join(lines) + "\n")
        print("wrote %s" % os.path.relpath(WEIGHTS_SWIFT, root))


if __name__ == "__main__":
    main()
