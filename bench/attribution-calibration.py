#!/usr/bin/env python3
"""Does the offline analyzer's confidence mean what it says? Calibration of speaker confidence on
the PDNC development novels, with the scorer's own alignment and character mapping
(../shared/eval/score_attribution.py: IoU >= 0.5, majority name vote, display-name tie-break).

  bench/attribution-calibration.py [--bin PATH] [--data ../shared/eval/pdnc-dev] [--json OUT] [--markdown]

For every gold quote that is scorable and found, it records the line's confidence (from
`storyvoice analyze FILE --format json`) and whether the line is right end to end (its speaker
maps to the gold character). Each kind of evidence has its own constant in
Sources/StoryText/Attribution/Confidence.swift, so a confidence value names its kind; the names
are read from that file. It prints:

  1. per kind: lines and accuracy over all novels, and per novel;
  2. leave-one-novel-out calibration: each novel's lines get the accuracy their kind has on the
     other novels; the reliability table of those values (ten bands) and their expected
     calibration error (ECE = sum over bands of lines/all * |accuracy - mean confidence|);
     the ECE of the shipped constants for comparison, and the mean per-novel ECE (each novel
     on its own: stricter, as one book's errors do not average out with another's);
  3. for hybrid thresholds 0.50-0.95: the share of lines hybrid would send (found scorable lines,
     and all dialogue segments, which is what is paid for), the share of the errors those lines
     hold, and the attribution a perfect model would then reach (kept lines as they are, sent
     lines right, missed quotes wrong); the same for the default threshold read from
     Sources/Analysis/LabellingOptions.swift, and the threshold the script recommends: the
     highest kind's value below which at most about a third (35 %) of the dialogue segments lie;
  4. the constants measured on all novels, rounded to 2 decimals, as Swift to paste into
     Confidence.swift (a tie after rounding is split by 0.01 in the direction of the unrounded
     values, so the kinds stay apart).
--markdown also prints the kinds, reliability and threshold tables for docs/analysis.md.
"""
import argparse, collections, importlib.util, json, os, re, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
CONFIDENCE_SWIFT = os.path.join(root, "Sources/StoryText/Attribution/Confidence.swift")


DESCRIPTIONS = {
    "script": "a play script's \"NAME: line\"",
    "namedTag": "named speech tag (and the other part of a quote it splits; \"her father\" resolved)",
    "pronounTag": "pronoun tag, clear best candidate",
    "turnTaking": "turn-taking in a two-party run, known turn at most 2 away",
    "action": "action of the paragraph's subject",
    "addressee": "addressed by the previous or next turn",
    "continuation": "same paragraph as a tagged quote",
    "crowdedTurn": "alternation among 3+ tagged voices (also by address words there)",
    "fallback": "turn-taking further away, from people named before the run, or by address words",
    "pronounTagClose": "pronoun tag with two close candidates, or nobody of its gender near",
    "guess": "last-resort guess",
    "minorName": "any evidence, for a name with under 0.2 % of the book's lines",
    "minorRole": "any evidence, for a role with under 1 % of the book's lines",
}


