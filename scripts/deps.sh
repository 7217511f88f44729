#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Makes sure the Debian packages Tessera builds with are installed: installs the
# missing ones when run as root, otherwise prints the one command to run and fails.
set -euo pipefail

# One line per concern; keep README.md's list in step.
PACKAGES=(
  g++ make cmake              # host C++ build
  libyaml-cpp-dev             # configuration files
  catch2                      # unit tests
  verilator                   # RTL block tests and lint
  libsystemc-dev              # SystemC testbench (2.3.4, with TLM-2.0)
  gtkwave                     # waveform viewer for `make wave` (the tests load its save files)
  iverilog                    # lint: the RTL must read in Icarus too
  yosys z3                    # lint and formal proofs (yosys-smtbmc with z3)
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>&1 | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  echo "deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  $cmd
else
  echo "deps: missing Debian packages: ${missing[*]}" >&2
  echo "deps: run as root:  sudo apt-get update && sudo $cmd" >&2
  exit 1
fi
