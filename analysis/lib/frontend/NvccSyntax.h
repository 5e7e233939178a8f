//===- NvccSyntax.h - Syntax nvcc accepts and clang rejects -----*- C++ -*-===//
//
// nvcc accepts a kernel launch whose brackets are split by white space,
// `kernel<< <grid, block, 0, stream>> >(args)` (what Visual Studio's
// formatter writes; llama_cu_awq's sampler.h has it), clang does not: the
// host function fails to parse, its launches are lost and the file counts
// as not compiling. The files of a parse are read through a file system
// that joins such brackets, keeping every other character, and so every
// line and column, where it was. The same file system blanks a `#pragma`
// written inside a `#define`, which nvcc accepts and clang rejects, and
// doubles the `%` of a PTX register written with one in an inline assembly
// statement with operands (`asm("mov.u32 %0, %laneid;" : "=r"(l))`), which
// nvcc passes on as it stands and clang rejects as an invalid `%` escape.
//
//===----------------------------------------------------------------------===//

#ifndef COALESCE_FRONTEND_NVCCSYNTAX_H
#define COALESCE_FRONTEND_NVCCSYNTAX_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <optional>
#include <string>

namespace coalesce {
namespace frontend {

/// \p Text with each spaced launch `<< <` ... `>> >` written `<<<` ...
/// `>>>` (the removed blanks moved after the bracket, so the text keeps its
/// length and every line and column), or nullopt when it has none. An
/// opening `<< <` counts only with a closing `>> >` (or `>>>`) after it in
/// the same statement, outside parentheses; `operator<< <T>` is left alone.
std::optional<std::string> joinSpacedLaunches(llvm::StringRef Text);

/// \p Text with each `#pragma ...` written inside a `#define` (moderngpu's
/// `#define PRAGMA_UNROLL #pragma unroll`, which nvcc accepts and clang
/// rejects where the macro is used) replaced by blanks up to the end of its
/// line, so that lines and columns do not move; nullopt when there is none.
/// The tool reads no loop pragma, so nothing it predicts changes.
std::optional<std::string> blankPragmasInDefines(llvm::StringRef Text);

/// \p Text with each `%` that clang would reject as an escape in the string
/// of an inline assembly statement with operands (`%laneid`, `%smid`: a
/// `%` not followed by a digit, `%`, `=`, `{`, `|`, `}`, `[` or a letter
/// and then a digit or `[`) written `%%`, as nvcc reads it; nullopt when
/// there is none. Each added `%` takes the place of a blank of the same
/// string (one after `,` or `;`, or next to another blank, first), else of
/// a blank later on the same line, so that lines keep their length; an
/// escape with no blank to take is left as it is.
std::optional<std::string> escapeAsmPercents(llvm::StringRef Text);

/// \p Base, with every file read through joinSpacedLaunches,
/// blankPragmasInDefines and escapeAsmPercents.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
withNvccSyntax(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base);

} // namespace frontend
} // namespace coalesce

#endif
