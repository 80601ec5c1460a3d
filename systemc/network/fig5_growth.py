#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Why the average FCT of a benchmark study grows with the arrival window.

usage: fig5_growth.py DIR

DIR is a convergence study's output folder (docs/results/convergence.md):
one merged run per window in DIR/w<ms>/ (summary.json, flows.csv,
points/*.json). Written for Fig. 5's study (background flows only, one
scheme, several buffers); the first buffer is the one analysed in detail.
Prints, per window: offered load, unfinished flows and bytes at the run's
end, the average FCT per size bucket and its share of the all-flow
average; for the longest window: FCT against start time, flows in flight
against time, bytes offered and delivered per 5 ms, FCT against the
offered load of the flow's busier host; the first flows of seed 1 in every
window; the ratio of the first buffer to the last per window, PAUSE frames
and CPU time. Unfinished flows count at their elapsed time (run end minus
start), a lower bound, as in summary.json's "with_unfinished". Needs numpy.
"""
import csv
import glob
import json
import math
import os
import sys
import warnings

import numpy as np

# an empty group (a bucket without flows) prints nan
warnings.filterwarnings("ignore", "Mean of empty slice")
warnings.filterwarnings("ignore", "invalid value encountered")

T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}
# flows.csv columns kept, in this order
ID, SRC, DST, SIZE, START, FCT, FINISHED, DELIVERED = range(8)


def ci(x, digits=1):
    """mean [95 % t interval] over seeds"""
    x = np.asarray(x, float)
    if len(x) - 1 not in T975:
        return f"{x.mean():9.{digits}f} [n={len(x)}]"
    h = T975[len(x) - 1] * x.std(ddof=1) / math.sqrt(len(x))
    return f"{x.mean():9.{digits}f} [{x.mean() - h:8.{digits}f}, {x.mean() + h:8.{digits}f}]"


def size_name(b):
    for unit, v in (("MB", 1e6), ("KB", 1e3)):
        if b >= v:
            return f"{b / v:g}{unit}"
    return f"{b:g}B"


def load_window(path):
    """{(buffer_mb, seed): array of the columns above}"""
    rows = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            if r["kind"] != "background":
                continue
            fin = r["finished"] == "1"
            rows.setdefault((int(r["buffer_mb"]), int(r["seed"])), []).append(
                (int(r["id"]), int(r["src"]), int(r["dst"]), int(r["size"]), float(r["start_us"]),
                 float(r["fct_us"]) if fin else math.nan, int(fin), int(r["delivered"])))
    return {k: np.array(v, dtype=float) for k, v in rows.items()}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    dirs = sorted(glob.glob(os.path.join(d, "w*", "summary.json")), key=lambda p: json.load(open(p))["duration_ms"])
    if not dirs:
        sys.exit(f"fig5_growth.py: no {d}/w*/summary.json")
    summ = {json.load(open(p))["duration_ms"]: json.load(open(p)) for p in dirs}
    windows = sorted(summ)
    first = summ[windows[0]]
    hosts, drain = first["topology"]["hosts"], first["drain_ms"]
    pt = json.load(open(glob.glob(os.path.join(os.path.dirname(dirs[0]), "points", "*.json"))[0]))
    rate_bps = float(pt["params"]["link.rate_gbps"]) * 1e9
    edges = [float(e) for e in pt["params"]["bench.size_buckets"].split(",")]
    names = [f"<{size_name(edges[0])}"] + [f"{size_name(edges[i])}-{size_name(edges[i + 1])}" for i in range(len(edges) - 1)] \
        + [f">={size_name(edges[-1])}"]
    data = {w: load_window(os.path.join(d, f"w{w:g}", "flows.csv")) for w in windows}
    buffers = sorted({b for b, _ in data[windows[0]]})
    seeds = sorted({s for _, s in data[windows[0]]})
    b0, wl = buffers[0], windows[-1]
    end_us = {w: (w + drain) * 1e3 for w in windows}

    def fct(w, a):
        return np.where(a[:, FINISHED] == 1, a[:, FCT], end_us[w] - a[:, START])

    def bucket(a):
        return np.searchsorted(edges, a[:, SIZE], side="right")

    def host_load(w, a):
        """offered load of the busier of each flow's two hosts over the window"""
        cap = rate_bps / 8 * w * 1e-3
        tx = np.bincount(a[:, SRC].astype(int), weights=a[:, SIZE], minlength=hosts) / cap
        rx = np.bincount(a[:, DST].astype(int), weights=a[:, SIZE], minlength=hosts) / cap
        return tx, rx, np.maximum(tx[a[:, SRC].astype(int)], rx[a[:, DST].astype(int)])

    print(f"== per window and buffer, mean over {len(seeds)} seeds: flows, offered load (of {hosts} host links), "
          "unfinished, bytes undelivered at the end (GB), average FCT us [95 % t]")
    for w in windows:
        for b in buffers:
            runs = [data[w][(b, s)] for s in seeds]
            print(f"{w:4g} ms {b:4d} MiB {np.mean([len(a) for a in runs]):8.0f}"
                  f"  {np.mean([a[:, SIZE].sum() * 8 / (hosts * rate_bps * w * 1e-3) for a in runs]):.3f}"
                  f"  {np.mean([(a[:, FINISHED] == 0).sum() for a in runs]):7.1f}"
                  f"  {np.mean([(a[:, SIZE] - a[:, DELIVERED]).sum() / 1e9 for a in runs]):6.3f}"
                  f"  {ci([fct(w, a).mean() for a in runs])}")

    print(f"\n== {b0} MiB: average FCT per size bucket, us [95 % t] (share of the all-flow average)")
    for w in windows:
        cells = []
        for k, name in enumerate(names):
            per, share = [], []
            for s in seeds:
                a = data[w][(b0, s)]
                f, bk = fct(w, a), bucket(a)
                per.append(f[bk == k].mean())
                share.append(f[bk == k].sum() / f.sum())
            cells.append(f"{name}: {ci(per)} ({100 * np.mean(share):4.1f} %)")
        print(f"{w:4g} ms  " + "  ".join(cells))

    a = np.concatenate([data[wl][(b0, s)] for s in seeds])
    f, bk = fct(wl, a), bucket(a)
    step = wl / 10
    print(f"\n== {wl:g} ms, {b0} MiB, seeds pooled: average FCT per bucket (us) by start time; unfinished")
    for i in range(10):
        m = (a[:, START] >= i * step * 1e3) & (a[:, START] < (i + 1) * step * 1e3)
        print(f"start {i * step:4.1f}-{(i + 1) * step:4.1f} ms: " + " ".join(f"{f[m & (bk == k)].mean():8.1f}" for k in range(len(names)))
              + f"   unfinished {int((a[m, FINISHED] == 0).sum()):5d} of {int(m.sum())}")

    ts = [t for t in (1, 2, 5, 10, 20, 30, 40, 50, 55, 60) if t <= wl + drain]
    print(f"\n== {wl:g} ms, {b0} MiB: flows in flight (started, not finished) at time t ms")
    print("t       " + " ".join(f"{t:6d}" for t in ts))
    for s in seeds:
        r = data[wl][(b0, s)]
        done = np.where(r[:, FINISHED] == 1, r[:, START] + r[:, FCT], np.inf)
        print(f"seed {s:2d} " + " ".join(f"{int(((r[:, START] <= t * 1e3) & (done > t * 1e3)).sum()):6d}" for t in ts))

    print(f"\n== {wl:g} ms, {b0} MiB, mean over seeds: load offered and delivered per {step:g} ms, as a share of "
          "the host links (delivery spread evenly over each flow's life: an estimate)")
    t_edges = np.arange(0, wl + drain + step / 2, step) * 1e3
    off, dl = np.zeros(len(t_edges) - 1), np.zeros(len(t_edges) - 1)
    for s in seeds:
        r = data[wl][(b0, s)]
        st = r[:, START]
        en = np.where(r[:, FINISHED] == 1, st + r[:, FCT], end_us[wl])
        off += np.histogram(st, t_edges, weights=r[:, SIZE])[0]
        for i in range(len(t_edges) - 1):
            ov = np.clip(np.minimum(en, t_edges[i + 1]) - np.maximum(st, t_edges[i]), 0, None)
            dl[i] += (r[:, DELIVERED] * ov / np.maximum(en - st, 1e-9)).sum()
    cap = hosts * rate_bps / 8 * step * 1e-3 * len(seeds)
    for i in range(len(t_edges) - 1):
        print(f"{t_edges[i] / 1e3:5.1f}-{t_edges[i + 1] / 1e3:5.1f} ms  offered {off[i] / cap:.3f}  delivered {dl[i] / cap:.3f}")

    print(f"\n== seed {seeds[0]}, {b0} MiB: the flows that start in the first {windows[0]:g} ms, in every window")
    ids = set(data[windows[0]][(b0, seeds[0])][:, ID].astype(int))
    for w in windows:
        r = data[w][(b0, seeds[0])]
        m = r[:, START] < windows[0] * 1e3
        print(f"{w:4g} ms: {int(m.sum())} flows (the same as in {windows[0]:g} ms: {set(r[m, ID].astype(int)) == ids}),"
              f" average FCT {fct(w, r)[m].mean():8.1f} us, unfinished {int((r[m, FINISHED] == 0).sum())}")

    print(f"\n== {b0} MiB, seeds pooled: hosts offered more than their link over the window (senders, receivers)")
    for w in windows:
        tx, rx = [], []
        for s in seeds:
            t_, r_, _ = host_load(w, data[w][(b0, s)])
            tx.append(t_)
            rx.append(r_)
        tx, rx = np.concatenate(tx), np.concatenate(rx)
        print(f"{w:4g} ms: senders {100 * (tx > 1).mean():5.1f} % (sd {tx.std():.2f}, max {tx.max():.2f});"
              f"  receivers {100 * (rx > 1).mean():5.1f} % (sd {rx.std():.2f}, max {rx.max():.2f})")

    hl = np.concatenate([host_load(wl, data[wl][(b0, s)])[2] for s in seeds])
    print(f"\n== {wl:g} ms, {b0} MiB, seeds pooled: flows by their busier host's offered load over the window")
    print(f"host load     flows  unfinished  average FCT us: {names[2]}  {names[0]}")
    for lo, hi in [(0, 0.9), (0.9, 1.0), (1.0, 1.1), (1.1, 1.2), (1.2, 99)]:
        m = (hl >= lo) & (hl < hi)
        print(f"{lo:.1f}-{min(hi, 9):.1f}  {int(m.sum()):8d}  {100 * (a[m, FINISHED] == 0).mean():6.2f} %"
              f"  {f[m & (bk == 2)].mean():10.1f}  {f[m & (bk == 0)].mean():8.1f}")
    print(f"\n== {wl:g} ms, {b0} MiB: average FCT (us) by start time, flows whose busier host is offered < 0.9 / >= 1.0")
    print(f"start ms      {names[0]}: <0.9  >=1.0     {names[1]}: <0.9  >=1.0")
    for i in range(0, 10, 2):
        m = (a[:, START] >= i * step * 1e3) & (a[:, START] < (i + 2) * step * 1e3)

        def c(k, lo, hi):
            return f[m & (bk == k) & (hl >= lo) & (hl < hi)].mean()
        print(f"{i * step:4.1f}-{(i + 2) * step:4.1f}  {c(0, 0, 0.9):14.1f} {c(0, 1, 99):6.1f}  {c(1, 0, 0.9):18.1f} {c(1, 1, 99):6.1f}")

    print(f"\n== {b0} MiB against {buffers[-1]} MiB: per seed, average FCT ratio - 1, % [95 % t]; PAUSE frames per run; CPU s")
    for w in windows:
        rat = [100 * (fct(w, data[w][(b0, s)]).mean() / fct(w, data[w][(buffers[-1], s)]).mean() - 1) for s in seeds]
        pts = [json.load(open(p))["metrics"] for p in glob.glob(os.path.join(d, f"w{w:g}", "points", "*.json"))]
        pause = [np.mean([p["pause_frames"] for p in pts if int(p["buffer_mb"]) == b]) for b in (b0, buffers[-1])]
        print(f"{w:4g} ms: {ci(rat, 2)}  PAUSE {pause[0]:9.0f} / {pause[1]:7.0f}"
              f"  {len(pts)} points, CPU {sum(p['cpu_s'] for p in pts):7.1f} s")


if __name__ == "__main__":
    main()
