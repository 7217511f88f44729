// SPDX-License-Identifier: Apache-2.0
// Renderings of the ISA table and the CSR map: the Verilog header for rtl/, the
// encoding tables of docs/isa.md, the CSR map of docs/architecture.md. Tests fail when
// the checked-in copies drift from these.
#pragma once

#include <string>

namespace tessera {

std::string generate_verilog_header();
std::string generate_markdown_tables();
std::string generate_csr_markdown();  // the CSR map and counters of docs/architecture.md

constexpr const char* kMarkdownBegin = "<!-- BEGIN GENERATED ENCODINGS (tpu-isa-gen --markdown) -->";
constexpr const char* kMarkdownEnd = "<!-- END GENERATED ENCODINGS -->";
constexpr const char* kCsrMarkdownBegin = "<!-- BEGIN GENERATED CSR MAP (tpu-isa-gen --csr-markdown) -->";
constexpr const char* kCsrMarkdownEnd = "<!-- END GENERATED CSR MAP -->";

}  // namespace tessera
