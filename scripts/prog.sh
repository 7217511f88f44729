#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Programs a board with the bitstream `make fpga` built: prints the command, then runs it.
# usage: prog.sh BOARD OUTDIR
set -euo pipefail
board=$1 out=$2
case "$board" in
  icebreaker) bit=$out/tpu_icebreaker.bin cmd=(iceprog "$bit") pkg="fpga-icestorm" ;;
  ulx3s) bit=$out/tpu_ulx3s.bit cmd=(openFPGALoader --board ulx3s "$bit") pkg="openfpgaloader" ;;
  *) echo "prog: unknown board '$board' (known: icebreaker, ulx3s)" >&2; exit 2 ;;
esac
[ -f "$bit" ] || { echo "prog: no bitstream at $bit: run make fpga BOARD=$board first" >&2; exit 1; }
echo "prog: ${cmd[*]}"
command -v "${cmd[0]}" > /dev/null ||
  { echo "prog: ${cmd[0]} is not installed (Debian package $pkg: sudo apt-get install $pkg)" >&2; exit 1; }
exec "${cmd[@]}"
