# SPDX-License-Identifier: Apache-2.0
"""Run: one configuration through one mode (generic, asic, fpga), its
summary.json, and the --reuse cache (same inputs, same result)."""

import dataclasses
import datetime
import json
import time
from pathlib import Path

from .common import FLOW_VERSION, SDC, ToolError, say, sha1_of
from .record import AsicResult, CellArea, RunResult, SeedResult
from .rtl import rtl_files, rtl_headers, rtl_identity
from . import fpga, power, split, sta, yosys


class Run:
    """One configuration through one mode; execute() returns its RunResult."""

    def __init__(self, cfg, mode, out_dir, opts, lib=None, removed=(), quiet=False):
        self.cfg, self.mode, self.out, self.opts, self.lib = cfg, mode, Path(out_dir), opts, lib
        self.removed = list(removed)  # dont-use cells taken out of the library
        self.quiet = quiet
        self.tag = f"[{cfg.name}] "
        self.res = RunResult(config=cfg, mode=mode, date=datetime.date.today().isoformat())

    def log(self, msg):
        if not self.quiet:
            say(msg, self.tag)

    def files(self):
        return rtl_files(self.opts.manifest)

    # -- cache: the same inputs give the same result
    def cache_extra(self):
        o = self.opts
        if split.wanted(self.cfg, self.mode, o):
            return ["split"] + self.mode_extra()
        return self.mode_extra()

    def mode_extra(self):
        o = self.opts
        if self.mode == "asic":
            return [self.lib.path, o.period, o.input_delay, o.output_delay, o.uncertainty,
                    o.driving_cell, o.output_load, o.time_cfg, o.abc_script] + (
                        [o.power, o.power_cycles, o.power_window, o.power_seed, o.power_workload, o.power_burst]
                        if o.power else []) + (
                        [f"seeds {o.seeds}"] if o.seeds > 1 else [])
        if self.mode == "fpga":
            return [o.device, o.package, o.fpga_freq, o.fpga_io, o.family]
        return []

    def cache_key(self):
        inputs = self.files() + rtl_headers(self.opts.manifest) + [Path(self.opts.manifest), SDC]
        return sha1_of(inputs + [FLOW_VERSION, json.dumps(self.cfg.as_dict(), sort_keys=True),
                                 self.mode]
                       + [str(x) for x in self.cache_extra()])

    def load_cached(self, key):
        f = self.out / "summary.json"
        if self.opts.reuse and f.is_file():
            try:
                old = json.loads(f.read_text())
                if old.get("cache_key") == key and old.get("status") == "ok":
                    return RunResult.from_dict(old)
            except (ValueError, KeyError, TypeError):
                return None  # unreadable or of another layout: run again
        return None

    # -- modes
    def do_generic(self):
        yosys.run_yosys(yosys.generic_script(self.files(), self.cfg, self.out), self.out,
                        self.res, timeout_min=self.opts.timeout_min, log=self.log)
        self.res.generic = yosys.collect_generic(self.out)

    def do_asic(self):
        lib, a, o = self.lib, self.opts, self.out
        period_ns = a.period
        period_lib = period_ns / lib.time_unit_ns
        buf, drv, load_lib = lib.drive(a.driving_cell, a.output_load)
        load_ff = load_lib * lib.cap_unit_ff
        hi, lo = lib.tie_cells()
        (o / "abc.constr").write_text(yosys.abc_constr(drv, load_ff))
        script = yosys.abc_script_text(a.abc_script)
        if script:
            (o / "abc.script").write_text(script + "\n")
        for k in range(1, a.seeds):
            yosys.seed_files(o, k)[0].write_text(yosys.abc_script_text(a.abc_script, k) + "\n")
        self.res.abc_script = a.abc_script
        keep = power.keep_patterns() if a.power else ()
        lines = (yosys.generic_script(self.files(), self.cfg, o, keep=keep)
                 + yosys.asic_tail(o, lib.path, period_ns, buf, hi, lo,
                                   o / "abc.script" if script else None, seeds=a.seeds))
        for f in yosys.GENERIC_REPORTS + ("stat_liberty.txt",):
            (o / f).unlink(missing_ok=True)
        for k in range(1, a.seeds):
            for f in yosys.seed_files(o, k)[1:]:
                f.unlink(missing_ok=True)
        try:
            yosys.run_yosys(lines, o, self.res, timeout_min=a.timeout_min, log=self.log)
        except ToolError:
            # keep what the generic part measured before the failure
            if all((o / f).is_file() for f in yosys.GENERIC_REPORTS):
                self.res.generic = yosys.collect_generic(o)
            raise
        self.res.generic = yosys.collect_generic(o)
        st = yosys.parse_stat(o / "stat_liberty.txt")
        seq_cells = {t: n for t, n in st.types.items() if t in lib.cells and lib.cells[t].seq}
        area_by = sorted(((t, n, n * lib.cells[t].area) for t, n in st.types.items()
                          if t in lib.cells), key=lambda x: -x[2])
        seq_area = sum(x[2] for x in area_by if x[0] in seq_cells)
        asic = AsicResult(
            liberty=str(a.liberty), library=lib.name, period_ns=period_ns,
            target_mhz=round(1000.0 / period_ns, 2), driving_cell=drv, output_load=load_lib,
            dont_use_removed=len(self.removed), area_um2=st.area, cells=st.cells,
            flops=sum(seq_cells.values()), seq_area_um2=round(seq_area, 1),
            comb_area_um2=round((st.area or 0) - seq_area, 1),
            top_cells_by_area=[CellArea(t, n, round(ar, 1)) for t, n, ar in area_by[:12]])
        self.res.asic = asic
        self.log(f"area {asic.area_um2:.0f} um2, {asic.cells} cells; running OpenSTA")
        self.do_sta(period_lib, drv, load_lib)
        if a.seeds > 1:
            self.do_seeds(period_lib, drv, load_lib)
        if a.power:
            self.log("power: simulating the workload, counting toggles, report_power")
            head = sta.sta_head(lib.path, o / "netlist.v", period_lib, a.input_delay,
                                a.output_delay, a.uncertainty / lib.time_unit_ns, drv, load_lib,
                                a.time_cfg)
            self.res.power = power.run_power(self.cfg, o, lib, head, a, self.res.tools,
                                             self.res.steps_s)
            self.res.power["clock_mhz"] = asic.target_mhz

    def do_sta(self, period_lib, drv, load_lib):
        o, lib, a = self.out, self.lib, self.opts
        tcl = sta.sta_script(lib.path, o / "netlist.v", period_lib, a.input_delay,
                             a.output_delay, a.uncertainty / lib.time_unit_ns, drv, load_lib,
                             a.time_cfg)
        text = sta.run_sta(tcl, o, self.res, timeout_s=a.timeout_s)
        tu = lib.time_unit_ns
        self.res.asic.sta = sta.parse_sta_log(text, tu, period_lib * tu, o / "sta.log")
        for grp, body in sta.path_sections(text).items():
            (o / f"critical_path_{grp}.txt").write_text(body)

    def do_seeds(self, period_lib, drv, load_lib):
        """The netlists of ABC seeds 1..N-1 (yosys.asic_tail) timed like
        seed 0's, each into sta_s<k>.log and critical_path_worst_s<k>.txt;
        asic.seeds lists every seed, seed 0 first."""
        o, lib, a, asic = self.out, self.lib, self.opts, self.res.asic
        s0 = asic.sta
        seeds = [SeedResult(0, asic.area_um2, asic.cells, s0.worst_slack_ns, s0.tns_ns,
                            s0.fmax_mhz, s0.reg2reg_fmax_mhz, s0.critical_path.startpoint,
                            s0.critical_path.endpoint)]
        tu = lib.time_unit_ns
        for k in range(1, a.seeds):
            _, stat_file, netlist = yosys.seed_files(o, k)
            self.log(f"ABC seed {k}: running OpenSTA on {netlist.name}")
            st = yosys.parse_stat(stat_file)
            tcl = sta.sta_script(lib.path, netlist, period_lib, a.input_delay, a.output_delay,
                                 a.uncertainty / lib.time_unit_ns, drv, load_lib, a.time_cfg)
            text = sta.run_sta(tcl, o, self.res, timeout_s=a.timeout_s, name=f"sta_s{k}")
            r = sta.parse_sta_log(text, tu, period_lib * tu, o / f"sta_s{k}.log")
            (o / f"critical_path_worst_s{k}.txt").write_text(sta.path_sections(text)["worst"])
            seeds.append(SeedResult(k, st.area, st.cells, r.worst_slack_ns, r.tns_ns,
                                    r.fmax_mhz, r.reg2reg_fmax_mhz, r.critical_path.startpoint,
                                    r.critical_path.endpoint))
        asic.seeds = seeds

    def do_fpga(self):
        fpga.run_fpga(self.cfg, self.opts, self.files(), self.out, self.res, self.log)

    def do_split(self):
        """The threshold pipeline alone (Stats = 0), the same flow in
        out/nostats (no power), and the split into rows (synth.split)."""
        opts = dataclasses.replace(self.opts, power=False, split=False, seeds=1)
        comp = Run(split.companion(self.cfg), self.mode, self.out / "nostats", opts, lib=self.lib,
                   removed=self.removed, quiet=self.quiet)
        self.log("the threshold pipeline alone (Stats = 0) for the split")
        pipe = comp.execute()
        if not pipe.ok:
            self.res.status = "error"
            self.res.errors.append(f"threshold pipeline ({pipe.config.name}, in {comp.out}): "
                                   + "; ".join(pipe.errors))
            return
        self.res.split = split.split_of(self.res, pipe)
        self.res.steps_s["split"] = pipe.steps_s.get("total")

    # -- entry
    def execute(self):
        self.out.mkdir(parents=True, exist_ok=True)
        key = self.cache_key()
        old = self.load_cached(key)
        if old:
            self.log(f"reusing {self.out / 'summary.json'} (same inputs)")
            self.res = old
            return self.res
        t0 = time.monotonic()
        self.res.rtl = rtl_identity(self.opts.manifest)
        try:
            getattr(self, f"do_{self.mode}")()
            if self.res.ok and split.wanted(self.cfg, self.mode, self.opts):
                self.do_split()
        except ToolError as e:
            self.res.status = "error"
            self.res.errors.append(str(e))
        self.res.steps_s["total"] = round(time.monotonic() - t0, 2)
        self.res.cache_key = key
        self.res.write(self.out / "summary.json")
        return self.res
