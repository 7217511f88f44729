#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The digits networks end to end: tpu-train reproduces the committed model artefacts
# bit for bit; tpu-cc + tpu-as + digits-host classify the test split on the model for
# N = 4 and N = 16; digits-demo agrees with the golden model; tpu-cc's errors.
# usage: test_nn.sh BIN_DIR SOURCE_DIR
set -uo pipefail
bin=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0 passes=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { passes=$((passes + 1)); }
cd "$src"

# Retraining with the documented seed reproduces every committed file.
"$bin/tpu-train" --out "$work/models" > "$work/train.out" 2>&1 || fail "tpu-train: $(cat "$work/train.out")"
for f in firmware/models/*; do
  cmp -s "$f" "$work/models/$(basename "$f")" && pass || fail "retraining changed $f"
done
[ "$(ls "$work/models" | wc -l)" -eq "$(ls firmware/models | wc -l)" ] && pass || fail "tpu-train wrote other files"
grep -q "digits_mlp  float test accuracy" "$work/train.out" && pass || fail "tpu-train report"

# Compile, assemble and classify with the short host example, on N = 4 and N = 16.
for cfg in configs/n4.yaml configs/default.yaml; do
  for m in digits_mlp digits_cnn; do
    "$bin/tpu-cc" firmware/models/$m.yaml --config $cfg -o "$work/$m.s" > /dev/null || { fail "tpu-cc $m $cfg"; continue; }
    "$bin/tpu-as" --config $cfg "$work/$m.s" -o "$work/$m.img" || { fail "tpu-as $m $cfg"; continue; }
    out=$("$bin/digits-host" $cfg firmware/models/$m.yaml "$work/$m.img" model) || { fail "digits-host $m $cfg: $out"; continue; }
    # at least 95% of 360 digits right
    right=$(echo "$out" | sed -E 's/.*: ([0-9]+) of 360.*/\1/')
    [ "$right" -ge 342 ] && pass || fail "$m on $cfg: $out"
  done
done

# Each way of lowering the CNN's convolution classifies the same (tpu-cc --conv).
for how in taps im2col toeplitz; do
  "$bin/tpu-cc" firmware/models/digits_cnn.yaml --conv $how -o "$work/cnn_$how.s" > /dev/null || { fail "tpu-cc --conv $how"; continue; }
  grep -q "^; layer 0: conv2d, $how" "$work/cnn_$how.s" && pass || fail "--conv $how: $(grep '^; layer 0' "$work/cnn_$how.s")"
  "$bin/tpu-as" "$work/cnn_$how.s" -o "$work/cnn_$how.img" || { fail "tpu-as --conv $how"; continue; }
  out=$("$bin/digits-host" configs/default.yaml firmware/models/digits_cnn.yaml "$work/cnn_$how.img" model) || { fail "digits-host --conv $how: $out"; continue; }
  right=$(echo "$out" | sed -E 's/.*: ([0-9]+) of 360.*/\1/')
  [ "$right" -ge 342 ] && pass || fail "--conv $how: $out"
done

# The demo on the golden model (the RTL run is the demo_rtl test).
"$bin/digits-demo" --backend model > "$work/demo.out" 2>/dev/null && pass || fail "digits-demo: $(cat "$work/demo.out")"
[ "$(grep -c 'logits equal to golden model  100.00%  (reference implementation: 100.00%)' "$work/demo.out")" -eq 2 ] \
  && pass || fail "demo agreement"

# Errors: clear messages, exit 1, no output file.
expect_error() {  # expect_error MESSAGE ARGS...
  local msg=$1; shift
  "$bin/tpu-cc" "$@" > "$work/err" 2>&1
  [ $? -eq 1 ] && grep -q "$msg" "$work/err" && pass || { fail "tpu-cc $*: $(cat "$work/err")"; }
}
expect_error "tpu-cc: error: .*missing.yaml" "$work/missing.yaml" -o "$work/x.s"
expect_error "missing arguments" firmware/models/digits_mlp.yaml
expect_error "\-\-conv is auto, taps, gathered, im2col or toeplitz, not 'fast'" firmware/models/digits_cnn.yaml -o "$work/x.s" --conv fast
expect_error "does not fit the core" firmware/models/digits_cnn.yaml -o "$work/x.s" --batch 500
expect_error "\-\-batch must be 1..65536, got 4294967297" firmware/models/digits_cnn.yaml -o "$work/x.s" --batch 4294967297
expect_error "cannot open the model (not a regular file)" firmware/models -o "$work/x.s"
expect_error "cannot write '/dev/full'" firmware/models/digits_mlp.yaml --batch 1 -o /dev/full
[ ! -e "$work/x.s" ] && pass || fail "a failed compile left an output file"

echo "nn: $passes passed, $failures failed"
[ $failures -eq 0 ]
