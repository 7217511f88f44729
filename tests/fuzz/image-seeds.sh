#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The image fuzz target's seeds: the example programs assembled for the default core.
# usage: image-seeds.sh TPU_AS SOURCE_DIR OUTDIR
set -euo pipefail
tpu_as=$1 src=$2 out=$3
mkdir -p "$out"
for s in "$src"/firmware/examples/*.s; do
  "$tpu_as" --config "$src/configs/default.yaml" "$s" -o "$out/$(basename "$s" .s).img"
done
echo "image-seeds: $(ls "$out" | wc -l) images in $out"
