# SPDX-License-Identifier: Apache-2.0
"""The verdict of compare.sh and ui-compare.sh: two builds' runs, taken in pairs, figure by figure.

    python3 pairedfigures.py RESULTS [--paired-too] [--min-pairs N] [--no-verdict] FIGURE.KEY[:higher]...

RESULTS holds one JSON object per run: {"side": "base" | "head", "figure": FIGURE, KEY: value, ...},
the runs of each figure in the order they were taken, a base run and a head run to each pair. Prints
one line per FIGURE.KEY, {"figure", "base", "head", "ratio", "pairedRatio", "worse", "baseRuns",
"headRuns"}: each side's median, their ratio head/base, the median of each pair's head/base, and
`worse` when head is more than 5 % worse (lower is better unless `:higher`) by the ratio of the
medians, and with --paired-too by the paired ratio as well; never with fewer than --min-pairs pairs.
Exits 1 when any figure is worse. With --no-verdict the figures are only said: no `worse`, exit 0.
"""
import argparse
import json
import statistics
import sys


def worse_by(ratio, higher):
    return ratio < 0.95 if higher else ratio > 1.05


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results")
    parser.add_argument("--paired-too", action="store_true")
    parser.add_argument("--min-pairs", type=int, default=1)
    parser.add_argument("--no-verdict", action="store_true")
    parser.add_argument("measures", nargs="+")
    args = parser.parse_args()
    rows = [json.loads(line) for line in open(args.results)]
    worse_any = False
    for measure in args.measures:
        name, _, direction = measure.partition(":")
        figure, _, key = name.partition(".")
        higher = direction == "higher"
        runs = {side: [r[key] for r in rows if r["side"] == side and r["figure"] == figure]
                for side in ("base", "head")}
        med = {side: statistics.median(runs[side]) for side in runs}
        ratio = med["head"] / med["base"] if med["base"] else float("inf")
        # The runs of a pair were taken seconds apart: the median of their ratios leaves out what
        # the machine's drift over minutes puts between pairs.
        paired = statistics.median(h / b if b else float("inf") for b, h in zip(runs["base"], runs["head"]))
        line = {"figure": name, "base": med["base"], "head": med["head"], "ratio": round(ratio, 3),
                "pairedRatio": round(paired, 3)}
        if not args.no_verdict:
            worse = (worse_by(ratio, higher) and (not args.paired_too or worse_by(paired, higher))
                     and len(runs["head"]) >= args.min_pairs)
            worse_any = worse_any or worse
            line["worse"] = worse
        # Every run beside the medians: one unlucky run on a shared machine shows for what it is.
        print(json.dumps({**line, "baseRuns": runs["base"], "headRuns": runs["head"]}))
    return 1 if worse_any else 0


if __name__ == "__main__":
    sys.exit(main())
