// SPDX-License-Identifier: Apache-2.0
// Image -> text: a readable listing, or source that reassembles to the same image.
#pragma once

#include <string>

#include "image/image.hpp"

namespace tessera {

// Header, sections, symbols, and every text word with its address and encoding.
std::string disassemble_listing(const Image& img);
// Assembler source that reproduces the image's sections and labels exactly.
std::string disassemble_source(const Image& img);

}  // namespace tessera
