#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds every board and configuration of docs/fpga.md's resource table and rewrites
# the table (between its fpga-report markers) from the builds' reports. A build that
# does not fit its device becomes a row saying which resources overflowed. A row whose
# build is newer than the RTL and its configuration is reused (rm -rf WORKDIR to redo
# all). N = 16 on the ECP5-85F is not a row: it cannot fit (256 PEs and 16
# requantization lanes want 320 of the 156 multipliers).
# usage: fpga-report.sh WORKDIR DOC
set -uo pipefail
cd "$(dirname "$0")/.."
work=$1 doc=$2
rows=(
  "icebreaker configs/icebreaker.yaml"
  "ulx3s configs/ulx3s_n4.yaml"
  "ulx3s configs/ulx3s_n8.yaml"
)
table=$work/table.md
mkdir -p "$work"
{
  echo "| board | core | N | LUT4 | FF | carry | BRAM | SPRAM | DSP | Fmax (MHz) | core clock (MHz) | peak GOPS at Fmax | reproduce |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
} > "$table"
# One table row from a build's outputs: its report row (a bitstream was written), the
# same marked when timing was missed, or what overflowed.
add_row() {  # add_row OUT BOARD N CONFIG
  local out=$1 board=$2 n=$3 config=$4 core=full
  [ "$board" = icebreaker ] && core=small
  if [ -n "$(ls "$out"/*.bin "$out"/*.bit 2> /dev/null)" ]; then
    cat "$out/row.md"
  elif [ -s "$out/row.md" ]; then  # placed and routed, but slower than the core clock
    sed 's/| \(`make fpga\)/| timing not met: \1/' "$out/row.md"
  elif [ -s "$out/overuse.txt" ]; then
    echo "| $board | $core | $n | does not fit: $(paste -sd ';' "$out/overuse.txt" | tr -s ' ') | | | | | | | | | \`make fpga BOARD=$board FPGA_CONFIG=$config\` |"
  else
    echo "fpga-report: $board $config failed for another reason (see $out)" >&2
    return 1
  fi
}

for row in "${rows[@]}"; do
  read -r board config <<< "$row"
  out=$work/$board-$(basename "$config" .yaml)
  n=$(sed -n 's/^array_size:[[:space:]]*\([0-9]*\).*/\1/p' "$config")
  if [ -f "$out/pnr.log" ] && [ -z "$(find rtl sim/models "$config" -newer "$out/pnr.log" -type f | head -1)" ]; then
    echo "fpga-report: $board $config: up to date ($out)"
  else
    scripts/fpga.sh "$board" "$out" "$config"
  fi
  add_row "$out" "$board" "$n" "$config" >> "$table" || exit 1
done
awk -v table="$table" '
  /<!-- fpga-report:begin -->/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
  /<!-- fpga-report:end -->/ { skip = 0 }
  !skip' "$doc" > "$doc.new" && mv "$doc.new" "$doc"
echo "fpga-report: $doc updated"
cat "$table"
