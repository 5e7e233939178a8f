//===- Fixes.h - Fix-its: padding a conflicting shared array ----*- C++ -*-===//
///
/// \file
/// The one mechanical fix coalesce-lint offers (issue 27): a statically
/// sized multi-dimensional __shared__ array whose rows make a bank conflict
/// gets its innermost dimension padded (`[32][32]` -> `[32][33]`). A fix-it
/// is offered only after the padded file was analyzed again and no access
/// of the array conflicts any more, and only for arrays that no code uses
/// other than by subscripting them (no sizeof, no pointer taken), declared
/// in the file itself and not by a macro.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_FIXES_H
#define COALESCE_FIXES_H

#include "coalesce/Config.h"
#include "coalesce/Report.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace coalesce {

/// One replacement in one file.
struct FixIt {
  std::string RuleId = "coalesce-bank-conflict";
  std::string File;
  unsigned Offset = 0, Length = 0; ///< Bytes of File replaced.
  std::string Original; ///< The text replaced, as analyzed.
  std::string Replacement;
  SourceLocation Loc; ///< The replaced text's line and column.
  /// "pad each row of 'tile' from 32 to 33 elements (...)".
  std::string Message;
};

/// The padding fix-its for the bank conflicts of \p R, each checked by
/// analyzing the padded file with \p Config (the file copied to a temporary
/// directory, its own directory added to the include path).
llvm::Expected<std::vector<FixIt>> paddingFixes(const Report &R,
                                                const AnalysisConfig &Config);

/// Writes \p Fixes into their files (several per file, applied from the
/// end). Fails without writing anything when a file changed since the
/// analysis (its text at a fix is not the text replaced).
llvm::Error applyFixes(const std::vector<FixIt> &Fixes);

/// clang-tidy's `--export-fixes` YAML for \p Fixes.
std::string fixesYaml(const std::vector<FixIt> &Fixes,
                      const std::string &MainSourceFile);

} // namespace coalesce

#endif // COALESCE_FIXES_H
