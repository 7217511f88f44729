// SPDX-License-Identifier: Apache-2.0
// The assembler: source text -> program image. Syntax in docs/assembler.md.
#pragma once

#include <optional>
#include <string>

#include "asm/diagnostics.hpp"
#include "config/config.hpp"
#include "image/image.hpp"

namespace tessera {

struct AsmResult {
  std::optional<Image> image;  // present only when there were no errors
  Diagnostics diags;
};

// `base_dir` resolves the relative paths of .incbin and .npy.
AsmResult assemble_source(const std::string& text, const std::string& file_name,
                          const std::string& base_dir, const Config& cfg);
AsmResult assemble_file(const std::string& path, const Config& cfg);

}  // namespace tessera
