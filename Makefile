# SPDX-License-Identifier: Apache-2.0
# Tessera's front door. `make help` lists the targets; CMake does the C++ underneath.

BUILD   ?= build
JOBS    ?= 2
CONFIG  ?= configs/default.yaml
SEEDS   ?= 100
BACKEND ?= rtl
COVERAGE_SEEDS ?= 400
FUZZ_SECONDS ?= 600
BOARD   ?= icebreaker
FPGA_CONFIG ?=
BIN     := $(BUILD)/bin

.DEFAULT_GOAL := help
.PHONY: help deps build test demo train bench wave regress fuzz coverage lint formal synth fpga fpga-blocks prog fpga-report board-sim isa clean

help: ## list the targets
	@echo "Tessera targets:"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## (.*)/  make \1\t\2/' | expand -t 20
	@echo "Variables: BUILD=$(BUILD) JOBS=$(JOBS) CONFIG=$(CONFIG)"

deps: ## install missing Debian packages (as root), or print the command to run
	@scripts/deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: deps $(BUILD)/CMakeCache.txt ## build the host tools, libraries and tests
	cmake --build $(BUILD) -j $(JOBS)

# A sanitizer report exits with its own code (not 1), so a test that expects a tool to
# fail with exit code 1 cannot pass over a report in the tool's error path.
SANITIZER_ENV := ASAN_OPTIONS=exitcode=23 UBSAN_OPTIONS=exitcode=23:print_stacktrace=1

test: build ## run the whole test suite (Catch2 through CTest)
	cd $(BUILD) && $(SANITIZER_ENV) ctest --output-on-failure -j $(JOBS)

demo: build ## classify the digits test split with the MLP and the CNN on the RTL (BACKEND=model: golden model)
	$(BIN)/digits-demo --backend $(BACKEND) --config $(CONFIG)

train: build ## retrain and requantize the digits models into firmware/models (reproduces them bit for bit)
	$(BIN)/tpu-train --out firmware/models

bench: deps ## release build; GEMM utilization sweep, network layers, simulator speeds (JSON in build/bench)
	cmake -S . -B $(BUILD)-bench -DCMAKE_BUILD_TYPE=Release -DTESSERA_SANITIZE=OFF -DTESSERA_BENCH_THREADS=ON
	cmake --build $(BUILD)-bench -j $(JOBS) --target tpu_bench
	$(BUILD)-bench/bin/tpu-bench --out $(BUILD)/bench

wave: build ## run PROG=file.s on the RTL with FST waves and a timeline; print the gtkwave command
	@test -n "$(PROG)" || { echo "usage: make wave PROG=firmware/examples/gemm64.s [CONFIG=...]"; exit 2; }
	@mkdir -p $(BUILD)/wave
	$(BIN)/tpu-as --config $(CONFIG) $(PROG) -o $(BUILD)/wave/$(notdir $(basename $(PROG))).img
	-$(BIN)/tpu-run --backend rtl --config $(CONFIG) $(BUILD)/wave/$(notdir $(basename $(PROG))).img \
	  --wave $(BUILD)/wave/$(notdir $(basename $(PROG))).fst --trace $(BUILD)/wave/$(notdir $(basename $(PROG))).json
	scripts/make-gtkw.sh $(BUILD)/wave/$(notdir $(basename $(PROG))).fst > $(BUILD)/wave/$(notdir $(basename $(PROG))).gtkw
	@echo "waves:    gtkwave $(BUILD)/wave/$(notdir $(basename $(PROG))).fst $(BUILD)/wave/$(notdir $(basename $(PROG))).gtkw"
	@echo "timeline: open $(BUILD)/wave/$(notdir $(basename $(PROG))).json in https://ui.perfetto.dev or chrome://tracing"

regress: build ## differential regression RTL vs model: make regress SEEDS=N CONFIG=file.yaml
	$(BIN)/tpu-regress --config $(CONFIG) --seeds $(SEEDS)

fuzz: ## coverage-guided fuzzing (clang, libFuzzer) of the assembler, image, config, model, .npy and UART parsers, FUZZ_SECONDS each
	scripts/fuzz.sh $(BUILD)-fuzz $(FUZZ_SECONDS)

coverage: build ## regression on a coverage build (N=4): line/toggle per module, ISA coverage
	cmake --build $(BUILD) -j $(JOBS) --target tpu_regress_cov
	@mkdir -p $(BUILD)/coverage
	$(BIN)/tpu-regress-cov --config configs/n4.yaml --seeds $(COVERAGE_SEEDS) --coverage $(BUILD)/coverage/n4.dat

lint: deps ## lint the RTL: Verilator -Wall for N = 4, 8, 16, 32; Yosys; Icarus
	scripts/lint.sh

formal: deps ## prove the RTL's formal properties (yosys-smtbmc: BMC and induction)
	scripts/formal.sh $(BUILD)/formal

synth: deps ## synthesize tpu_core with Yosys (N = 4 and 8): no latches, loops or warnings
	scripts/synth.sh $(BUILD)/synth 4 8

fpga: ## bitstream and resource/Fmax report for BOARD=icebreaker|ulx3s [FPGA_CONFIG=configs/...]
	@scripts/deps.sh fpga $(BUILD)
	YOWASP=$(BUILD)/yowasp/bin scripts/fpga.sh $(BOARD) $(BUILD)/fpga/$(BOARD) $(FPGA_CONFIG)

fpga-blocks: ## each unit of the full core placed and routed alone on the ECP5: Fmax per unit [FPGA_CONFIG=configs/ulx3s_n4.yaml]
	@scripts/deps.sh fpga $(BUILD)
	YOWASP=$(BUILD)/yowasp/bin scripts/fpga-blocks.sh $(BUILD)/fpga-blocks $(or $(FPGA_CONFIG),configs/ulx3s_n4.yaml)

prog: ## program BOARD with the bitstream make fpga built (prints the command it runs)
	@scripts/prog.sh $(BOARD) $(BUILD)/fpga/$(BOARD)

fpga-report: ## rebuild every board and N of docs/fpga.md's resource table
	@scripts/deps.sh fpga $(BUILD)
	YOWASP=$(BUILD)/yowasp/bin scripts/fpga-report.sh $(BUILD)/fpga-report docs/fpga.md

board-sim: build ## the simulated iCEBreaker on a pseudo-terminal, for --backend uart --port ...
	$(BIN)/tpu-board-sim

isa: build ## regenerate rtl/tpu_isa.vh, the encoding tables in docs/isa.md and the CSR map in docs/architecture.md
	$(BIN)/tpu-isa-gen --verilog > rtl/tpu_isa.vh
	scripts/update-isa-doc.sh $(BIN)/tpu-isa-gen docs/isa.md
	scripts/update-isa-doc.sh $(BIN)/tpu-isa-gen docs/architecture.md

clean: ## remove build directories
	rm -rf $(BUILD) build-*
