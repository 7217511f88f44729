#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# RTL lint: every module in rtl/ as a top, with Verilator -Wall for N in {4, 8, 16, 32};
# every file read by Yosys (elaborated, no latches, no multiple drivers or loops) and by
# Icarus Verilog. No waivers are needed; if one ever is, it goes in rtl/lint_waivers.vlt.
set -uo pipefail
cd "$(dirname "$0")/.."
sizes=(4 8 16 32)
failures=0 checks=0

run() {  # run DESCRIPTION COMMAND...
  checks=$((checks + 1))
  if ! out=$("${@:2}" 2>&1); then
    echo "lint: FAIL: $1"; echo "$out" | sed 's/^/    /'; failures=$((failures + 1))
  elif [ -n "$out" ]; then
    echo "lint: FAIL (output): $1"; echo "$out" | sed 's/^/    /'; failures=$((failures + 1))
  fi
}

# has_param NAME FILE: the module in FILE takes parameter NAME (the geometry's six come
# with rtl/tpu_geometry.vh's TPU_GEOMETRY_PARAMS).
has_param() {
  grep -q "parameter integer $1\b" "$2" ||
    { [[ " ArraySize UbRows AccRows WfifoDepth DmaWidth DramBytes " = *" $1 "* ]] && grep -q "TPU_GEOMETRY_PARAMS(" "$2"; }
}

