#!/usr/bin/env python3
"""Where attribution loses, novel by novel: the scorer's own alignment and character mapping
(../shared/eval/score_attribution.py), with every wrong quote put in one bucket.

  bench/attribution-errors.py [--bin .build/release/storyvoice] [--data ../shared/eval/pdnc-dev]
                              [--novel NAME] [--show N]

Buckets of a wrong quote (first that applies):
  missed       the quote was not found
  no speaker   found, but given to nobody
  unmapped     given to a system character that maps to no gold character (a spurious or
               split character, or a name shared by several)
  no entity    the right gold character has no system character mapped to it
  wrong        both exist: the analysis chose the wrong person
--show N prints N examples of each bucket per novel (text, gold and system speakers).
"""
import argparse, collections, importlib.util, json, os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)


def load_scorer(data):
    path = os.path.join(os.path.dirname(os.path.abspath(data)), "score_attribution.py")
    spec = importlib.util.spec_from_file_location("score_attribution", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def analyse(binary, text_path):
    out = subprocess.run([binary, "analyze", text_path, "--format", "json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def mapping(s, gchars, system):
    g_alias = collections.defaultdict(set)
    for gid, c in gchars.items():
        for n in c["names"]: g_alias[s.norm_name(n)].add(gid)
    to_gold, names = {}, {}
    for c in system.get("characters", []):
        votes = collections.Counter(gid for n in s.system_names(c) for gid in g_alias.get(s.norm_name(n), ()))
        best = votes.most_common()
        top = [gid for gid, n in best if n == best[0][1]] if best else []
        if len(top) > 1:
            display = s.norm_name(str(c.get("name") or ""))
            top = [gid for gid in top if s.norm_name(gchars[gid]["main"]) == display] or top
        to_gold[str(c.get("id"))] = top[0] if len(top) == 1 else None
        names[str(c.get("id"))] = c.get("name")
    return to_gold, names


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(root, ".build/release/storyvoice"))
    parser.add_argument("--data", default=os.path.join(root, "../shared/eval/pdnc-dev"))
    parser.add_argument("--novel")
    parser.add_argument("--show", type=int, default=0)
    args = parser.parse_args()
    s = load_scorer(args.data)
    totals = collections.Counter()
    novels = sorted(n for n in os.listdir(args.data) if os.path.isfile(os.path.join(args.data, n, "novel_text.txt")))
    if args.novel: novels = [n for n in novels if args.novel.lower() in n.lower()]
    header = "%-26s %5s %6s %6s %6s %6s %6s %6s  %s" % ("novel", "n", "attrib", "missed", "nospk", "unmap", "noent", "wrong", "top confusions (gold -> system)")
    print(header)
    for novel in novels:
        folder = os.path.join(args.data, novel)
        text, gchars, gold = s.load_gold(folder)
        system = analyse(args.bin, os.path.join(folder, "novel_text.txt"))
        items = system.get("quotes") or [x for x in system.get("segments", []) if x.get("kind") == "dialogue"]
        pred = []
        for q in items:
            a, b = s.trim(text, int(q["start"]), int(q["end"]))
            if b > a: pred.append(dict(start=a, end=b, speaker=q.get("speaker")))
        to_gold, names = mapping(s, gchars, system)
        mapped = set(g for g in to_gold.values() if g)
        m = s.align(gold, pred)
        buckets, examples, confusions = collections.Counter(), collections.defaultdict(list), collections.Counter()
        n = right = 0
        for i, g in enumerate(gold):
            if not g["scorable"]: continue
            n += 1
            if i not in m: kind = "missed"
            else:
                spk = pred[m[i]]["speaker"]
                got = to_gold.get(str(spk)) if spk is not None else None
                if got == g["speaker"]: right += 1; continue
                if spk is None: kind = "nospk"
                elif got is None: kind = "unmap"
                elif g["speaker"] not in mapped: kind = "noent"
                else: kind = "wrong"
                confusions[(gchars[g["speaker"]]["main"], names.get(str(spk), str(spk)))] += 1
            buckets[kind] += 1
            examples[kind].append((g, pred[m[i]]["speaker"] if i in m else None))
        totals.update(buckets); totals["n"] += n; totals["right"] += right
        top = "; ".join("%s->%s %d" % (a, b, k) for (a, b), k in confusions.most_common(4))
        print("%-26s %5d %6.3f %6d %6d %6d %6d %6d  %s" % (novel[:26], n, right / n, buckets["missed"], buckets["nospk"], buckets["unmap"], buckets["noent"], buckets["wrong"], top))
        for kind in ("missed", "nospk", "unmap", "noent", "wrong"):
            for g, spk in examples[kind][:args.show]:
                snippet = text[g["start"]:g["end"]].replace("\n", " ")[:90]
                context = text[g["end"]:g["end"] + 60].replace("\n", " ")
                print("    %-6s %s | %s -> %s | %s" % (kind, snippet, gchars[g["speaker"]]["main"], names.get(str(spk), spk), context))
    n = totals["n"]
    print("%-26s %5d %6.3f %6d %6d %6d %6d %6d" % ("all", n, totals["right"] / n, totals["missed"], totals["nospk"], totals["unmap"], totals["noent"], totals["wrong"]))


if __name__ == "__main__":
    sys.exit(main())
