#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Gives the constant inputs nextpnr-ecp5 has to route a driver of their own, in the JSON
# netlist synth_ecp5 wrote: each distributed RAM's constant address bits (TRELLIS_DPR16X4
# RAD/WAD: a memory shallower than 16 words leaves its top address bits at zero) and
# each multiplier's constant operand controls (MULT18X18D SOURCEA/B, SIGNEDA/B) get a
# LUT4 whose output is that constant, one per cell and value. (Not the multipliers'
# clock enables and resets: the multipliers of a DSP block share its CE and RST lines,
# onto which nextpnr remaps their pins, so one net per multiplier leaves too few ways to
# place them together: N = 16's placer found no legal placement and never finished.)
#
# Why: nextpnr folds most constants into the cells that take them (LUT and carry-cell
# inputs, flip-flop set/reset and enable muxes, block-RAM selects) but routes the rest as
# one net from one LUT. At N = 8 that net had 4 491 sinks across the device, 3 341 of them
# the LUT inputs of 404 RAM cells; its router (router1) rips up a whole net when another
# net needs one of its wires and routes all its arcs again, so near the end of routing
# each conflict with that net cost thousands of arcs, and the last few dozen nets took
# 14-27 minutes per thousand iterations (seeds did not finish). A driver per cell makes
# nets of a few sinks, placed beside them. The logic is the same: a LUT4 with INIT all
# zeros or all ones drives the value the pin had.
# usage: ecp5-local-consts.py NETLIST.json TOP   (rewrites NETLIST.json; prints what it did)
import json
import os
import sys

path, top = sys.argv[1], sys.argv[2]
design = json.load(open(path))
mod = design["modules"][top]
cells = mod["cells"]

# The pins whose constants nextpnr routes (seen in its router's log and packed netlist).
ROUTED = {
    "TRELLIS_DPR16X4": {"RAD", "WAD"},
    "MULT18X18D": {"SOURCEA", "SOURCEB", "SIGNEDA", "SIGNEDB"},
}

next_bit = 1 + max((b for c in cells.values() for bits in c["connections"].values()
                    for b in bits if isinstance(b, int)), default=1)
drivers = {kind: 0 for kind in ROUTED}
pins = {kind: 0 for kind in ROUTED}
for name in list(cells):
    c = cells[name]
    kind = c["type"]
    if kind not in ROUTED:
        continue
    local = {}  # value -> this cell's driver bit
    for pin, bits in c["connections"].items():
        if pin not in ROUTED[kind] or c["port_directions"].get(pin) != "input":
            continue
        for i, value in enumerate(bits):
            if value not in ("0", "1"):
                continue
            if value not in local:
                local[value] = next_bit
                cells["$local_const$%d" % next_bit] = {
                    "hide_name": 1,
                    "type": "LUT4",
                    "parameters": {"INIT": value * 16},
                    "attributes": {},
                    "port_directions": {"A": "input", "B": "input", "C": "input", "D": "input", "Z": "output"},
                    "connections": {"A": ["0"], "B": ["0"], "C": ["0"], "D": ["0"], "Z": [next_bit]},
                }
                mod["netnames"]["$local_const_net$%d" % next_bit] = {"hide_name": 1, "bits": [next_bit], "attributes": {}}
                next_bit += 1
                drivers[kind] += 1
            bits[i] = local[value]
            pins[kind] += 1

json.dump(design, open(path + ".tmp", "w"))
os.replace(path + ".tmp", path)
print("ecp5-local-consts: %d constant address bits of distributed RAMs from %d local drivers, "
      "%d operand controls of multipliers from %d"
      % (pins["TRELLIS_DPR16X4"], drivers["TRELLIS_DPR16X4"], pins["MULT18X18D"], drivers["MULT18X18D"]))
