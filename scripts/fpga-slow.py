#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# The registers that miss a clock, from a nextpnr report written with
# --detailed-timing-report (scripts/fpga.sh with SLOW_MHZ=f): every endpoint whose
# worst arrival exceeds the period of f MHz, grouped by the register (or memory, DSP)
# it belongs to, worst first, with the count of its bits that miss. Issue 17's map of
# what to pipeline: a single critical path hides how many others are nearly as long.
# usage: fpga-slow.py REPORT.json MHZ [TOP]
import json
import re
import sys

report, mhz = sys.argv[1], float(sys.argv[2])
top = int(sys.argv[3]) if len(sys.argv) > 3 else 40
period = 1000.0 / mhz
rep = json.load(open(report))


def group(cell):
    name = re.sub(r"^u_soc\.(g_full\.|g_small\.g_lite\.)?(u_core\.)?", "", cell)
    # the packer's and mapper's suffixes: what remains is the RTL register or memory
    name = re.sub(r"(_TRELLIS|_LUT4|_CCU2C|_DPRAM|_MULT18|_L6MUX|_PFUMX|_DP16KD|_SB_|_DFFLC|\$).*$", "", name)
    return re.sub(r"\.mem_q\.[0-9]+\.[0-9]+$", ".mem_q", name)


worst, count = {}, {}
for net in rep.get("detailed_net_timings", []):
    for e in net.get("endpoints", []):
        # ([min, max] from nextpnr-ecp5 0.11; one number from Debian's nextpnr-ice40 0.4)
        arrival = e["delay"][1] if isinstance(e["delay"], list) else e["delay"]
        if arrival <= period:
            continue
        g = group(e["cell"])
        worst[g] = max(worst.get(g, 0.0), arrival)
        count[g] = count.get(g, 0) + 1
if not worst:
    print("every endpoint meets %.1f MHz (%.2f ns)" % (mhz, period))
    sys.exit(0)
print("%d endpoints in %d registers miss %.1f MHz (%.2f ns); worst first:" %
      (sum(count.values()), len(worst), mhz, period))
for g in sorted(worst, key=lambda g: -worst[g])[:top]:
    print("  %6.2f ns  %5.1f MHz  %5d  %s" % (worst[g], 1000.0 / worst[g], count[g], g))
