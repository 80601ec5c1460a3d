#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Formal checks of dsh_mmu (scripts/formal.sh runs this): Yosys reads the
RTL through rtl/dsh_mmu.f plus the harness tb/formal/dsh_mmu_formal.sv with
`read_verilog -formal`, so every ASSERT/ASSUME/COVER of the RTL and of the
harness is checked; yosys-smtbmc proves the assertions by bounded model
checking to --depth steps and tries k-induction; -c reaches each cover point
and writes its trace. --fault N plants fault N of tb/faults/dsh_faults.sv
(the signals it forces in simulation are tied to 0 here) and expects a
counterexample. The frame-mode blocks beside the MMU (rtl/dsh_wire.f) have
configurations of their own (--wire), each with its harness in
tb/formal/dsh_wire_formal.sv. Results: out/formal/summary.json and report.md.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOP = "dsh_mmu_formal"
HARNESS = os.path.join(ROOT, "tb", "formal", "dsh_mmu_formal.sv")
FAULTS_SV = os.path.join(ROOT, "tb", "faults", "dsh_faults.sv")

# Small configurations: (NumPorts, NumQueues, CellW, SizeW, CntW, Dsh, ThreshLatency).
# One queue per port turns on the harness's reference occupancy model.
CONFIGS = {
    "p1q1_dsh_l1": (1, 1, 4, 2, 3, 1, 1),
    "p1q1_sih_l1": (1, 1, 4, 2, 3, 0, 1),
    "p2q1_dsh_l2": (2, 1, 5, 2, 3, 1, 2),
    "p2q2_sih_l3": (2, 2, 6, 2, 3, 0, 3),
}
# The frame-mode blocks beside the MMU (rtl/dsh_wire.f): configuration ->
# its harness in tb/formal/dsh_wire_formal.sv (the block's small parameters
# are the harness's defaults).
WIRE_CONFIGS = {
    "wire_tick": "dsh_quanta_tick_formal",
    "wire_tx": "dsh_pfc_tx_formal",
    "wire_rx": "dsh_pfc_rx_formal",
    "wire_wdog": "dsh_pfc_wdog_formal",
    "wire_port": "dsh_wire_port_formal",
}
# Cover depth of a frame-mode configuration at least (0: no cover search).
# A frame is 60 bytes, one a cycle, so what follows a sent frame is
# reached near step 66: wire_tx searches to 70 (about 7 minutes). Every
# cover of the receive side follows a received frame's last beat; at that
# depth one cover alone takes Yosys's SAT engine over 5 minutes (1.3 M
# variables at step 51), so wire_rx and wire_port (whose cover points are
# its blocks') check their assertions only; tb/pfc drives the receive
# side with frames in simulation.
WIRE_COVER_DEPTH = {"wire_tx": 70, "wire_rx": 0, "wire_port": 0}
WIRE_HARNESS = os.path.join(ROOT, "tb", "formal", "dsh_wire_formal.sv")
# dsh_mmu with lanes (spec §9.12): configuration -> its harness module in
# tb/formal/dsh_mmu_lanes_formal.sv (the harness's parameters: 2 ports,
# 1 queue, 2 lanes, 2 dequeue slots, DSH, ThreshLatency 2).
LANE_CONFIGS = {"p2q1_dsh_l2_n2d2": "dsh_mmu_lanes_formal"}
LANE_HARNESS = os.path.join(ROOT, "tb", "formal", "dsh_mmu_lanes_formal.sv")
PARAMS = ("NumPorts", "NumQueues", "CellW", "SizeW", "CntW", "Dsh", "ThreshLatency")
QUICK = ["p1q1_dsh_l1", "p1q1_sih_l1"]


def sources(manifest="dsh_mmu.f", harness=HARNESS):
    """The RTL as the manifest lists it, and the harness."""
    files = []
    rtl = os.environ.get("DSH_RTL_DIR") or os.path.join(ROOT, "rtl")  # another copy (scripts/mutate.sh)
    with open(os.path.join(rtl, manifest)) as f:
        for line in f:
            line = line.split("//")[0].strip()
            if not line or line.startswith("+"):  # +incdir+: Yosys gets -I<rtl> below
                continue
            files.append(os.path.join(rtl, line))
    defines = ["-DSYNTHESIS"]  # the RTL's simulation-only checks use $error actions Yosys cannot read
    return files + [harness], defines


