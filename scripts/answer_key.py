#!/usr/bin/env python3
"""Run `tsume solve` over an answer-key TSV (set, id, sfen, verdict,
minimax_plies, stated_plies, ...) and compare: every `mate` must be proven
mate, no `nomate` may be reported mate, and the length must not exceed
minimax_plies when the length is proven (a line cut by the limit is
reported as `inexact`). The summary counts the key's mates whose length
came out proven (`length_exact`). Usage: answer_key.py ANSWERS.tsv [--time S] [--bin PATH] [--only ID,...] [--threads N]"""
import argparse, json, subprocess, sys, time

ap = argparse.ArgumentParser()
ap.add_argument("tsv")
ap.add_argument("--time", type=float, default=10)
ap.add_argument("--bin", default="target/release/tsume")
ap.add_argument("--only", default="")
ap.add_argument("--extra", default="")
ap.add_argument("--threads", default="1", help="search threads per problem (default 1: one core, as the peers run)")
args = ap.parse_args()
only = set(x for x in args.only.split(",") if x)
bad = 0
counts = {}
exact_mates = key_mates = 0
t0 = time.time()
for line in open(args.tsv, encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    f = line.rstrip("\n").split("\t")
    st, pid, sfen, verdict, mm, stated = f[0], f[1], f[2], f[3], f[4], f[5]
    if only and pid not in only:
        continue
    cmd = [args.bin, "solve", "--format", "json", "--time", str(args.time), "--threads", args.threads] + args.extra.split() + [sfen]
    out = subprocess.run(cmd, capture_output=True, text=True)
    try:
        r = json.loads(out.stdout)
    except Exception:
        print(f"{st}/{pid}: CRASH rc={out.returncode} {out.stderr[-300:]}")
        bad += 1
        continue
    v = r["verdict"]
    counts[v] = counts.get(v, 0) + 1
    status = "ok"
    if verdict == "mate" and v != "mate":
        status = "MISS" if v == "unknown" else "WRONG"
    if verdict == "nomate" and v == "mate":
        status = "WRONG"
    if v == "mate" and mm and r["length"] > int(mm):
        # Longer than the key's minimax: a bug only if the length was
        # proven (a limit may cut the refinement and leave the first line).
        status = "LONG" if r.get("length_exact") else "inexact"
    if verdict == "mate":
        key_mates += 1
        exact_mates += int(v == "mate" and bool(r.get("length_exact")))
    if status in ("WRONG", "LONG"):
        bad += 1
    print(f"{st}/{pid}\tkey={verdict}/{mm or '?'}/{stated}\tgot={v}/{r['length']}\t{r['seconds']}s\t{r['nodes']}\t{status}\t{'exact' if r.get('length_exact') else ''}", flush=True)
print("counts", counts, "exact", f"{exact_mates}/{key_mates}", "bad", bad, "time", round(time.time() - t0, 1))
sys.exit(1 if bad else 0)
