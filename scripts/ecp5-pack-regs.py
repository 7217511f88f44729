#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Moves plain registers into the ECP5's hard blocks, in the JSON netlist synth_ecp5
# wrote: the register after a block RAM's read data into the RAM's output register
# (DP16KD REGMODE OUTREG), and the registers around a multiplier into its input and
# output registers (MULT18X18D REG_INPUTA/B, REG_OUTPUT). Yosys 0.23 infers neither.
#
# Why: nextpnr times an EBR's read data without its output register at 5.8 ns from the
# clock, with it at 1.0 ns; a MULT18X18D without registers is 3.9 ns of logic between
# two routes, with them its output leaves 0.7 ns after the clock. At 100 MHz the slow
# forms leave no room for routing and logic. So the RTL keeps a plain register right
# after each block-RAM read and around each product (docs/fpga.md, "Hard-block
# registers"), and this pass folds them in. The behaviour is the RTL's: the same
# registers, loading on the same clock and enable.
#
# A group of registers is moved only when it is the whole group (every used data bit of
# the RAM port, of the multiplier's A, B or P), each flip-flop in it shares the block's
# clock and one clock enable (or none), has no set or reset, and connects to the block
# alone (a multiplier's input register may instead copy one that feeds other logic or
# other multipliers too, when at most two LUTs lie in front of it; one left without
# loads is removed); the RAM port's own reset must be unused, the multiplier's
# signedness constant, and its A and B registers both movable. Anything else is left as
# it was.
# usage: ecp5-pack-regs.py NETLIST.json TOP   (rewrites NETLIST.json; prints what it moved)
import json
import os
import sys

path, top = sys.argv[1], sys.argv[2]
design = json.load(open(path))
mod = design["modules"][top]
cells = mod["cells"]


def param(cell, name, default=""):
    v = cell["parameters"].get(name, default)
    return v.strip() if isinstance(v, str) else v  # (Yosys marks string values with a trailing space)


def num(v):
    return int(v, 2) if isinstance(v, str) else int(v)


def index_bits():
    """Every bit's driver (cell, port) and sinks [(cell, port)]; a module output is a sink."""
    drivers, sinks = {}, {}
    for name, cell in cells.items():
        for port, bits in cell["connections"].items():
            out = cell["port_directions"].get(port) == "output"
            for b in bits:
                if isinstance(b, int):
                    if out:
                        drivers[b] = (name, port)
                    else:
                        sinks.setdefault(b, []).append((name, port))
    for pname, p in mod["ports"].items():
        for b in p["bits"]:
            if isinstance(b, int):
                sinks.setdefault(b, []).append(("<port>", pname))
    return drivers, sinks


drivers, sinks = index_bits()


def one(cell, port):
    bits = cell["connections"].get(port, ["0"])
    return bits[0] if bits else "0"


def ff_enable(ff):
    """The flip-flop's clock enable as a bit ("1": none), or None if it is inverted."""
    mux = param(ff, "CEMUX", "1")
    if mux == "1":
        return "1"
    if mux == "CE":
        return one(ff, "CE")
    return None


merged_ports = merged_ffs = 0
for name in sorted(n for n, c in cells.items() if c["type"] == "DP16KD"):
    ram = cells[name]
    pdp = num(param(ram, "DATA_WIDTH_A", "0")) == 36 or num(param(ram, "DATA_WIDTH_B", "0")) == 36
    # read groups: (the sides whose REGMODE/OCE it sets, its clock and reset pins, its data pins)
    if pdp:  # pseudo dual port: port A writes, every data output is port B's read
        groups = [(("A", "B"), "CLKB", "RSTB", ["DOA%d" % i for i in range(18)] + ["DOB%d" % i for i in range(18)])]
    else:
        groups = [((s,), "CLK" + s, "RST" + s, ["DO%s%d" % (s, i) for i in range(18)]) for s in ("A", "B")]
    for sides, clk_pin, rst_pin, pins in groups:
        if any(param(ram, "REGMODE_" + s, "NOREG") != "NOREG" for s in sides):
            continue
        if param(ram, clk_pin + "MUX", clk_pin) != clk_pin or one(ram, rst_pin) != "0":
            continue
        clock = one(ram, clk_pin)
        plan, enable, ok = [], None, True
        for pin in pins:
            bit = one(ram, pin) if pin in ram["connections"] else None
            if not isinstance(bit, int):
                continue
            users = sinks.get(bit, [])
            if not users:
                continue
            if len(users) != 1 or users[0][0] == "<port>" or users[0][1] != "DI":
                ok = False
                break
            ff = cells[users[0][0]]
            en = ff_enable(ff)
            if (ff["type"] != "TRELLIS_FF" or one(ff, "CLK") != clock or param(ff, "CLKMUX", "CLK") != "CLK" or
                    one(ff, "LSR") != "0" or en is None or (enable is not None and en != enable)):
                ok = False
                break
            enable = en
            plan.append((pin, users[0][0]))
        if not ok or not plan:
            continue
        for pin, ff_name in plan:
            ram["connections"][pin] = [one(cells[ff_name], "Q")]
            del cells[ff_name]
        for s in sides:
            ram["parameters"]["REGMODE_" + s] = "OUTREG"
            ram["connections"]["OCE" + s] = [enable]
        merged_ports += 1
        merged_ffs += len(plan)

# ---- multipliers ----------------------------------------------------------------------
drivers, sinks = index_bits()   # (after the block RAMs' moves)


def plain_ff(name):
    """A flip-flop without set or reset: (clock, enable), or None."""
    ff = cells.get(name)
    if ff is None or ff["type"] != "TRELLIS_FF" or param(ff, "CLKMUX", "CLK") != "CLK" or one(ff, "LSR") != "0":
        return None
    en = ff_enable(ff)
    return None if en is None else (one(ff, "CLK"), en)