def planted_faults(path=FAULTS_SV):
    """The planted faults of the simulation's test bench: {N: (name,
    [(module, signal), ...])}, read from its numbers and its force lines
    (`if (fault == FaultName) force module.signal = '0;`). Yosys reads
    neither bind nor force, so formal ties the same signals to 0 itself."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", "", open(path).read(), flags=re.S)  # the code, not the comments
    numbers = {m.group(1): int(m.group(2))
               for m in re.finditer(r"localparam\s+int\s+unsigned\s+(Fault\w+)\s*=\s*(\d+)\s*;", text)}
    faults = {n: (name[len("Fault"):], []) for name, n in numbers.items() if n}
    for m in re.finditer(r"if\s*\(\s*fault\s*==\s*(Fault\w+)\s*\)\s*force\s+(\w+)\.(\w+)\s*=\s*'0\s*;", text):
        if m.group(1) not in numbers or not numbers[m.group(1)]:
            sys.exit("formal: %s: a force under an unknown fault %s" % (path, m.group(1)))
        faults[numbers[m.group(1)]][1].append((m.group(2), m.group(3)))
    empty = [n for n, (_, forces) in faults.items() if not forces]
    if not faults or empty or sorted(faults) != list(range(1, len(faults) + 1)):
        sys.exit("formal: %s: faults %s, none of them without a force line expected (1..N)" % (path, sorted(faults)))
    return faults


def module_base(name):
    """The source module of an RTLIL module name: \\dsh_fwd, or a
    parameterised copy $paramod\\dsh_cnt_ram\\Entries=... or
    $paramod$<hash>\\dsh_cnt_ram."""
    m = re.match(r"(?:\\|\$paramod(?:\$[0-9a-f]+)?\\)(\w+)", name)
    return m.group(1) if m else None


def fault_edits(elab_il, forces):
    """Yosys commands that tie each (module, signal) of a fault to 0 in every
    elaborated copy of the module: `connect -nomap -set`, before any
    optimisation merges the signal with another name, so that exactly its
    readers see 0, as a Verilator force does."""
    mods = [l.split()[1] for l in open(elab_il) if l.startswith("module ")]
    cmds = []
    for module, signal in forces:
        copies = [m for m in mods if module_base(m) == module]
        if not copies:
            sys.exit("formal: the fault's module %s is not in the elaborated design (%s)" % (module, elab_il))
        for m in copies:
            cmds += ["cd %s" % (m[1:] if m.startswith("\\") else m), "connect -nomap -set %s 0" % signal, "cd .."]
    return cmds


# Yosys to AIGER for ABC (the recipe of SymbiYosys's abc engines): covers
# removed, undriven nets free, gates only, each flop without an initial
# value gets an input (it starts anywhere).
AIGER = """chformal -cover -remove
setundef -undriven -anyseq
opt -fast -keepdc
dffunmap
techmap
opt -fast -keepdc -noff
abc -g AND -fast
opt_clean
dffunmap
write_aiger -I -B -zinit -map model.aim model.aig
"""

# A cover point as a property: "never cond" fails exactly when cond is
# reachable, so Yosys's SAT engine (which has no $cover) finds its trace.
COVER2ASSERT = """module \\$cover (A, EN);
  input A, EN;
  \\$assert _TECHMAP_REPLACE_ (.A(!A), .EN(EN));
