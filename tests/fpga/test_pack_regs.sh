#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/ecp5-pack-regs.py on hand-made cases (pack/pack_cases.v, synthesized with
# synth_ecp5): the registers it must move into the block RAMs' and multipliers' own are
# moved, with the right modes and enables, and the ones it must leave are left.
# usage: test_pack_regs.sh SOURCE_DIR WORKDIR
set -uo pipefail
src=$1 work=$2
mkdir -p "$work"
json=$work/pack_cases.json
yosys -q -p "read_verilog $src/tests/fpga/pack/pack_cases.v; synth_ecp5 -top pack_cases -json $json" > /dev/null ||
  { echo "FAIL: synthesis of the cases"; exit 1; }
python3 "$src/scripts/ecp5-pack-regs.py" "$json" pack_cases || { echo "FAIL: the pass"; exit 1; }
python3 - "$json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["modules"]["pack_cases"]
cells, nets = m["cells"], m["netnames"]
fails = []
def check(what, ok):
    if not ok:
        fails.append(what)
def bits(name):
    return nets[name]["bits"]
def drivers(name):
    """(cell type, port, cell) driving each bit of a net"""
    out = []
    for b in bits(name):
        for c in cells.values():
            for p, bs in c["connections"].items():
                if c["port_directions"].get(p) == "output" and b in bs:
                    out.append((c["type"], p, c))
    return out
def s(v):
    return v.strip() if isinstance(v, str) else v
def multiplier_of(name):
    """The MULT18X18D whose outputs drive net `name` (checked), or None."""
    d = drivers(name)
    check("%s driven by multiplier outputs" % name, d and all(t == "MULT18X18D" and p.startswith("P") for t, p, _ in d))
    return d[0][2] if d else None
def registers(name, mult, regs, on):
    for r in regs:
        got = s(mult["parameters"].get("REG_%s_CLK" % r, "NONE"))
        check("%s's multiplier %s %s" % (name, "registers" if on else "does not register", r), (got == "CLK0") == on)
# multipliers: p_both straight from a MULT18X18D with all three registers; its inputs
# a and b (not a_q, b_q) on the A and B pins
mult = multiplier_of("p_both")
if mult:
    registers("p_both", mult, ("INPUTA", "INPUTB", "OUTPUT"), True)
    a_bits = set(bits("a"))
    check("p_both's multiplier takes a itself", any(mult["connections"][p][0] in a_bits for p in mult["connections"] if p.startswith("A") and p[1:].isdigit()))
# p_mixed: only one input register movable, so neither input register moves (nextpnr
# would time the multiply into it); the output register still does
mult = multiplier_of("p_mixed")
if mult:
    registers("p_mixed", mult, ("OUTPUT",), True)
    registers("p_mixed", mult, ("INPUTA", "INPUTB"), False)
    check("m_q left a flip-flop", any(t == "TRELLIS_FF" for t, _, _ in drivers("m_q")))
# p_shared: s_q also drives s_out, so the multiplier's A register copies it (takes its
# input, a ^ b: one LUT) and s_q stays a flip-flop for s_out; t_q (~b) moves
mult = multiplier_of("p_shared")
if mult:
    registers("p_shared", mult, ("INPUTA", "INPUTB", "OUTPUT"), True)
    ins = {mult["connections"][p][0] for p in mult["connections"] if p[0] in "AB" and p[1:].isdigit()}
    check("p_shared's multiplier takes ~b, not t_q", not set(bits("t_q")) & ins if "t_q" in nets else True)
    check("p_shared's multiplier takes no flip-flop output", not any(
        t == "TRELLIS_FF" and p == "Q" and bs[0] in ins for c in cells.values() for p, bs in c["connections"].items()
        for t in [c["type"]] if c["port_directions"].get(p) == "output"))
check("s_out still from flip-flops", all(t == "TRELLIS_FF" for t, _, _ in drivers("s_out")))
# p_deep: d_q also drives d_out and sits behind a 16-bit add: no copy, so neither input
# register moves; the output register does
mult = multiplier_of("p_deep")
if mult:
    registers("p_deep", mult, ("OUTPUT",), True)
    registers("p_deep", mult, ("INPUTA", "INPUTB"), False)
d = drivers("p_reset")
check("p_reset still from flip-flops (they reset)", d and all(t == "TRELLIS_FF" for t, _, _ in d))
d = drivers("p_comb")
check("p_comb: no registers to move", not any(t == "MULT18X18D" and s(c["parameters"].get("REG_OUTPUT_CLK", "NONE")) != "NONE" for t, _, c in d))
# block RAM: ram_out and ram_en straight from DP16KD outputs in OUTREG mode, ram_en's
# enable on OCE; ram_logic from logic
for name, enable in (("ram_out", "1"), ("ram_en", bits("en")[0])):
    d = drivers(name)
    check("%s driven by block-RAM outputs" % name, d and all(t == "DP16KD" for t, _, _ in d))
    for _, _, c in d:
        check("%s: OUTREG" % name, s(c["parameters"].get("REG_MODE_B", c["parameters"].get("REGMODE_B"))) == "OUTREG")
        check("%s: OCEB is the enable" % name, c["connections"]["OCEB"] == [enable])
d = drivers("ram_logic")
check("ram_logic from logic", d and all(t == "LUT4" for t, _, _ in d))
for c in cells.values():
    if c["type"] == "DP16KD" and s(c["parameters"].get("REGMODE_B")) == "NOREG":
        check("the untouched RAM keeps OCEB at 1", c["connections"]["OCEB"] == ["1"])
for f in fails:
    print("FAIL:", f)
print("pack-regs: %d checks failed" % len(fails))
sys.exit(1 if fails else 0)
PY
