// SPDX-License-Identifier: Apache-2.0
// Renderings of the ISA table: the Verilog header for rtl/ and the encoding tables
// of docs/isa.md. Tests fail when the checked-in copies drift from these.
#pragma once

#include <string>

namespace tessera {

std::string generate_verilog_header();
std::string generate_markdown_tables();

constexpr const char* kMarkdownBegin = "<!-- BEGIN GENERATED ENCODINGS (tpu-isa-gen --markdown) -->";
constexpr const char* kMarkdownEnd = "<!-- END GENERATED ENCODINGS -->";

}  // namespace tessera
