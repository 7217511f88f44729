#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Writes a GTKWave save file for an FST of tpu_core (either harness): the signals of sim/waves/signals.txt,
# grouped by unit, with the bit ranges this FST's configuration gives them. Fails if a
# listed signal is not in the FST (so the list and the RTL stay in step).
# usage: make-gtkw.sh WAVE.fst > SAVE.gtkw
set -eu
fst=$1
list="$(dirname "$0")/../sim/waves/signals.txt"
# Only the header is needed: awk stops early, so fst2vcd may die of SIGPIPE (ignored).
fst2vcd "$fst" 2>/dev/null | awk -v list="$list" '
  /^\$scope/ { scope[++depth] = $3; next }
  /^\$upscope/ { depth--; next }
  /^\$var/ {
    path = ""; for (i = 1; i <= depth; i++) path = path scope[i] "."
    name = path $5; range = ($6 ~ /^\[/) ? $6 : ""
    # The core sits at TOP.tpu_core (plain harness) or tb.core.tpu_core (SystemC).
    if (root == "" && scope[depth] == "tpu_core") root = path
    if (!(name in width)) { width[name] = $3; ranges[name] = range }
    next
  }
  /^\$enddefinitions/ {
    print "[*] Tessera tpu_core: signals grouped by unit (scripts/make-gtkw.sh)"
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
