#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Replaces the generated blocks of a document with tpu-isa-gen's renderings: the
# encoding tables (`--markdown`, docs/isa.md) and the CSR map (`--csr-markdown`,
# docs/architecture.md), wherever their markers are.
set -euo pipefail
gen=$1 doc=$2
tmp=$(mktemp)
awk -v enc="$gen --markdown" -v csr="$gen --csr-markdown" '
  /^<!-- BEGIN GENERATED ENCODINGS/ { while ((enc | getline line) > 0) print line; skip = 1; next }
  /^<!-- END GENERATED ENCODINGS/   { skip = 0; next }
  /^<!-- BEGIN GENERATED CSR MAP/   { while ((csr | getline line) > 0) print line; skip = 1; next }
  /^<!-- END GENERATED CSR MAP/     { skip = 0; next }
  !skip { print }
' "$doc" > "$tmp"
mv "$tmp" "$doc"
