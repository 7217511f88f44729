#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Moves a plain register that follows an ECP5 block RAM's read data into the block RAM's
# own output register (DP16KD REGMODE OUTREG), in the JSON netlist synth_ecp5 wrote.
#
# Why: nextpnr times an EBR's read data without its output register at 5.8 ns from the
# clock, with it at 1.0 ns; at 100 MHz the slow output leaves no room for routing and
# logic. Yosys 0.23 maps every block RAM with REGMODE NOREG, so the RTL keeps a plain
# register right after each block-RAM read (docs/fpga.md, "Block RAM outputs") and this
# pass folds it in. The behaviour is the RTL's: the read latch, then a register loading
# every cycle its enable is high (OCE).
#
# A read port's output register is merged only when every used data bit drives exactly
# one flip-flop's D input and nothing else, all those flip-flops share the RAM's read
# clock and one clock enable (or none), have no set or reset, and the port's own reset
# is unused. Anything else is left as it was.
# usage: ecp5-outreg.py NETLIST.json TOP   (rewrites NETLIST.json; prints what it merged)
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


# every bit's sinks (cell, port) and whether a module output uses it
sinks = {}
for name, cell in cells.items():
    for port, bits in cell["connections"].items():
        if cell["port_directions"].get(port) == "input":
            for b in bits:
                if isinstance(b, int):
                    sinks.setdefault(b, []).append((name, port))
for pname, p in mod["ports"].items():
    for b in p["bits"]:
        if isinstance(b, int):
            sinks.setdefault(b, []).append(("<port>", pname))


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

json.dump(design, open(path + ".tmp", "w"))
os.replace(path + ".tmp", path)
print("ecp5-outreg: %d registers moved into %d block-RAM output registers" % (merged_ffs, merged_ports))
