# SPDX-License-Identifier: Apache-2.0
"""FPGA families: Yosys's synthesis script for each, how its cells count as
LUTs, flip-flops, block RAMs, LUT RAMs, carry and DSP cells, and the parts
of each family with their published resources, to name the smallest part
that holds a design.

Counts are of dsh_mmu alone, out of context (no I/O buffers, the ports
stay ports): what the logic needs, not what a board's pins allow. Only
iCE40 is placed and routed (nextpnr-ice40, in fpga.py)."""

import re
from dataclasses import dataclass

# family -> (Yosys command without -top/-json, {kind: regex over cell types})
# Kinds: lut, ff, bram, lutram, carry, dsp. A LUT RAM cell counts in
# lutram only; fit() adds its LUT equivalent (LUTRAM_LUTS) to the LUTs.
FAMILIES = {
    "ice40": ("synth_ice40", {
        "lut": r"SB_LUT4", "ff": r"SB_DFF\w*", "bram": r"SB_RAM40_4K\w*",
        "lutram": r"(?!)", "carry": r"SB_CARRY", "dsp": r"SB_MAC16"}),
    "xilinx": ("synth_xilinx -family xc7 -noiopad -flatten", {
        "lut": r"LUT[1-6]|INV", "ff": r"FD[RSCP]E(_1)?|FD\w*", "bram": r"RAMB(18|36)E1",
        "lutram": r"RAM(32|64|128|256)X1[SD]\w*|RAM(32|64)M\w*|SRL16E|SRLC32E",
        "carry": r"CARRY4",
        "dsp": r"DSP48E1"}),
    "intel": ("synth_intel -family cycloneive", {
        "lut": r"\w*lcell_comb", "ff": r"dffeas|\w*_ff", "bram": r"\w*ram_block\w*|altsyncram",
        "lutram": r"(?!)", "carry": r"(?!)", "dsp": r"\w*mac_mult\w*|\w*mac_out\w*"}),
    "ecp5": ("synth_ecp5", {
        "lut": r"LUT4", "ff": r"TRELLIS_FF", "bram": r"DP16KD|PDPW16KD",
        "lutram": r"TRELLIS_DPR16X4", "carry": r"CCU2C", "dsp": r"MULT18X18D|ALU54B"}),
    "gowin": ("synth_gowin -noiopads", {
        "lut": r"LUT[1-4]", "ff": r"DFF\w*", "bram": r"S?DPX?9?B?|SPX?9?|pROMX?9?",
        "lutram": r"RAM16S\w*", "carry": r"ALU", "dsp": r"MULT\w*|ALU54D|MULTALU\w*"}),
}
KINDS = ("lut", "ff", "bram", "lutram", "carry", "dsp")
# LUTs a LUT RAM cell takes (Xilinx: RAM64M/RAM32M use a SLICEM's 4 LUTs,
# RAMnX1D 2, RAMnX1S and the shift registers SRL16E/SRLC32E 1; INV is
# counted as a LUT, the LUT1 it becomes; ECP5: TRELLIS_DPR16X4 a slice's 2 LUT4 plus a
# read LUT4 pair, counted 4; Gowin: RAM16SDP4 4 LUT4).
LUTRAM_LUTS = [(r"RAM(32|64)M\w*", 4), (r"RAM\d+X1D\w*", 2), (r"RAM\d+X1S\w*", 1),
               (r"SRL16E|SRLC32E", 1),
               (r"RAM128X1D", 4), (r"TRELLIS_DPR16X4", 4), (r"RAM16S\w*", 4)]


@dataclass(frozen=True)
class Part:
    """One part's resources as its data sheet tables them."""
    name: str
    luts: int   # LUTs (iCE40, ECP5, Gowin: LUT4; Xilinx: LUT6; Cyclone IV: LEs)
    ffs: int
    brams: int  # block RAMs in the unit Yosys maps to (see BRAM_UNIT)
    dsps: int


BRAM_UNIT = {"ice40": "4 Kbit EBR", "xilinx": "RAMB18 (half a 36 Kbit block)",
             "intel": "altsyncram, one or more M9K each (counted as one)",
             "ecp5": "18 Kbit EBR", "gowin": "18 Kbit BSRAM"}
