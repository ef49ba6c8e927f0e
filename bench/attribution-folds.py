#!/usr/bin/env python3
"""Attribution on the thirteen PDNC development novels, novel by novel, all-novels and cross-validated
(issue 48: a rule, list or weight counts only by what it does on novels it was not made from).

  bench/attribution-folds.py [--bin .build/release/storyvoice] [--data ../shared/eval/pdnc-dev] [--json OUT] [--markdown]
                             [--baseline BEFORE.json --made-from NOVEL[,NOVEL]]

It runs `storyvoice analyze FILE --format json` once per novel and scores it with the shared scorer
(../shared/eval/score_attribution.py, imported, so the figures are the scorer's own): per novel
attribution, explicit / anaphoric / implicit, character recall, gender and quote F1, and the micro
averages over all novels.

Folds: leave one novel out (13 folds of 12 + 1). Every value the analysis takes from these novels'
gold labels (not from reading their text) is fitted on the twelve and applied to the thirteenth:

  - the gender cast when nothing in the text tells (`GenderAgeInference.unmarked`, confidence
    0.35): the majority gold gender of such characters in the twelve;
  - the learned confidence of each line (`LearnedConfidence`, bench/attribution-learn.py): the
    logistic model of the lines' features fitted on the twelve. Its values are probabilities, so
    hybrid's threshold is the shipped one (`LabellingOptions.confidenceThreshold`), not fitted.
    Run with numpy: .venv/bin/python3 bench/attribution-folds.py.

The held-out novel's gender, and what hybrid sends of it and reaches with a perfect model, are
then measured with the fitted values. Attribution, explicit/anaphoric/implicit, character recall
and quote F1 depend on no fitted value (nothing in the analysis that chooses a speaker is fitted),
so their cross-validated figure is the all-novels one; the rules and word lists were written while
reading all thirteen novels' errors, which no fold can undo: a new rule counts by what it does on
the novels other than the one whose errors suggested it (docs/analysis.md, "Folds").

--baseline (a --json file written before a change) and --made-from (the novels whose errors the
change was made from) judge a change that way: per novel, the quotes gained and lost, and the
attribution over the novels it was not made from, before and after. A change is kept when that
figure rises and no held-out novel loses more than a few quotes.
"""
import argparse, collections, importlib.util, json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
UNMARKED_CONFIDENCE = 0.35  # GenderAgeInference.unmarked
KINDS = ("Explicit", "Anaphoric", "Implicit")


sys.path.insert(0, here)
calibration = importlib.import_module("attribution-calibration")  # its loader, alignment and calibration rules
errors = calibration.errors
learn = importlib.import_module("attribution-learn")  # the learned confidence, fitted per fold (needs numpy)


def ratio(pair):
    return pair[0] / pair[1] if pair[1] else 0.0


def unmarked_characters(s, folder, system):
    """[(gold gender M/F, cast gender letter)] of the speaking characters cast by the unmarked guess."""
    _, gchars, gold = s.load_gold(folder)
    to_gold, _ = errors.mapping(s, gchars, system)
    speaking = {g["speaker"] for g in gold if g["scorable"]}
    seen, out = set(), []
    for c in system.get("characters", []):
        gid = to_gold.get(str(c.get("id")))
        if gid is None or gid in seen: continue
        seen.add(gid)  # the scorer maps each gold character to its first system character
        if gid in speaking and gchars[gid]["gender"] in ("M", "F") and abs(float(c.get("genderConfidence") or 0) - UNMARKED_CONFIDENCE) < 1e-6:
            out.append(gchars[gid]["gender"])
    return out


