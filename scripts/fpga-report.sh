#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds every board and configuration of docs/fpga.md's resource table with nextpnr
# seeds 1, 2 and 3 and rewrites the table (between its fpga-report markers) from the
# builds' reports: resources, Fmax's minimum and median over the seeds, the core clock
# and the critical path's start and end. A build that
# does not fit its device becomes a row saying which resources overflowed. A row whose
# build is newer than the RTL and its configuration is reused (rm -rf WORKDIR to redo
# all). N = 16 on the ECP5-85F fits with one requantization lane and half the array's
# products in logic (configs/ulx3s_n16.yaml); its place and route takes about 45 minutes
# a seed on this machine.
# usage: fpga-report.sh WORKDIR DOC
set -uo pipefail
cd "$(dirname "$0")/.."
work=$1 doc=$2
rows=(
  "icebreaker configs/icebreaker.yaml"
  "ulx3s configs/ulx3s_n4.yaml"
  "ulx3s configs/ulx3s_n8.yaml"
  "ulx3s configs/ulx3s_n16.yaml"
)
seeds=(1 2 3)
table=$work/table.md
mkdir -p "$work"
{
  echo "| board | core | N | LUT4 | FF | carry | BRAM | SPRAM | DSP | Fmax min / median (MHz, seeds 1-3) | core clock (MHz) | peak GOPS at the core clock | critical path (seed 1) | reproduce |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
} > "$table"
value() { sed -n "s/^$1:[[:space:]]*\([0-9.]*\).*/\1/p" "$2"; }
# One table row from the builds of seeds 1-3: resources from seed 1, Fmax's minimum and
# median, "timing not met" when a seed missed the core clock, or what overflowed.
add_row() {  # add_row OUT_PREFIX BOARD N CONFIG
  local pre=$1 board=$2 n=$3 config=$4 core=full
  [ "$board" = icebreaker ] && core=small
  local first=${pre}-s1 cmd="\`make fpga BOARD=$board FPGA_CONFIG=$config\`"
  if [ -s "$first/overuse.txt" ]; then
    echo "| $board | $core | $n | does not fit: $(paste -sd ';' "$first/overuse.txt" | tr -s ' ') | | | | | | | | | | $cmd |"
    return 0
  fi
  local fmaxes="" missed=0 seed
  for seed in "${seeds[@]}"; do
    local r=${pre}-s$seed/report.txt
    [ -s "$r" ] || { echo "fpga-report: $board $config seed $seed failed for another reason (see ${pre}-s$seed)" >&2; return 1; }
    fmaxes+="$(value Fmax "$r") "
    [ -n "$(ls "${pre}-s$seed"/*.bin "${pre}-s$seed"/*.bit 2> /dev/null)" ] || missed=1
  done
  local r=$first/report.txt
  read -r fmin fmed < <(echo $fmaxes | tr ' ' '\n' | sort -g | awk '{v[NR] = $1} END {print v[1], v[int((NR + 1) / 2)]}')
  local clock macs gops
  clock=$(sed -n 's/.*(core clock: \([0-9.]*\) MHz.*/\1/p' "$r")
  if [ "$core" = small ]; then macs=0.5; else macs=$((n * n)); fi
  gops=$(awk -v m="$macs" -v f="$clock" 'BEGIN {printf "%.3g", 2 * m * f / 1000}')
  local note=""
  [ "$missed" = 1 ] && note="timing not met on a seed: "
  echo "| $board | $core | $n | $(value LUT4 "$r") | $(value FF "$r") | $(value carry "$r") | $(value BRAM "$r") | $(sed -n 's/^SPRAM:[[:space:]]*//p' "$r") | $(value DSP "$r") | $fmin / $fmed | $clock | $gops | $(cat "$first/critical.txt" 2> /dev/null) | $note$cmd |"
}

for row in "${rows[@]}"; do
  read -r board config <<< "$row"
  pre=$work/$board-$(basename "$config" .yaml)
  n=$(sed -n 's/^array_size:[[:space:]]*\([0-9]*\).*/\1/p' "$config")
  # the seeds two at a time (nextpnr uses one core)
  running=0
  for seed in "${seeds[@]}"; do
    out=$pre-s$seed
    if [ -f "$out/pnr.log" ] && [ -z "$(find rtl sim/models "$config" scripts/fpga.sh -newer "$out/pnr.log" -type f | head -1)" ]; then
      echo "fpga-report: $board $config seed $seed: up to date ($out)"
      continue
    fi
    SEED=$seed scripts/fpga.sh "$board" "$out" "$config" > "$out.log" 2>&1 &
    running=$((running + 1))
    if [ "$running" -ge 2 ]; then wait -n; running=$((running - 1)); fi
  done
  wait
  add_row "$pre" "$board" "$n" "$config" >> "$table" || exit 1
done
awk -v table="$table" '
  /<!-- fpga-report:begin -->/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
  /<!-- fpga-report:end -->/ { skip = 0 }
  !skip' "$doc" > "$doc.new" && mv "$doc.new" "$doc"
echo "fpga-report: $doc updated"
cat "$table"