# Common parts, smallest first, from the families' data sheets (cited by title).
PARTS = {
    "ice40": ("Lattice, iCE40 LP/HX Family Data Sheet (DS1040); iCE40 UltraPlus Family "
              "Data Sheet (FPGA-DS-02008)", [
                  Part("iCE40HX1K", 1280, 1280, 16, 0),
                  Part("iCE40HX4K", 3520, 3520, 20, 0),
                  Part("iCE40UP5K", 5280, 5280, 30, 8),
                  Part("iCE40HX8K", 7680, 7680, 32, 0)]),
    "xilinx": ("AMD Xilinx, 7 Series FPGAs Data Sheet: Overview (DS180); block RAMs as "
               "RAMB18, two per 36 Kbit block", [
                   Part("XC7A35T", 20800, 41600, 100, 90),
                   Part("XC7A50T", 32600, 65200, 150, 120),
                   Part("XC7A100T", 63400, 126800, 270, 240),
                   Part("XC7A200T", 134600, 269200, 730, 740),
                   Part("XC7K325T", 203800, 407600, 890, 840),
                   Part("XC7K480T", 298600, 597200, 1910, 1920),
                   Part("XC7VX690T", 433200, 866400, 2940, 3600),
                   Part("XC7V2000T", 1221600, 2443200, 2584, 2160)]),
    "intel": ("Intel (Altera), Cyclone IV Device Handbook, Volume 1, Cyclone IV FPGA "
              "Device Family Overview (CYIV-51001); one LUT4 and one register per LE", [
                  Part("EP4CE6", 6272, 6272, 30, 15),
                  Part("EP4CE10", 10320, 10320, 46, 23),
                  Part("EP4CE15", 15408, 15408, 56, 56),
                  Part("EP4CE22", 22320, 22320, 66, 66),
                  Part("EP4CE40", 39600, 39600, 126, 116),
                  Part("EP4CE55", 55856, 55856, 260, 154),
                  Part("EP4CE75", 75408, 75408, 305, 200),
                  Part("EP4CE115", 114480, 114480, 432, 266)]),
    "ecp5": ("Lattice, ECP5 and ECP5-5G Family Data Sheet (FPGA-DS-02012); LUTs as the "
             "table's thousands, one register per LUT4", [
                 Part("LFE5U-12F", 12000, 12000, 32, 28),
                 Part("LFE5U-25F", 24000, 24000, 56, 28),
                 Part("LFE5U-45F", 44000, 44000, 108, 72),
                 Part("LFE5U-85F", 84000, 84000, 208, 156)]),
    "gowin": ("Gowin, GW1N series of FPGA Products Data Sheet (DS100); GW2A series of "
              "FPGA Products Data Sheet (DS102)", [
                  Part("GW1N-1", 1152, 864, 4, 0),
                  Part("GW1N-4", 4608, 3456, 10, 16),
                  Part("GW1N-9", 8640, 6480, 26, 20),
                  Part("GW2A-18", 20736, 15552, 46, 48),
                  Part("GW2A-55", 54720, 41040, 140, 40)]),
}


def count_cells(family, cell_types):
    """{kind: count} of a Yosys stat's {cell type: count} for family, plus
    'other': cells of no kind (MUXF7, PFUMX, ... and anything unexpected)."""
    pats = {k: re.compile(rf"^\\?(?:{p})$") for k, p in FAMILIES[family][1].items()}
    out = dict.fromkeys(KINDS, 0)
    out["other"] = 0
    for t, n in cell_types.items():
        kind = next((k for k in KINDS if pats[k].match(t)), "other")
        out[kind] += n
    return out


# LUTs a carry cell takes beside the counted LUTs (ECP5: CCU2C is a slice's
# two LUT4s in ripple mode; Gowin: ALU is one LUT4 in ALU mode; iCE40's
# SB_CARRY and Xilinx's CARRY4 have their own logic).
CARRY_LUTS = [(r"CCU2C", 2), (r"ALU", 1)]


def lutram_luts(cell_types):
    """LUTs taken by LUT RAMs, shift registers and carry cells, which the
    LUT count leaves out."""
    n = 0
    for t, c in cell_types.items():
        for pat, luts in LUTRAM_LUTS + CARRY_LUTS:
            if re.fullmatch(pat, t.lstrip("\\")):
                n += c * luts
                break
    return n


def smallest_part(family, luts, ffs, brams, dsps):
    """(part name, the data sheet) of the smallest listed part holding the
    counts, or (None, why not) when none does."""
    source, parts = PARTS[family]
    for p in parts:
        if luts <= p.luts and ffs <= p.ffs and brams <= p.brams and dsps <= p.dsps:
            return p.name, source
    big = parts[-1]
    return None, (f"larger than {big.name} ({big.luts} LUTs, {big.ffs} FFs, "
                  f"{big.brams} block RAMs, {big.dsps} DSPs), the largest listed; {source}")