def judge(before, after, novels, made_from):
    """Per novel the right quotes before and after; the attribution over the novels the change was not made from."""
    unknown = [m for m in made_from if m not in novels]
    if unknown: sys.exit("--made-from: no such novel: %s" % ", ".join(unknown))
    print("\n== Against the baseline (made from: %s) ==" % (", ".join(made_from) or "nothing named"))
    print("%-22s %9s %9s %6s %7s %7s" % ("novel", "before", "after", "delta", "chars", "gender"))
    held = [n for n in novels if n not in made_from and n in before]
    for n in novels:
        if n not in before: continue
        b, a = before[n]["attribution_n"], after[n]["attribution_n"]
        print("%-22s %4d/%-4d %4d/%-4d %+6d %+7d %+7d%s" % (n[:22], b[0], b[1], a[0], a[1], a[0] - b[0], after[n]["char"][0] - before[n]["char"][0],
              after[n]["gender_n"][0] - before[n]["gender_n"][0], "  (made from)" if n in made_from else ""))
    if held:
        b = sum(before[n]["attribution_n"][0] for n in held) / sum(before[n]["attribution_n"][1] for n in held)
        a = sum(after[n]["attribution_n"][0] for n in held) / sum(after[n]["attribution_n"][1] for n in held)
        worst = min(held, key=lambda n: after[n]["attribution_n"][0] - before[n]["attribution_n"][0])
        print("JUDGED on the %d novels it was not made from: attribution %.4f -> %.4f (%+.4f); worst %s %+d quotes" % (
            len(held), b, a, a - b, worst, after[worst]["attribution_n"][0] - before[worst]["attribution_n"][0]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(root, ".build/release/storyvoice"))
    parser.add_argument("--data", default=os.path.join(root, "../shared/eval/pdnc-dev"))
    parser.add_argument("--json", help="write the per-novel figures here")
    parser.add_argument("--markdown", action="store_true", help="also print the table for docs/analysis.md")
    parser.add_argument("--baseline", help="a --json file from before the change")
    parser.add_argument("--made-from", default="", help="comma-separated novels whose errors the change was made from")
    args = parser.parse_args()
    s = errors.load_scorer(args.data)
    novels = sorted(n for n in os.listdir(args.data) if os.path.isfile(os.path.join(args.data, n, "novel_text.txt")))
    score, lines, segments, missed, scorable, unmarked, learnable = {}, {}, {}, {}, {}, {}, {}
    for novel in novels:
        folder = os.path.join(args.data, novel)
        system = calibration.analyse(args.bin, os.path.join(folder, "novel_text.txt"))
        score[novel] = s.score(folder, system)
        lines[novel], missed[novel], scorable[novel], segments[novel] = calibration.lines_of(s, folder, system, by_kind=False)
        unmarked[novel] = unmarked_characters(s, folder, system)
        learnable[novel] = learn.Novel(s, folder, system, len(system["featureNames"]))
    # The shipped confidence is learned (bench/attribution-learn.py): each novel's lines get the
    # model fitted on the other twelve.
    held_out = learn.loo(learnable, novels, learnable[novels[0]].width)
    # The turn model chooses speakers: each novel's turn lines as the model fitted on the others picks.
    turns = learn.turn_folds(learnable, novels)

    threshold = calibration.default_threshold()
    rows = {}
    for n in novels:
        r = score[n]
        others = [m for m in novels if m != n]
        # Gender: the unmarked guess fitted on the other twelve.
        votes = collections.Counter(g for m in others for g in unmarked[m])
        fitted = votes.most_common(1)[0][0] if votes else "M"
        right, total = r["gender"]
        shipped_right = sum(g == "M" for g in unmarked[n])
        cv_right = right - shipped_right + sum(g == fitted for g in unmarked[n])
        # Confidence: the model fitted on the other twelve; the threshold as shipped (the
        # model's values are probabilities, so no threshold is fitted).
        cv_lines, cv_segments, _ = held_out[n]

        def hybrid(line_conf, segment_conf, t):
            right = sum(ok or c < t for c, ok in zip(line_conf, (ok for _, ok in lines[n])))
            segs = sum(c < t for c in segment_conf) / len(segment_conf) if segment_conf else 0.0
            return right / scorable[n], segs
        shipped = [c for c, _ in lines[n]]
        _, _, shipped_turns, cv_turns = turns[n]
        right_all, total_all = r["attribution"].get("all", [0, 0])
        rows[n] = dict(
            attribution=ratio([right_all, total_all]), attribution_n=[right_all, total_all],
            attribution_cv=ratio([right_all - shipped_turns + cv_turns, total_all]),
            attribution_cv_n=[right_all - shipped_turns + cv_turns, total_all],
            **{k.lower(): ratio(r["attribution"].get(k, [0, 0])) for k in KINDS},
            char_recall=ratio(r["char"]), char=r["char"], quote_f1=r["quote_f1"],
            gender=ratio(r["gender"]), gender_n=r["gender"], gender_cv=cv_right / total if total else 0.0,
            gender_cv_n=[cv_right, total], unmarked_fitted=fitted,
            hybrid=hybrid(shipped, segments[n], threshold), hybrid_cv=hybrid(cv_lines, cv_segments, threshold), threshold_cv=threshold,
            tp=round(r["quote_r"] * r["gold_quotes"]), gold=r["gold_quotes"], found=r["found_quotes"],
            by={k: r["attribution"].get(k, [0, 0]) for k in KINDS})

    def micro(key_pairs):
        return [sum(rows[n][key_pairs][0] for n in novels), sum(rows[n][key_pairs][1] for n in novels)]
    tp, gold, found = (sum(rows[n][k] for n in novels) for k in ("tp", "gold", "found"))
    p, rc = tp / found, tp / gold
    totals = dict(attribution=ratio(micro("attribution_n")), attribution_cv=ratio(micro("attribution_cv_n")), char_recall=ratio(micro("char")), gender=ratio(micro("gender_n")),
                  gender_cv=ratio(micro("gender_cv_n")), quote_f1=2 * p * rc / (p + rc),
                  **{k.lower(): ratio([sum(rows[n]["by"][k][0] for n in novels), sum(rows[n]["by"][k][1] for n in novels)]) for k in KINDS},
                  hybrid=sum(rows[n]["hybrid"][0] * scorable[n] for n in novels) / sum(scorable.values()),
                  hybrid_cv=sum(rows[n]["hybrid_cv"][0] * scorable[n] for n in novels) / sum(scorable.values()),
                  sent=sum(rows[n]["hybrid"][1] * len(segments[n]) for n in novels) / sum(len(segments[n]) for n in novels),
                  sent_cv=sum(rows[n]["hybrid_cv"][1] * len(segments[n]) for n in novels) / sum(len(segments[n]) for n in novels))

    head = "%-22s %7s %7s %7s %7s %6s %6s %6s %6s %6s | %6s %6s %6s %5s" % (
        "novel", "attrib", "attr-cv", "explic", "anaph", "impl", "chars", "gender", "gen-cv", "qF1", "hyb", "hyb-cv", "sent-cv", "t")
    print(head)
    for n in novels:
        x = rows[n]
        print("%-22s %7.3f %7.3f %7.3f %7.3f %6.3f %6.3f %6.3f %6.3f %6.3f | %6.3f %6.3f %6.1f%% %5.2f" % (
            n[:22], x["attribution"], x["attribution_cv"], x["explicit"], x["anaphoric"], x["implicit"], x["char_recall"], x["gender"],
            x["gender_cv"], x["quote_f1"], x["hybrid"][0], x["hybrid_cv"][0], 100 * x["hybrid_cv"][1], x["threshold_cv"]))
    t = totals
    print("%-22s %7.3f %7.3f %7.3f %7.3f %6.3f %6.3f %6.3f %6.3f %6.3f | %6.3f %6.3f %6.1f%%" % (
        "all (micro)", t["attribution"], t["attribution_cv"], t["explicit"], t["anaphoric"], t["implicit"], t["char_recall"], t["gender"],
        t["gender_cv"], t["quote_f1"], t["hybrid"], t["hybrid_cv"], 100 * t["sent_cv"]))
    print("(attr-cv: the lines a turn rule attributed as the turn model fitted on the other twelve picks them; gen-cv: the unmarked gender fitted on the other twelve"
          " (chose %s); hyb: hybrid with a perfect model at the shipped threshold %.2f and constants (%.1f%% of segments sent);"
          " hyb-cv: with the confidence model fitted on the other twelve, at the same threshold)" % (
              "/".join(sorted({rows[n]["unmarked_fitted"] for n in novels})), threshold, 100 * t["sent"]))
    low = [n for n in novels if rows[n]["attribution_cv"] < 0.70]
    print("novels below 0.70: %s" % (", ".join(low) or "none"))
    print("FOLDS attribution=%.3f attribution_cv=%.3f quote_f1=%.3f char_recall=%.3f gender=%.3f gender_cv=%.3f hybrid_cv=%.3f" % (
        t["attribution"], t["attribution_cv"], t["quote_f1"], t["char_recall"], t["gender"], t["gender_cv"], t["hybrid_cv"]))
    if args.json:
        json.dump(dict(novels=rows, totals=totals), open(args.json, "w"), indent=1)
    if args.baseline:
        judge(json.load(open(args.baseline))["novels"], rows, novels, [x for x in args.made_from.split(",") if x])
    if args.markdown:
        print("\n| novel | attribution (all / cv) | explicit | anaphoric | implicit | character recall | gender (all / cv) | quote F1 | hybrid, perfect model (shipped / cv) |")
        print("|---|---|---|---|---|---|---|---|---|")
        for n in novels + ["all"]:
            x = rows[n] if n != "all" else dict(t, hybrid=(t["hybrid"], 0), hybrid_cv=(t["hybrid_cv"], 0))
            print("| %s | %.3f / %.3f | %.3f | %.3f | %.3f | %.3f | %.3f / %.3f | %.3f | %.3f / %.3f |" % (
                "**all thirteen**" if n == "all" else n, x["attribution"], x["attribution_cv"], x["explicit"], x["anaphoric"], x["implicit"], x["char_recall"],
                x["gender"], x["gender_cv"], x["quote_f1"], x["hybrid"][0], x["hybrid_cv"][0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
