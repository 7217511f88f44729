#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The user's path to a board, on the simulated one: tpu-board-sim on a pseudo-terminal,
# then the tools with --backend uart --port: a compiled digits program through tpu-run
# (same logits and summary as the golden model), the digits demo on the board, and a
# clear error for a port where nothing answers.
# usage: test_board_uart.sh BIN_DIR SOURCE_DIR
set -uo pipefail
bin=$1 src=$2
cfg=$src/configs/icebreaker.yaml
work=$(mktemp -d)
"$bin/tpu-board-sim" --seconds 900 > "$work/board.out" 2>&1 &
board=$!
trap 'kill $board 2> /dev/null; wait $board 2> /dev/null; rm -rf "$work"' EXIT
failures=0 passes=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
for _ in $(seq 100); do grep -q '^port: ' "$work/board.out" && break; sleep 0.1; done
port=$(sed -n 's/^port: //p' "$work/board.out")
[ -n "$port" ] || { echo "FAIL: tpu-board-sim printed no port"; cat "$work/board.out"; exit 1; }
echo "board: $port"

# The MLP compiled for the board's core, one batch of inputs.
"$bin/tpu-cc" "$src/firmware/models/digits_mlp.yaml" --config "$cfg" --batch 4 -o "$work/mlp.s" &&
  "$bin/tpu-as" --config "$cfg" "$work/mlp.s" -o "$work/mlp.img" || fail "compile the MLP"
python3 -c "import random,sys; r=random.Random(3); sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range(256)))" > "$work/x.bin"
for be in model uart; do
  "$bin/tpu-run" --backend $be --port "$port" --config "$cfg" --quiet "$work/mlp.img" --in "input=$work/x.bin" \
    --out "logits=$work/y.$be" > "$work/$be.out" 2>&1 || { fail "the MLP on $be"; sed 's/^/    /' "$work/$be.out"; }
done
cmp -s "$work/y.model" "$work/y.uart" && passes=$((passes + 1)) || fail "MLP logits differ between model and board"
diff <(grep '^tpu-run:' "$work/model.out") <(grep '^tpu-run:' "$work/uart.out") > /dev/null &&
  passes=$((passes + 1)) || fail "MLP summaries differ"
grep -q "^tpu-run: OK" "$work/uart.out" && passes=$((passes + 1)) || fail "no OK from the board run"

# The demo: both networks on the board, every logit equal to the golden model's.
if (cd "$src" && "$bin/digits-demo" --backend uart --port "$port" --config "$cfg") > "$work/demo.out" 2>&1; then
  passes=$((passes + 1))
else
  fail "digits-demo on the board"; sed 's/^/    /' "$work/demo.out"
fi

# Nothing on the other end: an error naming the port, after the retries, exit 1.
"$bin/tpu-run" --backend uart --port /dev/null --config "$cfg" "$work/mlp.img" > "$work/none.out" 2>&1
[ $? -eq 1 ] && grep -q "not a serial port" "$work/none.out" && passes=$((passes + 1)) ||
  { fail "/dev/null as the port"; cat "$work/none.out"; }

echo "board_uart: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
