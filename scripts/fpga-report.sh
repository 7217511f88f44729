#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds every board and configuration of docs/fpga.md's resource table and rewrites
# the table (between its fpga-report markers) from the builds' reports. A build that
# does not fit its device becomes a row saying which resources overflowed.
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
table=$work/table.md
mkdir -p "$work"
{
  echo "| board | N | LUT4 | FF | carry | BRAM | SPRAM | DSP | Fmax (MHz) | core clock (MHz) | peak GOPS at Fmax | reproduce |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
} > "$table"
for row in "${rows[@]}"; do
  read -r board config <<< "$row"
  out=$work/$board-$(basename "$config" .yaml)
  n=$(sed -n 's/^array_size:[[:space:]]*\([0-9]*\).*/\1/p' "$config")
  if scripts/fpga.sh "$board" "$out" "$config"; then
    cat "$out/row.md" >> "$table"
  elif [ -s "$out/row.md" ]; then  # placed and routed, but slower than the core clock
    sed 's/| \(`make fpga\)/| timing not met: \1/' "$out/row.md" >> "$table"
  elif [ -s "$out/overuse.txt" ]; then
    echo "| $board | $n | does not fit: $(paste -sd ';' "$out/overuse.txt" | tr -s ' ') | | | | | | | | | \`make fpga BOARD=$board FPGA_CONFIG=$config\` |" >> "$table"
  else
    echo "fpga-report: $board $config failed for another reason (see $out)" >&2
    exit 1
  fi
done
awk -v table="$table" '
  /<!-- fpga-report:begin -->/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
  /<!-- fpga-report:end -->/ { skip = 0 }
  !skip' "$doc" > "$doc.new" && mv "$doc.new" "$doc"
echo "fpga-report: $doc updated"
cat "$table"
