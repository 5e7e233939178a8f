//===- Census.h - Every memory operation a kernel reaches -------*- C++ -*-===//
///
/// \file
/// The census (--self-check): an inventory of the memory operations in the
/// code a kernel reaches, taken apart from the walker and its evaluator, with
/// rules of its own that look only at the syntax (RecursiveASTVisitor over
/// the kernel and the user functions it calls). Each entry must appear in
/// the walker's report as a predicted access, an unknown one (with a reason)
/// or an excluded one (shared, local, constant, parameter space, code that
/// cannot run): an entry that does not is a bug in the tool, reported with
/// its location.
///
/// The census over-approximates what runs: it counts an operation in every
/// function the kernel may call, whatever the arguments, so it never
/// depends on the walker having followed a value.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_CENSUS_CENSUS_H
#define COALESCE_CENSUS_CENSUS_H

#include "coalesce/Report.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <vector>

namespace coalesce {
namespace census {

/// What an entry does to memory, as a mask: an entry is accounted for when
/// the records at its location cover every bit. 0: any record will do (a
/// call whose effect the census cannot see).
enum OpMask : unsigned { AnyOp = 0, LoadOp = 1, StoreOp = 2 };

/// One memory operation of the census.
struct Entry {
  /// Where the walker records it: the begin of the lvalue, or of any node
  /// of its chain of subscripts, members and parentheses (exact match).
  std::vector<SourceLocation> Anchors;
  /// For calls (library code, inline assembly): any record inside
  /// [Begin, End] accounts for the entry, and Anchors is empty.
  SourceLocation Begin, End;
  unsigned Ops = AnyOp;
  /// The census rule that found it ("subscript", "dereference", ...).
  const char *Rule = "";
  std::string Expression;
};

/// The census of kernel \p Kernel (an instantiation, for a template) and
/// of the functions it reaches in the user's code.
std::vector<Entry> takeCensus(clang::ASTContext &Ctx,
                              const clang::FunctionDecl *Kernel);

/// The entries of \p Census that \p K (the walker's record of the same
/// kernel: its accesses and exclusions) does not account for.
std::vector<CensusMiss> unmatchedEntries(const std::vector<Entry> &Census,
                                         const KernelRecord &K);

} // namespace census
} // namespace coalesce

#endif // COALESCE_CENSUS_CENSUS_H
