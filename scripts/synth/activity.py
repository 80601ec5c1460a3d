# SPDX-License-Identifier: Apache-2.0
"""Switching activity from a simulated workload: a VCD (fst2vcd of the
Verilated RTL's FST) read once, every bit's toggles and time at 1 counted
over a window of clock cycles.

Names are those of the netlist's flop nets, without a top scope: the scope
path below the top module joined with '.', then the signal, then one
[index] per dimension, e.g. 'u_store.port_hdrm_q[3][0]' for bit 0 of
the VCD's `port_hdrm_q[3] [19:0]` in scope tb.dsh_mmu.u_store. A
one-bit signal is named without an index."""

import re
from dataclasses import dataclass, field


@dataclass
class BitActivity:
    toggles: int = 0      # 0->1 and 1->0 changes in the window
    high_ps: int = 0      # time at 1 in the window (VCD time units)


@dataclass
class Activity:
    """What a window of a trace holds: cycles, and per bit its toggles and
    time at 1; activity() and duty() are per clock cycle, OpenSTA's units."""
    cycles: int
    window: tuple               # (start, end) in VCD time units
    bits: dict = field(default_factory=dict)   # name -> BitActivity
    scopes: dict = field(default_factory=dict)  # name -> its scope path ('' at the top)

    def activity(self, name):
        b = self.bits[name]
        return b.toggles / self.cycles if self.cycles else 0.0

    def duty(self, name):
        b = self.bits[name]
        span = self.window[1] - self.window[0]
        return b.high_ps / span if span else 0.0


_VAR = re.compile(r"\$var\s+\S+\s+(\d+)\s+(\S+)\s+(.+?)\s*\$end")


def _bit_names(ref, width):
    """[(bit index in the value, name)] of a $var reference, value bit 0 the LSB.
    'x_q [7:0]' -> x_q[0] .. x_q[7]; 'mem_q[3] [31:0]' -> mem_q[3][0] ...;
    'v' (width 1) -> v; 'v [0:0]' -> v; 'm(2)' (Verilator's array index
    in some versions) -> m[2]."""
    ref = re.sub(r"\((\d+)\)", r"[\1]", ref.strip())
    m = re.fullmatch(r"(.+?)\s*\[(\d+):(\d+)\]", ref)
    if m:
        base, msb, lsb = m.group(1).replace(" ", ""), int(m.group(2)), int(m.group(3))
        if width == 1:
            return [(0, base)]
        step = -1 if msb >= lsb else 1
        idx = list(range(msb, lsb + step, step))  # MSB first, as VCD values are written
        return [(width - 1 - i, f"{base}[{n}]") for i, n in enumerate(idx)]
    base = ref.replace(" ", "")
    if width == 1:
        return [(0, base)]
    return [(width - 1 - i, f"{base}[{width - 1 - i}]") for i in range(width)]


def read_vcd(path_or_lines, top="dsh_mmu", clock="clk_i", skip_cycles=0, max_cycles=None):
    """Activity of every bit under the scope named top (signals above it,
    e.g. the testbench's, are left out), over a window of clock cycles: the
    first skip_cycles rising edges of clock (in top) are skipped (reset,
    warm-up), then up to max_cycles counted. Values x and z count as 0."""
    lines = open(path_or_lines) if isinstance(path_or_lines, str) else iter(path_or_lines)
    scope, ids, clk_id = [], {}, None     # id -> [(value bit, name)]
    for ln in lines:
        ln = ln.strip()
        if ln.startswith("$scope"):
            scope.append(ln.split()[2])
        elif ln.startswith("$upscope"):
            scope.pop()
        elif ln.startswith("$var"):
            m = _VAR.match(ln)
            if not m or top not in scope:
                continue
            width, code, ref = int(m.group(1)), m.group(2), m.group(3)
            path = scope[scope.index(top) + 1:]
            prefix = ".".join(path) + "." if path else ""
            if not path and ref.split()[0] == clock:
                clk_id = code
            ids.setdefault(code, []).extend(
                (b, prefix + n) for b, n in _bit_names(ref, width))
        elif ln.startswith("$enddefinitions"):
            break
    if clk_id is None:
        raise ValueError(f"no clock {clock} in scope {top} of the trace")

    value = {}          # id -> current value as an int (x/z as 0)
    widths = {c: max(b for b, _ in v) + 1 for c, v in ids.items()}
    toggles = {c: [0] * widths[c] for c in ids}
    high = {c: [0] * widths[c] for c in ids}
    since = {}          # id -> time its current value started (inside the window)
    t, edges, start, end, counting, done = 0, 0, None, None, False, False
    period = None

    def close(code, now):
        """Add the time the current value held, up to now, to high."""
        v, t0 = value.get(code, 0), since.get(code, now)
        if v and now > t0:
            h = high[code]
            for b in range(widths[code]):
                if v >> b & 1:
                    h[b] += now - t0

    def change(code, v):
        if code not in ids:
            return
        old = value.get(code, 0)
        if counting:
            diff = old ^ v
            if diff:
                close(code, t)
                since[code] = t
                tg = toggles[code]
                while diff:
                    low = diff & -diff
                    tg[low.bit_length() - 1] += 1
                    diff ^= low
        value[code] = v

    for ln in lines:
        if not ln or ln[0] in "$\n":
            continue
        c = ln[0]
        if c == "#":
            t = int(ln[1:])
            continue
        if c in "01xXzZ":
            code, v = ln[1:].strip(), 1 if c == "1" else 0
        elif c in "bB":
            bits, code = ln[1:].split()
            v = int(re.sub(r"[xXzZ]", "0", bits), 2)
        else:
            continue  # real values
        if code == clk_id and v == 1 and value.get(code, 0) == 0:
            edges += 1
            if counting and period is None:
                period = t - start
            if not counting and edges == skip_cycles + 1:
                counting, start = True, t
                since.update({k: t for k in ids})
            elif counting and max_cycles is not None and edges == skip_cycles + max_cycles + 1:
                end, done = t, True
                break
        change(code, v)
    if isinstance(path_or_lines, str):
        lines.close()
    if start is None:
        raise ValueError(f"the trace has {edges} rising edges of {clock}; "
                         f"{skip_cycles} were to be skipped")
    if end is None:
        end = t
    for code in ids:
        close(code, end)
    # whole clock periods in the window (the trace may end mid-cycle)
    cycles = max_cycles if done else (round((end - start) / period) if period else 0)
    act = Activity(cycles=cycles, window=(start, end))
    for code, names in ids.items():
        for b, n in names:
            act.bits[n] = BitActivity(toggles[code][b], high[code][b])
    return act
