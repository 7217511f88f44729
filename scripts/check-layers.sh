#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The C++ layers point one way (docs/architecture.md, "Software layers"): the libraries in
# tools/ include nothing from sim/, tb/ or apps/; sim/ nothing from tb/ or apps/; tb/
# nothing from apps/. A header is found by its file name, as the include paths allow
# (#include "rtl_backend.hpp" as well as "sim/rtl_backend.hpp").
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
headers() { find "$@" -name '*.hpp' -printf '%f\n' | sort -u; }
check() {  # check LAYER UPPER...: no file in LAYER includes a header of an UPPER layer
  local layer=$1; shift
  local h
  for h in $(headers "$@"); do
    if hits=$(grep -rn --include='*.cpp' --include='*.hpp' -E "#include \"([^\"]*/)?${h//./\\.}\"" "$layer"); then
      echo "check-layers: $layer includes $h from a layer above it ($*):"; echo "$hits" | sed 's/^/    /'
      status=1
    fi
  done
}
check tools sim tb apps
check sim tb apps
check tb apps
[ "$status" -eq 0 ] && echo "check-layers: tools -> sim -> tb -> apps, no include points up"
exit "$status"