def lut_depth(bit, limit=3):
    """LUT levels between a net and the registers, block outputs or ports behind it (a
    carry chain counts as limit: too deep)."""
    drv = drivers.get(bit) if isinstance(bit, int) else None
    if drv is None or drv[1] == "Q" or cells[drv[0]]["type"] in ("DP16KD", "MULT18X18D", "ALU54B", "TRELLIS_DPR16X4"):
        return 0
    cell = cells[drv[0]]
    if cell["type"] not in ("LUT4", "PFUMX", "L6MUX21") or limit <= 0:
        return limit
    ins = [one(cell, p) for p, d in cell["port_directions"].items() if d == "input"]
    below = max([lut_depth(b, limit - 1) for b in ins] or [0])
    return min(limit, below + (1 if cell["type"] == "LUT4" else 0))


dsp_ffs = dsp_groups = dsp_copies = 0
copied = set()   # registers copied into a multiplier: left alone, or deleted below once loadless
for name in sorted(n for n, c in cells.items() if c["type"] == "MULT18X18D"):
    dsp = cells[name]
    conn = dsp["connections"]
    if any(not isinstance(one(dsp, p), str) for p in ("SIGNEDA", "SIGNEDB")):
        continue
    if any(param(dsp, "REG_%s_CLK" % r, "NONE") != "NONE" for r in ("INPUTA", "INPUTB", "INPUTC", "PIPELINE", "OUTPUT")):
        continue
    plans = {}   # register group -> ((clock, enable), [(pin, new bit)], {flip-flops to delete}, {to copy})
    for group in ("A", "B"):
        pins = [p for p in conn if p[0] == group and p[1:].isdigit()]
        ffs, kept, moves, key, ok = set(), set(), [], None, True
        for pin in pins:
            bit = conn[pin][0]
            if not isinstance(bit, int):
                continue
            drv = drivers.get(bit)
            ck = plain_ff(drv[0]) if drv and drv[1] == "Q" else None
            if ck is None or (key is not None and ck != key):
                ok = False
                break
            key = ck
            # A flip-flop that also feeds other logic (a PE's activation, passed east as
            # well) stays for it, and the input register is a copy: the same data,
            # clock and enable, so the same value every cycle. Only when the logic in
            # front of it is shallow (two LUTs, no carry chain): the copy sits at the
            # multiplier, and that logic's route to it would then count in front of it.
            if all(s[0] == name and s[1][0] == group and s[1][1:].isdigit() for s in sinks.get(bit, [])):
                ffs.add(drv[0])
            elif lut_depth(one(cells[drv[0]], "DI")) <= 2:
                kept.add(drv[0])
            else:
                ok = False
                break
            moves.append((pin, one(cells[drv[0]], "DI")))
        ffs -= kept
        if ok and moves:
            plans["INPUT" + group] = (key, moves, ffs, kept)
    # Both inputs or neither: nextpnr-ecp5 times a multiplier with one registered
    # input as if neither were, so the multiply would count against the path into
    # the register (the logic in front of it, then 3.5 ns), not after it.
    if len([g for g in plans if g.startswith("INPUT")]) == 1:
        plans = {}
    pins = [p for p in conn if p[0] == "P" and p[1:].isdigit()]
    ffs, moves, key, ok = set(), [], None, True
    for pin in pins:
        bit = conn[pin][0]
        if not isinstance(bit, int) or not sinks.get(bit):
            continue
        users = sinks[bit]
        ck = plain_ff(users[0][0]) if len(users) == 1 and users[0][1] == "DI" else None
        if ck is None or (key is not None and ck != key):
            ok = False
            break
        key = ck
        ffs.add(users[0][0])
        moves.append((pin, one(cells[users[0][0]], "Q")))
    if ok and moves:
        plans["OUTPUT"] = (key, moves, ffs, set())
    clocks = {k[0] for k, _, _, _ in plans.values()}
    if not plans or len(clocks) != 1:
        continue
    enables = sorted({k[1] for k, _, _, _ in plans.values()}, key=str)
    if len(enables) > 4:
        continue
    for i, en in enumerate(enables):
        conn["CE%d" % i] = [en]
        dsp["port_directions"]["CE%d" % i] = "input"
    conn["CLK0"], conn["RST0"] = [clocks.pop()], ["0"]
    dsp["port_directions"]["CLK0"] = dsp["port_directions"]["RST0"] = "input"
    for reg, (key, moves, ffs_, kept_) in plans.items():
        dsp["parameters"]["REG_%s_CLK" % reg] = "CLK0"
        dsp["parameters"]["REG_%s_CE" % reg] = "CE%d" % enables.index(key[1])
        dsp["parameters"]["REG_%s_RST" % reg] = "RST0"
        for pin, bit in moves:
            conn[pin] = [bit]
        for f in ffs_:
            del cells[f]
        dsp_ffs += len(ffs_)
        dsp_copies += len(kept_)
        copied |= kept_
        dsp_groups += 1

# A register copied into every multiplier it fed (a requantization lane's operands, each
# feeding two of its four) has no loads left: it goes too.
drivers, sinks = index_bits()
unloaded = [f for f in sorted(copied) if f in cells and not sinks.get(one(cells[f], "Q"))]
for f in unloaded:
    del cells[f]

json.dump(design, open(path + ".tmp", "w"))
os.replace(path + ".tmp", path)
print("ecp5-pack-regs: %d registers moved into %d block-RAM output registers, %d into %d multiplier registers"
      " (%d copied: kept for their other loads; of those %d into every load, then removed)"
      % (merged_ffs, merged_ports, dsp_ffs, dsp_groups, dsp_copies, len(unloaded)))