endmodule
"""


def yosys(work, name, body, timeout=None):
    """Runs a Yosys script in work/ (name.ys, log name.log); False on a
    failure or a timeout."""
    with open(os.path.join(work, name + ".ys"), "w") as f:
        f.write(body)
    try:
        r = subprocess.run(["yosys", "-q", "-l", name + ".log", name + ".ys"], cwd=work, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False
    return r.returncode == 0


def out_of_reset(il):
    """The RTL's properties hold out of reset. In simulation some hold in
    reset too, because Verilator starts every flop at 0; in silicon, and in
    this proof, a flop without a reset starts anywhere. So every property
    cell of the RTL gets rst_ni (the harness's reset, low for 3 edges) ANDed
    into its enable: an edit of the RTLIL, one $and per cell."""
    lines = open(il).read().split("\n")
    out, n = [], 0
    for i, line in enumerate(lines):
        m = re.match(r"(\s*)cell \$(assert|cover) \\u_dut\.", line)
        if m:
            ind = m.group(1)
            j = i + 1
            while lines[j].strip() != "end":
                if lines[j].strip().startswith("connect \\EN "):
                    en = lines[j].strip()[len("connect \\EN "):]
                    wire = "$dsh_out_of_reset_%d" % n
                    # before the cell's attributes, which belong to it
                    k = len(out)
                    while k and out[k - 1].strip().startswith("attribute "):
                        k -= 1
                    out[k:k] = [ind + "wire " + wire, ind + "cell $and $dsh_out_of_reset_and_%d" % n]
                    out[k + 2:k + 2] = [ind + "  parameter \\%s %d" % (p, v) for p, v in
                                        (("A_SIGNED", 0), ("A_WIDTH", 1), ("B_SIGNED", 0), ("B_WIDTH", 1),
                                         ("Y_WIDTH", 1))]
                    out[k + 7:k + 7] = [ind + "  connect \\A " + en, ind + "  connect \\B \\rst_ni",
                                        ind + "  connect \\Y " + wire, ind + "end"]
                    lines[j] = lines[j].replace(en, wire)
                    n += 1
                j += 1
        out.append(line)
    open(il, "w").write("\n".join(out))


def build_model(cfg, fault, work):
    """Elaborates the harness and the RTL once into model.il (RTLIL, for
    Yosys's SAT engine) and model.smt2 (for yosys-smtbmc). The leaf
    modules' ASSUMEs state what their inputs must satisfy; in a proof of
    the whole MMU those are obligations of the logic that drives them, so
    they become assertions: only the harness's assumptions constrain."""
    if cfg in WIRE_CONFIGS:  # a frame-mode block: its harness, its parameters the harness's
        top = WIRE_CONFIGS[cfg]
        files, defines = sources("dsh_wire.f", WIRE_HARNESS)
        read = ["read_verilog -formal -sv %s -I%s %s" % (" ".join(defines), os.path.dirname(files[0]), " ".join(files))]
    elif cfg in LANE_CONFIGS:
        top = LANE_CONFIGS[cfg]
        files, defines = sources(harness=LANE_HARNESS)
        read = ["read_verilog -formal -sv %s -I%s %s" % (" ".join(defines), os.path.dirname(files[0]), " ".join(files))]
    else:
        top = TOP
        files, defines = sources()
        chparam = " ".join("-set %s %d" % (p, v) for p, v in zip(PARAMS, CONFIGS[cfg]))
        read = ["read_verilog -formal -sv %s -I%s %s" % (" ".join(defines), os.path.dirname(files[0]), " ".join(files)),
                "chparam %s dsh_mmu_formal" % chparam]
    if fault:
        # The design elaborated, processes to netlists, nothing optimised:
        # then each copy of a faulted module gets its signals tied to 0.
        if not yosys(work, "elab", "\n".join(read + ["hierarchy -top %s" % top, "proc",
                                                       "write_rtlil elab.il", ""])):
            sys.exit("formal: yosys failed for %s (see %s/elab.log)" % (cfg, work))
        read = ["read_rtlil elab.il"] + fault_edits(os.path.join(work, "elab.il"), planted_faults()[fault][1])
    # flatten + memory_map: the SMT-LIB backend of Yosys 0.23 fails on the
    # hierarchical model ("GetSize(subexpr) == 1").
    script = "\n".join(read + [
        "prep -top %s" % top,
        "flatten", "memory_map", "opt -fast",
        "async2sync", "dffunmap",
        "chformal -assume2assert t:$assume %s/u_dut.* %%i" % top,
        "write_rtlil model.il",
        "tee -q -o asserts.txt select -list t:$assert",
        "tee -q -o covers.txt select -list t:$cover", ""])
    if not yosys(work, "model", script):
        sys.exit("formal: yosys failed for %s (see %s/model.log)" % (cfg, work))
    out_of_reset(os.path.join(work, "model.il"))
    if not yosys(work, "smt2", "read_rtlil model.il\nwrite_smt2 -wires model.smt2\n"):
        sys.exit("formal: yosys failed for %s (see %s/smt2.log)" % (cfg, work))
    names = lambda f: sorted(l.strip() for l in open(os.path.join(work, f)) if l.strip())
    return names("asserts.txt"), names("covers.txt")


def smtbmc(work, args, log, timeout):
    """Runs yosys-smtbmc, its output streamed to work/log (progress is
    visible there); returns its status, output and run time."""
    cmd = ["yosys-smtbmc"] + args + ["model.smt2"]
    t0 = time.time()
    path = os.path.join(work, log)
    with open(path, "w") as f:
        f.write(" ".join(cmd) + "\n")
        f.flush()
        p = subprocess.Popen(cmd, cwd=work, stdout=f, stderr=subprocess.STDOUT)
        try:
            p.wait(timeout=timeout)
            status = None
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            status = "TIMEOUT"
    with open(path, errors="replace") as f:
        out = f.read()
    if status is None:
        m = re.search(r"Status: (\w+)", out)
        status = m.group(1) if m else "ERROR"
    return status, out, time.time() - t0


def sel(names):
    """A Yosys selection of cells by their full names (glob-safe), as one
    element of the selection stack (each name pushes one: %u joins them)."""
    pats = [n.replace("[", "?").replace("]", "?") for n in names]
    return " ".join(pats[:1] + [p + " %u" for p in pats[1:]])


def sat_result(path):
    """'failed' (a base case has a model: a trace from reset), 'proven'
    (induction closed), 'bmc' (base cases held, induction did not close),
    or None (no answer: the run failed or timed out)."""
    if not os.path.exists(path):
        return None, 0
    out = open(path, errors="replace").read()
    steps = [int(x) for x in re.findall(r"\[base case (\d+)\]", out)]
    step = max(steps or [0])
    if "model found for base case" in out or "model found: FAIL" in out:
        return "failed", step
    if "proved base case for" in out:  # -tempinduct-baseonly: bounded
        return "bmc", step
    if "Induction step proven: SUCCESS" in out:
        return "proven", step
    return ("bmc", step) if steps else (None, 0)


def run_sat(work, asserts, covers, a, fault):
    """Yosys's SAT engine (MiniSAT, bit level), one property at a time.
    1. k-induction of each assertion alone (length <= --induction), the
       ones already proven assumed: an invariant of every reachable state
       is a sound assumption, and it strengthens the others' induction.
       Rounds until no more close.
    2. BMC of the rest, together, from reset to --depth (proven ones assumed);
       if it fails, each is checked alone to that depth to name it.
    3. Each cover as "never reached", alone: its shortest trace to --cover-depth.
    Returns {assert: (result, depth)}, {cover: step}, seconds, the cex path."""
    t0 = time.time()
    head = "read_rtlil model.il\nchformal -cover -remove\ndesign -save base\n"
    res, proven, bmc_reached = {}, [], []
    os.makedirs(os.path.join(work, "prop"), exist_ok=True)
    prop_file = lambda kind, i: os.path.join("prop", "%s%d.txt" % (kind, i))
    if not fault and a.induction > 0:
        for rnd in range(3):
            todo = [x for x in asserts if x not in proven]
            body = head
            for i, x in enumerate(asserts):
                if x not in todo:
                    continue
                body += "design -load base\n"
                if proven:
                    body += "chformal -assert2assume %s\n" % sel(proven)
                body += "chformal -remove t:$assert %s %%d\n" % sel([x])
                body += "tee -q -o %s sat -tempinduct -prove-asserts -set-assumes -maxsteps %d\n" % (
                    prop_file("ind", i), a.induction)
            for i, x in enumerate(asserts):  # no stale answer from an earlier round or run
                if x in todo and os.path.exists(os.path.join(work, prop_file("ind", i))):
                    os.remove(os.path.join(work, prop_file("ind", i)))
            yosys(work, "induction%d" % rnd, body, a.timeout)
            new = []
            for i, x in enumerate(asserts):
                if x in todo:
                    r, k = sat_result(os.path.join(work, prop_file("ind", i)))
                    if r == "proven":
                        new.append(x)
                        res[x] = ("proven", "k-induction, k = %d%s" % (k, ", round %d" % (rnd + 1) if rnd else ""))
                    elif r == "failed":
                        res[x] = ("failed", "from reset within %d steps" % k)
            proven += new
            print("   induction round %d: %d of %d proven (%.0f s)" % (rnd + 1, len(proven), len(asserts),
                  time.time() - t0), flush=True)
            if not new:
                break
    # BMC of the rest from reset: ABC's bmc3 on an AIGER model (several
    # times faster here than Yosys's sat), within --bmc-seconds.
    rest = [x for x in asserts if x not in res]
    cex, k = None, None
    if rest:
        body = head + ("chformal -assert2assume %s\n" % sel(proven) if proven else "") + AIGER
        out = ""
        if yosys(work, "aiger", body, a.timeout):
            try:
                out = subprocess.run(["yosys-abc", "-c", "read_aiger model.aig; fold; strash; bmc3 -F %d -T %d -v"
                                      % (a.depth, a.bmc_seconds)], cwd=work, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, timeout=a.bmc_seconds + 120).stdout
            except subprocess.TimeoutExpired as e:
                out = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            open(os.path.join(work, "bmc3.log"), "w").write(out)
        m = re.search(r"asserted in frame (\d+)", out)
        frames = [int(x) for x in re.findall(r"^\s*(\d+) [+-] :", out, re.M)]
        if m:
            k = int(m.group(1)) + 1  # ABC counts frames from 0, Yosys steps from 1
        elif "No output asserted" in out or frames:
            reached = a.depth if "No output asserted" in out else max(frames) + 1
            for x in rest:
                res[x] = ("bmc", "BMC depth %d" % reached)
            bmc_reached.append(reached)
    if k is not None:
        # The trace from Yosys's sat at that depth; the failing assertion
        # named by halving the set, keeping a half that still fails.
        if os.path.exists(os.path.join(work, "cex.vcd")):
            os.remove(os.path.join(work, "cex.vcd"))
        yosys(work, "cex", head + "tee -q -o bmc.txt sat -tempinduct-baseonly -maxsteps %d -prove-asserts "
              "-set-assumes -dump_vcd cex.vcd\n" % k, a.timeout)
        cex = to_fst(os.path.join(work, "cex.vcd"))
        cand, runs = list(rest), 0
        while len(cand) > 1:  # each half by ABC's bmc3 to that depth: seconds
            half = cand[:len(cand) // 2]
            body = head + "chformal -remove t:$assert %s %%d\n" % sel(half) + AIGER.replace("model.", "half.")
            out = ""
            if yosys(work, "bisect%d" % runs, body, a.timeout):
                try:
                    out = subprocess.run(["yosys-abc", "-c", "read_aiger half.aig; fold; strash; bmc3 -F %d -T %d"
                                          % (k, a.bmc_seconds)], cwd=work, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, text=True, timeout=a.bmc_seconds + 120).stdout
                except subprocess.TimeoutExpired:
                    pass
            cand = half if "asserted in frame" in out else cand[len(cand) // 2:]
            runs += 1
        res[cand[0]] = ("failed", "cex at step %d" % k)
    for x in rest:
        res.setdefault(x, ("unknown", "another assertion failed at step %d" % k if k else
                           "BMC gave no answer (bmc3.log)"))
    # Covers.
    reached = {}
    if not fault and covers and a.cover_depth > 0:
        with open(os.path.join(work, "cover2assert.v"), "w") as f:
            f.write(COVER2ASSERT)
        body = "read_rtlil model.il\nchformal -assert -remove\ntechmap -map cover2assert.v t:$cover\ndesign -save covers\n"
        for i, c in enumerate(covers):
            body += "design -load covers\nchformal -remove t:$assert %s %%d\n" % sel([c])
            body += ("tee -q -o %s sat -tempinduct-baseonly -maxsteps %d -timeout %d -prove-asserts -set-assumes "
                     "-dump_vcd prop/cover%d.vcd\n" % (prop_file("cov", i), a.cover_depth, a.cover_seconds, i))
        yosys(work, "covers", body, a.timeout)
        for i, c in enumerate(covers):
            r, k = sat_result(os.path.join(work, prop_file("cov", i)))
            if r == "failed":
                reached[c] = {"step": k, "trace": to_fst(os.path.join(work, "prop", "cover%d.vcd" % i))}
    return res, reached, time.time() - t0, cex, min(bmc_reached or [0])


def to_fst(vcd):
    if not os.path.exists(vcd):
        return None
    fst = vcd[:-4] + ".fst"
    if shutil.which("vcd2fst") and subprocess.run(["vcd2fst", vcd, fst], stdout=subprocess.DEVNULL,
                                                  stderr=subprocess.DEVNULL).returncode == 0:
        return fst
    return vcd


def short(name):
    """A property's name without the top: u_dut.u_fwd.SameQueueIsSamePort_A."""
    return name.split("/", 1)[-1].lstrip("\\")


def check_config(cfg, a, out_dir):
    work = os.path.join(out_dir, cfg + ("_fault%d" % a.fault if a.fault else ""))
    os.makedirs(work, exist_ok=True)
    asserts, covers = build_model(cfg, a.fault, work)
    skipped = []
    if cfg in WIRE_COVER_DEPTH and a.cover_depth > 0:
        a = argparse.Namespace(**vars(a))
        a.cover_depth = WIRE_COVER_DEPTH[cfg] and max(a.cover_depth, WIRE_COVER_DEPTH[cfg])
        if not a.cover_depth:
            skipped, covers = covers, []
    res = {"config": cfg, "asserts": [short(x) for x in asserts], "covers": [short(x) for x in covers]}
    if skipped:
        res["covers_not_searched"] = len(skipped)
    rel = lambda p: os.path.relpath(p, out_dir) if p else ""

    if a.engine == "sat":
        props, reached, secs, cex, bmc_depth = run_sat(work, asserts, covers, a, a.fault)
        res["bmc_depth"] = bmc_depth
        failed = [short(x) for x in asserts if props[x][0] == "failed"]
        res.update(bmc_seconds=round(secs, 1), failed=failed, cex=rel(cex) if cex else None)
        res["bmc_status"] = "FAILED" if failed else ("PASSED" if all(
            props[x][0] in ("proven", "bmc") for x in asserts) else "UNKNOWN")
        res["rows"] = [(short(x), cfg) + props[x] for x in asserts]
        res["covers_reached"] = {short(c): {"step": v["step"], "trace": rel(v["trace"])} for c, v in reached.items()}
        res["cover_status"] = "PASSED" if a.cover_depth > 0 and not a.fault else None
        return res

    # yosys-smtbmc: bounded model check of all assertions together; a
    # failure names the assertion(s) that failed and leaves the trace.
    solver = ["-s", a.solver]
    status, out, secs = smtbmc(work, solver + ["-t", str(a.depth), "--dump-vcd", "cex.vcd"], "bmc.log", a.timeout)
    failed = sorted({short(m) for m in re.findall(r"Assert failed in \S+: (\S+)", out)})
    step = max([int(x) for x in re.findall(r"Checking assertions in step (\d+)", out)] or [-1])
    res.update(bmc_status=status, bmc_seconds=round(secs, 1), failed=failed, bmc_step=step)
    if status == "FAILED":
        res["cex"] = rel(to_fst(os.path.join(work, "cex.vcd")))
    # k-induction: if it closes, every assertion holds in every reachable state.
    induction = None
    if status == "PASSED" and a.induction > 0:
        induction, _, isecs = smtbmc(work, solver + ["-i", "-t", str(a.induction)], "induction.log", a.timeout)
        res.update(induction=induction, induction_seconds=round(isecs, 1))
    rows = []
    for p in asserts:
        n = short(p)
        if n.split(".")[-1] in [f.split(".")[-1] for f in failed]:
            rows.append((n, cfg, "failed", "cex in %s" % res.get("cex")))
        elif status == "PASSED" and induction == "PASSED":
            rows.append((n, cfg, "proven", "k-induction, k = %d" % a.induction))
        elif status == "PASSED":
            rows.append((n, cfg, "bmc", "BMC depth %d" % a.depth))
        else:
            rows.append((n, cfg, "unknown", "BMC %s at step %d" % (status, step)))
    res["rows"] = rows
    res["covers_reached"] = {}
    if not a.fault and covers and a.cover_depth > 0:
        cstatus, cout, csecs = smtbmc(work, solver + ["-c", "-t", str(a.cover_depth), "--dump-vcd", "cover_%.vcd"],
                                      "cover.log", a.timeout)
        res.update(cover_status=cstatus, cover_seconds=round(csecs, 1))
        idx, pending = 0, []
        for line in cout.splitlines():
            m = re.search(r"Reached cover statement at (\S+) in step (\d+)", line)
            if m:
                pending.append((m.group(1), int(m.group(2))))
            elif pending and ("Checking cover reachability" in line or "Status:" in line):
                trace = to_fst(os.path.join(work, "cover_%d.vcd" % idx))
                for n, st in pending:
                    full = [short(c) for c in covers if short(c).split(".")[-1] == n.split(".")[-1]]
                    for f in full or [n]:
                        res["covers_reached"][f] = {"step": st, "trace": rel(trace)}
                idx, pending = idx + 1, []
    return res


def write_results(a, configs, results, t0):
    """summary.json and report.md of the configurations checked so far
    (written after each, so a stopped run keeps what it finished)."""
    rows = [row for r in results for row in r["rows"]]
    summary = {
        "fault": a.fault,
        "engine": a.engine,
        "solver": a.solver,
        "configs": configs,
        "properties_total": len(rows),
        "proven": sum(1 for r in rows if r[2] == "proven"),
        "bmc_only": sum(1 for r in rows if r[2] == "bmc"),
        # the depth every BMC-only property held to (the smallest over runs)
        "bmc_depth": min([r["bmc_depth"] for r in results if r.get("bmc_depth")] or [a.depth]),
        "bmc_depth_asked": a.depth,
        "failed": sum(1 for r in rows if r[2] == "failed"),
        "unknown": sum(1 for r in rows if r[2] == "unknown"),
        "covers_total": sum(len(r["covers"]) for r in results) if not a.fault and a.cover_depth else 0,
        "covers_reached": sum(len(r["covers_reached"]) for r in results),
        "seconds": round(time.time() - t0, 1),
        "runs": [{k: v for k, v in r.items() if k != "rows"} for r in results],
    }
    name = "summary.json" if not a.fault else "summary_fault%d.json" % a.fault
    with open(os.path.join(a.out, name), "w") as f:
        json.dump(summary, f, indent=1)
    if not a.fault:
        with open(os.path.join(a.out, "report.md"), "w") as f:
            f.write("# Formal results\n\nEngine %s%s; k-induction up to %d; BMC to depth %d asked, %d reached; "
                    "covers to depth %d; run time %.0f s.\n\n" % (a.engine, " (-s %s)" % a.solver if a.engine ==
                    "smtbmc" else " (Yosys sat, ABC bmc3)", a.induction, a.depth, summary["bmc_depth"],
                    a.cover_depth, summary["seconds"]))
            f.write("| property | config | result | depth / induction |\n|---|---|---|---|\n")
            for r in rows:
                f.write("| %s | %s | %s | %s |\n" % r)
            f.write("\n| cover | config | reached | trace |\n|---|---|---|---|\n")
            for r in results:
                for c in r["covers"]:
                    hit = r["covers_reached"].get(short(c))
                    f.write("| %s | %s | %s | %s |\n" % (short(c), r["config"],
                            "step %d" % hit["step"] if hit else "no", hit["trace"] if hit else ""))
    return summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", action="append", choices=sorted(CONFIGS) + sorted(LANE_CONFIGS) + sorted(WIRE_CONFIGS),
                    help="configuration(s) to check (default: all, the MMU's and the frame-mode blocks')")
    ap.add_argument("--quick", action="store_true", help="the quick set: %s" % ", ".join(QUICK))
    ap.add_argument("--wire", action="store_true", help="the frame-mode blocks' configurations: %s"
                    % ", ".join(WIRE_CONFIGS))
    ap.add_argument("--depth", type=int, default=20, help="BMC depth in clock steps (default 20)")
    ap.add_argument("--cover-depth", type=int, default=None, help="cover search depth (default: --depth; 0: no cover search)")
    ap.add_argument("--induction", type=int, default=4,
                    help="longest k-induction tried per assertion (default 4; 0: BMC only)")
    ap.add_argument("--engine", choices=("sat", "smtbmc"), default="sat",
                    help="Yosys's sat, one property at a time (default, MiniSAT: an order of magnitude faster "
                    "here), or yosys-smtbmc, all properties together")
    ap.add_argument("--solver", default="cvc5", help="SMT solver of yosys-smtbmc (default cvc5; z3 4.8.12 "
                    "does not finish reading this model)")
    ap.add_argument("--timeout", type=int, default=3600, help="seconds per Yosys run")
    ap.add_argument("--bmc-seconds", type=int, default=1200,
                    help="time for ABC's BMC of the assertions induction did not prove (default 1200): the "
                    "depth it reaches is reported")
    ap.add_argument("--cover-seconds", type=int, default=120, help="time per cover point's search (default 120)")
    faults = planted_faults()
    ap.add_argument("--fault", type=int, default=0, help="plant fault N (1..%d, tb/faults/dsh_faults.sv): a "
                    "counterexample is expected" % len(faults))
    ap.add_argument("--expect-counterexample", action="store_true",
                    help="exit 0 only if a counterexample trace was found (fault self-test)")
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "formal"))
    a = ap.parse_args()
    if a.fault < 0 or a.fault > len(faults):
        ap.error("--fault = %d is out of range 0..%d" % (a.fault, len(faults)))
    if a.depth < 1:
        ap.error("--depth = %d must be at least 1" % a.depth)
    if a.induction < 0:
        ap.error("--induction = %d must be at least 0" % a.induction)
    for flag in ("timeout", "bmc_seconds", "cover_seconds"):
        if getattr(a, flag) < 1:
            ap.error("--%s = %d must be at least 1 second" % (flag.replace("_", "-"), getattr(a, flag)))
    a.cover_depth = a.depth if a.cover_depth is None else a.cover_depth
    if a.fault and any(c in WIRE_CONFIGS for c in a.config or []):
        ap.error("--fault plants a fault of dsh_mmu; not for the frame-mode configurations")
    configs = a.config or (QUICK if a.quick or a.fault else list(WIRE_CONFIGS) if a.wire
                           else list(CONFIGS) + list(LANE_CONFIGS) + list(WIRE_CONFIGS))
    os.makedirs(a.out, exist_ok=True)

    t0 = time.time()
    results = []
    for cfg in configs:
        print("== %s%s: %s, BMC depth %d%s" % (cfg, " fault %d" % a.fault if a.fault else "", a.engine, a.depth,
              ", induction %d" % a.induction if a.induction else ""), flush=True)
        r = check_config(cfg, a, a.out)
        results.append(r)
        print("   BMC %s (%.0f s)%s%s" % (r["bmc_status"], r["bmc_seconds"],
              "; failed: " + ", ".join(r["failed"]) if r["failed"] else "",
              "; counterexample: " + r["cex"] if r.get("cex") else ""), flush=True)
        if r.get("induction") and "induction_seconds" in r:
            print("   induction %s (%.0f s)" % (r["induction"], r["induction_seconds"]))
        if r["covers"] and not a.fault and a.cover_depth > 0:
            print("   covers %d/%d reached (%s, %.0f s)" % (len(r["covers_reached"]), len(r["covers"]),
                  r.get("cover_status"), r.get("cover_seconds", 0)), flush=True)
        write_results(a, configs, results, t0)
        if a.fault and r["failed"]:
            break  # one counterexample is the result

    summary = write_results(a, configs, results, t0)
    rows = [row for r in results for row in r["rows"]]
    print("formal: %d properties: %d proven, %d BMC to depth %d, %d failed, %d unknown; covers %d/%d; %.0f s"
          % (summary["properties_total"], summary["proven"], summary["bmc_only"], summary["bmc_depth"], summary["failed"],
             summary["unknown"], summary["covers_reached"], summary["covers_total"], summary["seconds"]))
    if a.expect_counterexample:
        cex = [r["cex"] for r in results if r.get("cex")]
        ok = bool(cex) and all(os.path.exists(os.path.join(a.out, c)) for c in cex)
        print("PASS: fault %d caught, counterexample %s" % (a.fault, cex[0]) if ok else
              "FAIL: fault %d not caught within depth %d" % (a.fault, a.depth))
        return 0 if ok else 1
    bad = summary["failed"] or summary["unknown"] or any(
        r.get("cover_status") not in (None, "PASSED") or len(r["covers_reached"]) < len(r["covers"])
        for r in results if not a.fault and a.cover_depth > 0)
    print("PASS" if not bad else "FAIL")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
