#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Writes a GTKWave save file for an FST of tpu_core (either harness) or tpu_small_core: the
# signals of sim/waves/signals.txt (small_signals.txt), grouped by unit, with the bit
# ranges this FST's configuration gives them. Fails if a listed signal is not in the FST
# (so the list and the RTL stay in step).
# usage: make-gtkw.sh WAVE.fst > SAVE.gtkw
set -eu
fst=$1
waves="$(dirname "$0")/../sim/waves"
# The small core's FSTs have a tpu_small_core scope (only the header needs reading).
if fst2vcd "$fst" 2>/dev/null | awk '/^\$scope module tpu_small_core / {found = 1; exit} /^\$enddefinitions/ {exit} END {exit !found}'; then
  core=tpu_small_core list=$waves/small_signals.txt
else
  core=tpu_core list=$waves/signals.txt
fi
# Only the header is needed: awk stops early, so fst2vcd may die of SIGPIPE (ignored).
fst2vcd "$fst" 2>/dev/null | awk -v list="$list" -v core="$core" '
  /^\$scope/ { scope[++depth] = $3; next }
  /^\$upscope/ { depth--; next }
  /^\$var/ {
    path = ""; for (i = 1; i <= depth; i++) path = path scope[i] "."
    name = path $5; range = ($6 ~ /^\[/) ? $6 : ""
    # The core sits at TOP.<core> (plain harness) or tb.core.tpu_core (SystemC).
    if (root == "" && scope[depth] == core) root = path
    if (!(name in width)) { width[name] = $3; ranges[name] = range }
    next
  }
  /^\$enddefinitions/ {
    print "[*] Tessera " core ": signals grouped by unit (scripts/make-gtkw.sh)"
    print "[timestart] 0"
    missing = 0
    while ((getline line < list) > 0) {
      if (line ~ /^#/ || line == "") continue
      if (line ~ /^-/) { print "@200"; print line; continue }
      full = root line
      if (!(full in width)) { print "make-gtkw: no signal " full " in the waves" > "/dev/stderr"; missing++; continue }
      print (width[full] > 1 ? "@22" : "@28")
      print full ranges[full]
    }
    exit (missing > 0)
  }'
exit "${PIPESTATUS[1]}"