for file in rtl/tpu_*.v; do
  top=$(basename "$file" .v)
  if has_param ArraySize "$file"; then
    for n in "${sizes[@]}"; do
      run "verilator $top N=$n" verilator --lint-only -Wall -y rtl -GArraySize="$n" --top-module "$top" "$file"
      run "iverilog $top N=$n" iverilog -g2005 -Wall -I rtl -o /dev/null -s "$top" -P"$top".ArraySize="$n" rtl/tpu_*.v
    done
    for n in 4 8; do
      run "yosys $top N=$n" yosys -q -p "read_verilog -Irtl rtl/tpu_*.v; chparam -set ArraySize $n $top;
        hierarchy -check -top $top; proc; flatten; opt_clean; check -assert;
        select -assert-none t:\$dlatch t:\$sr t:\$dlatchsr"
    done
    # Optional parameters, off by default, as the configurations that use them set them:
    # the DMA's window gather (gather_segs), the products in logic (board.logic_rows).
    for opt in GatherSegs=3 LogicRows=2; do
      has_param "${opt%=*}" "$file" || continue
      for n in "${sizes[@]}"; do
        run "verilator $top N=$n $opt" verilator --lint-only -Wall -y rtl -GArraySize="$n" -G"$opt" \
          --top-module "$top" "$file"
        run "iverilog $top N=$n $opt" iverilog -g2005 -Wall -I rtl -o /dev/null -s "$top" \
          -P"$top".ArraySize="$n" -P"$top"."$opt" rtl/tpu_*.v
      done
      run "yosys $top N=8 $opt" yosys -q -p "read_verilog -Irtl rtl/tpu_*.v;
        chparam -set ArraySize 8 -set ${opt%=*} ${opt#*=} $top; hierarchy -check -top $top; proc; flatten; opt_clean;
        check -assert; select -assert-none t:\$dlatch t:\$sr t:\$dlatchsr"
    done
  else
    run "verilator $top" verilator --lint-only -Wall -y rtl --top-module "$top" "$file"
    run "iverilog $top" iverilog -g2005 -Wall -I rtl -o /dev/null -s "$top" rtl/tpu_*.v
    run "yosys $top" yosys -q -p "read_verilog -Irtl rtl/tpu_*.v; hierarchy -check -top $top; proc; check -assert"
    # the PE's product in logic (LogicProduct, for boards short of multipliers)
    if has_param LogicProduct "$file"; then
      run "verilator $top LogicProduct=1" verilator --lint-only -Wall -y rtl -GLogicProduct=1 --top-module "$top" "$file"
      run "iverilog $top LogicProduct=1" iverilog -g2005 -Wall -I rtl -o /dev/null -s "$top" -P"$top".LogicProduct=1 rtl/tpu_*.v
      run "yosys $top LogicProduct=1" yosys -q -p "read_verilog -Irtl rtl/tpu_*.v; chparam -set LogicProduct 1 $top;
        hierarchy -check -top $top; proc; check -assert"
    fi
    # the PE without the same-cycle write bypass (every column but the array's first)
    if has_param WriteBypass "$file"; then
      run "verilator $top WriteBypass=0" verilator --lint-only -Wall -y rtl -GWriteBypass=0 --top-module "$top" "$file"
      run "iverilog $top WriteBypass=0" iverilog -g2005 -Wall -I rtl -o /dev/null -s "$top" -P"$top".WriteBypass=0 rtl/tpu_*.v
      run "yosys $top WriteBypass=0" yosys -q -p "read_verilog -Irtl rtl/tpu_*.v; chparam -set WriteBypass 0 $top;
        hierarchy -check -top $top; proc; check -assert"
    fi
  fi
done
# The ECP5 builds' form of the PE's logic product (TPU_ECP5_CARRY: the ANDs in carry
# cells, rtl/tpu_mul8x2.v), with the cell's model from sim/models.
for case in "tpu_mul8x2 Top=0" "tpu_mul8x2 Top=1" "tpu_pe LogicProduct=1"; do
  top=${case% *} opt=${case#* }
  run "verilator $top $opt TPU_ECP5_CARRY" verilator --lint-only -Wall -DTPU_ECP5_CARRY -y rtl -y sim/models \
    -G"$opt" --top-module "$top" "rtl/$top.v"
  run "iverilog $top $opt TPU_ECP5_CARRY" iverilog -g2005 -Wall -DTPU_ECP5_CARRY -I rtl -o /dev/null -s "$top" \
    -P"$top.$opt" rtl/tpu_*.v sim/models/CCU2C.v
  run "yosys $top $opt TPU_ECP5_CARRY" yosys -q -p "read_verilog -lib sim/models/CCU2C.v;
    read_verilog -DTPU_ECP5_CARRY -Irtl rtl/tpu_*.v; chparam -set ${opt%=*} ${opt#*=} $top;
    hierarchy -check -top $top; proc; check -assert"
done
# The iCE40 forms (TPU_ICE40_DSP: SB_MAC16s, sim/models/SB_MAC16.v; TPU_ICE40_CARRY: carry
# chains of SB_CARRY and SB_LUT4 cells): the array without skew, also with two products
# from block RAM tables (FreeDsp, tpu_nibble_mul), the lite core's requantization and the
# magnitude it takes with carry cells.
ice40_defs=(-DTPU_ICE40_DSP -DTPU_ICE40_CARRY)
ice40_models=(sim/models/SB_MAC16.v sim/models/SB_CARRY.v sim/models/SB_LUT4.v)
for case in "tpu_mac_array FreeDsp=0" "tpu_mac_array FreeDsp=1" "tpu_lite_requant -" "tpu_magnitude Width=11"; do
  top=${case% *} opt=${case#* }
  gflag=() pflag=() chp=""
  [ "$opt" != - ] && gflag=(-G"$opt") pflag=(-P"$top.$opt") chp="chparam -set ${opt%=*} ${opt#*=} $top;"
  run "verilator $top $opt TPU_ICE40_DSP/CARRY" verilator --lint-only -Wall "${ice40_defs[@]}" -y rtl -y sim/models \
    "${gflag[@]}" --top-module "$top" "rtl/$top.v"
  run "iverilog $top $opt TPU_ICE40_DSP/CARRY" iverilog -g2005 -Wall "${ice40_defs[@]}" -I rtl -o /dev/null \
    -s "$top" "${pflag[@]}" rtl/tpu_*.v "${ice40_models[@]}"
  run "yosys $top $opt TPU_ICE40_DSP/CARRY" yosys -q -p "read_verilog -lib ${ice40_models[*]};
    read_verilog ${ice40_defs[*]} -Irtl rtl/tpu_*.v; $chp hierarchy -check -top $top; proc; check -assert"
done
# The lite core's unified buffer in the UP5K's SPRAM (TPU_ICE40_SPRAM: tpu_ice40_spram).
run "verilator tpu_lite_ub TPU_ICE40_SPRAM" verilator --lint-only -Wall -DTPU_ICE40_SPRAM -y rtl -y rtl/ice40 -y sim/models \
  --top-module tpu_lite_ub rtl/tpu_lite_ub.v
run "iverilog tpu_lite_ub TPU_ICE40_SPRAM" iverilog -g2005 -Wall -DTPU_ICE40_SPRAM -I rtl -o /dev/null -s tpu_lite_ub \
  rtl/tpu_*.v rtl/ice40/tpu_ice40_spram.v sim/models/SB_SPRAM256KA.v
run "yosys tpu_lite_ub TPU_ICE40_SPRAM" yosys -q -p "read_verilog -lib sim/models/SB_SPRAM256KA.v;
  read_verilog -DTPU_ICE40_SPRAM -Irtl rtl/tpu_*.v rtl/ice40/tpu_ice40_spram.v; hierarchy -check -top tpu_lite_ub; proc; check -assert"
# Board tops (rtl/<family>/): the same three readers, with the vendor primitives from
# their simulation models in sim/models (Yosys reads those as black boxes).
for file in rtl/ice40/tpu_*.v rtl/ecp5/tpu_*.v; do
  top=$(basename "$file" .v) dir=$(dirname "$file")
  run "verilator $top" verilator --lint-only -Wall -y rtl -y "$dir" -y sim/models --top-module "$top" "$file"
  run "iverilog $top" iverilog -g2005 -Wall -I rtl -o /dev/null -s "$top" rtl/tpu_*.v "$dir"/*.v sim/models/*.v
  run "yosys $top" yosys -q -p "read_verilog -lib sim/models/*.v; read_verilog -Irtl rtl/tpu_*.v $dir/*.v;
    hierarchy -check -top $top; proc; check -assert"
done
echo "lint: $((checks - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
