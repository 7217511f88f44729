// SPDX-License-Identifier: Apache-2.0
// Image -> text: a readable listing, or source that reassembles to the same image.
#pragma once

#include <stdexcept>
#include <string>

#include "image/image.hpp"

namespace tessera {

// Header, sections, symbols, and every text word with its address and encoding.
std::string disassemble_listing(const Image& img);
class DisasmError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Assembler source that reproduces the image's sections and labels exactly. When the
// configuration the image names is known, the source is reassembled and compared;
// an image no source can reproduce (one the assembler did not make: sections out of
// order, labels outside them) is a DisasmError saying where they differ.
std::string disassemble_source(const Image& img);

}  // namespace tessera