def load_module(name):
    """A sibling script as a module (their names have dashes)."""
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), os.path.join(here, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The scorer's loader and its character mapping, shared with bench/attribution-errors.py.
errors = load_module("attribution-errors")
load_scorer = errors.load_scorer


def default_binary():
    for rel in (".build/release/storyvoice", ".build-calib/debug/storyvoice", ".build/debug/storyvoice"):
        if os.path.isfile(os.path.join(root, rel)): return os.path.join(root, rel)
    return os.path.join(root, ".build/release/storyvoice")


def first_json(stdout):
    """The first JSON object on stdout (tolerates stray lines a development build may print)."""
    return json.JSONDecoder().raw_decode(stdout[stdout.index("{"):])[0]


def analyse(binary, text_path):
    """The analysis with each line's evidence and features (`--features`)."""
    out = subprocess.run([binary, "analyze", text_path, "--format", "json", "--features"], capture_output=True, text=True, check=True)
    return first_json(out.stdout)


def kind_values(system, path=CONFIDENCE_SWIFT):
    """{segment index: its kind's value}: the value Confidence.swift gives the line's evidence,
    lowered to its speaker's standing's (minorRole, minorName) as `Confidence.value(for:speaker:...)`
    does. The shipped confidence is the learned one (LearnedConfidence), a value of its own per
    line, so the kinds are read from the line's evidence instead."""
    value = {name: v for v, names in kind_names(path).items() for name in names}
    names = system.get("featureNames") or []
    standing = [(names.index("speaker." + k), k) for k in ("minorRole", "minorName") if "speaker." + k in names]
    out = {}
    for line in system.get("lineFeatures") or []:
        v = value.get(line["evidence"], 0.0)
        for i, k in standing:
            if line["features"][i] > 0: v = min(v, value.get(k, v))
        out[line["segment"]] = round(v, 4)
    return out


def kind_names(path=CONFIDENCE_SWIFT):
    """{value: [evidence names]} from `case .a, .b: return 0.83` lines of Confidence.swift."""
    names = collections.defaultdict(list)
    if not os.path.isfile(path): return names
    for cases, value in re.findall(r"case\s+([.\w,\s]+?):\s*return\s+([0-9.]+)", open(path, encoding="utf-8").read()):
        for name in re.findall(r"\.(\w+)", cases): names[round(float(value), 4)].append(name)
    return names


def default_threshold():
    """LabellingOptions' default confidenceThreshold, read from the source."""
    path = os.path.join(root, "Sources/Analysis/LabellingOptions.swift")
    found = re.search(r"confidenceThreshold:\s*Double\s*=\s*([0-9.]+)", open(path, encoding="utf-8").read()) if os.path.isfile(path) else None
    return float(found.group(1)) if found else 0.6


def mapping(s, gchars, system):
    """Speaker (a system character id, or a name) -> gold character id, exactly as the scorer maps."""
    to_gold, _ = errors.mapping(s, gchars, system)
    g_alias = collections.defaultdict(set)
    for gid, c in gchars.items():
        for n in c["names"]: g_alias[s.norm_name(n)].add(gid)

    def resolve(spk):
        if spk is None: return None
        if str(spk) in to_gold: return to_gold[str(spk)]
        ids = g_alias.get(s.norm_name(str(spk)), set())
        return next(iter(ids)) if len(ids) == 1 else None
    return resolve


def lines_of(s, folder, system, by_kind=True):
    """(lines, missed, scorable, dialogue segments): lines = [(confidence, right)] for found scorable
    gold quotes; the confidence is the line's kind's value (`kind_values`) when `by_kind` and the
    analysis has its lines' features, else the shipped one."""
    text, gchars, gold = s.load_gold(folder)
    kinds = kind_values(system) if by_kind and "lineFeatures" in system else None
    items = system.get("quotes") or [dict(x, confidence=kinds.get(i, x.get("confidence")) if kinds is not None else x.get("confidence"))
                                     for i, x in enumerate(system.get("segments", [])) if x.get("kind") == "dialogue"]
    pred = []
    for q in items:
        a, b = s.trim(text, int(q["start"]), int(q["end"]))
        if b > a: pred.append(dict(start=a, end=b, speaker=q.get("speaker"), confidence=q.get("confidence")))
    resolve = mapping(s, gchars, system)
    m = s.align(gold, pred)
    lines, missed, scorable = [], 0, 0
    for i, g in enumerate(gold):
        if not g["scorable"]: continue
        scorable += 1
        if i not in m:
            missed += 1
            continue
        p = pred[m[i]]
        lines.append((round(float(p["confidence"] or 0), 4), resolve(p["speaker"]) == g["speaker"]))
    return lines, missed, scorable, [round(float(q.get("confidence") or 0), 4) for q in items]


def ece(pairs, bands=10):
    """Expected calibration error and the reliability rows of [(confidence, right)]."""
    bins = collections.defaultdict(list)
    for c, ok in pairs: bins[min(bands - 1, int(c * bands))].append((c, ok))
    rows, total = [], 0.0
    for b in sorted(bins):
        xs = bins[b]
        conf = sum(c for c, _ in xs) / len(xs)
        acc = sum(ok for _, ok in xs) / len(xs)
        total += len(xs) / len(pairs) * abs(acc - conf)
        rows.append((b / bands, (b + 1) / bands, len(xs), conf, acc))
    return total, rows


def split_ties(measured):
    """Rounded constants; kinds that round to the same value are moved 0.01 apart."""
    rounded = {v: round(acc, 2) for v, acc in measured.items()}
    for _ in range(20):
        by = collections.defaultdict(list)
        for v, r in rounded.items(): by[r].append(v)
        clash = [vs for vs in by.values() if len(vs) > 1]
        if not clash: break
        for vs in clash:
            vs.sort(key=lambda v: measured[v])
            for k, v in enumerate(vs[1:], 1): rounded[v] = round(rounded[v] + 0.01 * k, 2)
    return rounded


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=default_binary())
    parser.add_argument("--data", default=os.path.join(root, "../shared/eval/pdnc-dev"))
    parser.add_argument("--json", help="write the per-line records here")
    parser.add_argument("--markdown", action="store_true", help="also print the tables for docs/analysis.md")
    args = parser.parse_args()
    s = load_scorer(args.data)
    names = kind_names()
    novels = sorted(n for n in os.listdir(args.data) if os.path.isfile(os.path.join(args.data, n, "novel_text.txt")))
    per_novel, missed, scorable, segments = {}, {}, {}, {}
    for novel in novels:
        folder = os.path.join(args.data, novel)
        system = analyse(args.bin, os.path.join(folder, "novel_text.txt"))
        per_novel[novel], missed[novel], scorable[novel], segments[novel] = lines_of(s, folder, system)
    if args.json:
        json.dump({n: dict(lines=per_novel[n], missed=missed[n], scorable=scorable[n], segments=segments[n]) for n in novels}, open(args.json, "w"))

    def kind_label(v):
        found = names.get(v)
        return "/".join(found) if found else "?"
    clashes = {v: ns for v, ns in names.items() if len(ns) > 1 and v > 0}
    for v, ns in clashes.items():
        print("WARNING: kinds %s share confidence %.2f and cannot be told apart; give each its own value" % (", ".join(ns), v))

    all_lines = [x for n in novels for x in per_novel[n]]
    kinds = sorted({c for c, _ in all_lines}, reverse=True)
    stats = {n: collections.defaultdict(lambda: [0, 0]) for n in novels}
    for n in novels:
        for c, ok in per_novel[n]: stats[n][c][0] += ok; stats[n][c][1] += 1
    overall = collections.defaultdict(lambda: [0, 0])
    for n in novels:
        for c, (r, t) in stats[n].items(): overall[c][0] += r; overall[c][1] += t
    n_all = len(all_lines)
    right_all = sum(ok for _, ok in all_lines)
    n_scorable = sum(scorable.values())
    print("%d novels: %d scorable gold quotes, %d found (%d missed); %d right end to end (attribution %.3f; %.3f of found lines)" % (
        len(novels), n_scorable, n_all, sum(missed.values()), right_all, right_all / n_scorable, right_all / n_all))

    # 1. Per kind, overall and per novel.
    print("\n== Per kind of evidence (confidence as shipped -> lines, accuracy over all novels) ==")
    print("%-6s %-34s %6s %6s %6s" % ("conf", "evidence", "lines", "share", "acc"))
    for c in kinds:
        r, t = overall[c]
        print("%-6.2f %-34s %6d %6.3f %6.3f" % (c, kind_label(c)[:34], t, t / n_all, r / t))
    short = [n[:7] for n in novels]
    print("\nper novel: accuracy (lines)")
    print("%-6s " % "conf" + " ".join("%13s" % x for x in short))
    for c in kinds:
        cells = []
        for n in novels:
            r, t = stats[n].get(c, [0, 0])
            cells.append("%13s" % ("%.2f (%d)" % (r / t, t) if t else "-"))
        print("%-6.2f " % c + " ".join(cells))
    cells = ["%13s" % ("%.3f (%d)" % (sum(ok for _, ok in per_novel[n]) / max(1, len(per_novel[n])), len(per_novel[n]))) for n in novels]
    print("%-6s " % "all" + " ".join(cells))

    # 2. Leave-one-novel-out calibration.
    loo_pairs, per_novel_ece = [], []
    for n in novels:
        pairs = []
        for c, ok in per_novel[n]:
            r = overall[c][0] - stats[n].get(c, [0, 0])[0]
            t = overall[c][1] - stats[n].get(c, [0, 0])[1]
            pairs.append((r / t if t else c, ok))
        loo_pairs += pairs
        if pairs: per_novel_ece.append((ece(pairs)[0], len(pairs), n))
    loo_ece, rows = ece(loo_pairs)
    shipped_ece, shipped_rows = ece(all_lines)
    print("\n== Leave-one-novel-out calibration (each novel's lines get their kind's accuracy on the other %d novels) ==" % (len(novels) - 1))
    print("%-11s %6s %6s %9s %9s %7s" % ("band", "lines", "share", "mean conf", "accuracy", "gap"))
    for lo, hi, k, conf, acc in rows:
        print("%.1f - %.1f  %6d %6.3f %9.3f %9.3f %+7.3f" % (lo, hi, k, k / len(loo_pairs), conf, acc, acc - conf))
    print("ECE (LOO, pooled over the %d novels): %.4f  (goal <= 0.05)" % (len(novels), loo_ece))
    print("ECE of the shipped constants (in-sample if they were measured on these novels): %.4f" % shipped_ece)
    weighted = sum(e * k for e, k, _ in per_novel_ece) / sum(k for _, k, _ in per_novel_ece)
    print("mean per-novel ECE (LOO values, each novel alone, weighted by lines): %.4f; worst %s" % (
        weighted, ", ".join("%s %.3f" % (n, e) for e, _, n in sorted(per_novel_ece, reverse=True)[:3])))
    print("\nshipped constants, same bands:")
    for lo, hi, k, conf, acc in shipped_rows:
        print("%.1f - %.1f  %6d %6.3f %9.3f %9.3f %+7.3f" % (lo, hi, k, k / n_all, conf, acc, acc - conf))

    # 4 (before 3, whose second table uses them). Constants measured on all novels.
    measured = {c: overall[c][0] / overall[c][1] for c in kinds if c > 0}
    proposed = split_ties(measured)
    remap = dict(proposed)

    # 3. Thresholds.
    errors = n_all - right_all
    all_segments = [c for n in novels for c in segments[n]]

    def threshold_table(conf_of, title):
        print("\n== Hybrid thresholds (%s) ==" % title)
        print("%-9s %12s %12s %12s %14s %12s" % ("threshold", "lines sent", "segments", "errors held", "acc of kept", "oracle attr"))
        for t in [x / 100 for x in range(50, 100, 5)]:
            sent = [(c, ok) for c, ok in all_lines if conf_of(c) < t]
            kept = [(c, ok) for c, ok in all_lines if conf_of(c) >= t]
            held = sum(not ok for _, ok in sent)
            segs = sum(conf_of(c) < t for c in all_segments)
            kept_right = sum(ok for _, ok in kept)
            print("%-9.2f %12s %12s %12s %14s %12.3f" % (
                t, "%.1f%%" % (100 * len(sent) / n_all), "%.1f%%" % (100 * segs / len(all_segments)),
                "%.1f%%" % (100 * held / errors if errors else 0), "%.3f" % (kept_right / len(kept)) if kept else "-",
                (kept_right + len(sent)) / n_scorable))
    def recommend(conf_of, title):
        """The highest threshold sending at most about a third of the dialogue: thresholds that
        matter are the kinds' own values (t sends every kind below t)."""
        best = None
        for t in sorted({conf_of(c) for c in kinds if conf_of(c) > 0}):
            segs = sum(conf_of(c) < t for c in all_segments) / len(all_segments)
            if segs <= 0.35: best = t
        if best is None: return
        sent = [ok for c, ok in all_lines if conf_of(c) < best]
        held = sum(not ok for ok in sent)
        segs = sum(conf_of(c) < best for c in all_segments) / len(all_segments)
        print("recommended threshold (%s): %.2f -- sends %.1f%% of found lines (%.1f%% of dialogue segments) holding %.1f%% of the errors;"
              " every kind below %.2f (%s) is sent" % (title, best, 100 * len(sent) / n_all, 100 * segs, 100 * held / errors, best,
                                                      ", ".join(kind_label(c) for c in kinds if 0 < conf_of(c) < best)))
    threshold_table(lambda c: c, "confidence as shipped")
    t = default_threshold()
    sent = [ok for c, ok in all_lines if c < t]
    print("default threshold (LabellingOptions): %.2f -- sends %.1f%% of found lines (%.1f%% of dialogue segments) holding %.1f%% of the errors" % (
        t, 100 * len(sent) / n_all, 100 * sum(c < t for c in all_segments) / len(all_segments), 100 * sum(not ok for ok in sent) / errors))
    recommend(lambda c: c, "as shipped")
    if any(abs(remap.get(c, c) - c) > 1e-9 for c in kinds):
        threshold_table(lambda c: remap.get(c, c), "with the measured constants below")
        recommend(lambda c: remap.get(c, c), "with the measured constants")
    print("(lines sent: found scorable gold quotes below the threshold; segments: all dialogue segments, what is paid for;"
          " errors held: wrong found lines below the threshold / all wrong found lines; oracle attr: attribution if a perfect"
          " model labels the sent lines and the rest stay, %d missed quotes counted wrong)" % sum(missed.values()))

    if args.markdown:
        print("\n== Markdown ==\n")
        print("| confidence | evidence | lines | accuracy | per novel (>= 20 lines) |")
        print("|---|---|---|---|---|")
        for c in kinds:
            r, t = overall[c]
            accs = sorted((stats[n][c][0] / stats[n][c][1], n) for n in novels if stats[n].get(c, [0, 0])[1] >= 20)
            spread = "%.2f (%s) – %.2f (%s)" % (accs[0][0], accs[0][1], accs[-1][0], accs[-1][1]) if len(accs) > 1 else "–"
            label = "; ".join(DESCRIPTIONS.get(x, x) for x in names.get(c, ["?"]))
            print("| %.2f | %s | %s | %.3f | %s |" % (c, label, format(t, ","), r / t, spread))
        print("\n| band (LOO value) | lines | mean confidence | accuracy | gap |")
        print("|---|---|---|---|---|")
        for lo, hi, k, conf, acc in rows:
            print("| %.1f – %.1f | %s | %.3f | %.3f | %+.3f |" % (lo, hi, format(k, ","), conf, acc, acc - conf))
        print("\n| threshold | lines sent | dialogue segments sent | errors held | accuracy of kept lines | attribution with a perfect model |")
        print("|---|---|---|---|---|---|")
        for t in sorted(set([x / 100 for x in range(60, 90, 5)] + [default_threshold()])):
            sent = [ok for c, ok in all_lines if c < t]
            kept = [ok for c, ok in all_lines if c >= t]
            segs = sum(c < t for c in all_segments)
            print("| %.2f | %.1f %% | %.1f %% | %.1f %% | %.3f | %.3f |" % (
                t, 100 * len(sent) / n_all, 100 * segs / len(all_segments), 100 * sum(not ok for ok in sent) / errors,
                sum(kept) / len(kept), (sum(kept) + len(sent)) / n_scorable))

    print("\n== Constants measured on all %d novels (paste into Confidence.swift) ==" % len(novels))
    for c in sorted(measured, key=lambda c: -proposed[c]):
        print("        case %s: return %.2f   // %d lines, accuracy %.4f (shipped %.2f)" % (
            ", ".join("." + x for x in names.get(c, ["?"])), proposed[c], overall[c][1], measured[c], c))
    return 0


if __name__ == "__main__":
    sys.exit(main())
