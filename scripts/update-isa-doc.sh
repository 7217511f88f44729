#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Replaces the generated block of docs/isa.md with `tpu-isa-gen --markdown`.
set -euo pipefail
gen=$1 doc=$2
tmp=$(mktemp)
awk -v gen="$gen --markdown" '
  /^<!-- BEGIN GENERATED ENCODINGS/ { while ((gen | getline line) > 0) print line; skip = 1; next }
  /^<!-- END GENERATED ENCODINGS/   { skip = 0; next }
  !skip { print }
' "$doc" > "$tmp"
mv "$tmp" "$doc"
