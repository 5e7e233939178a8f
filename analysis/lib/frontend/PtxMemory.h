//===- PtxMemory.h - The memory instructions of inline PTX ------*- C++ -*-===//
//
// Inline assembly hands pointers to PTX the walker does not execute. The
// common memory instructions (ld, ldu, st, atom, red, cp.async; vector
// widths, cache and eviction qualifiers) name the operand they address and
// their width: read from the asm string, each is an access through that
// operand like a subscript, predicted where the operand is a pointer the
// walker follows. Other instructions leave their pointers unknown.
//
// The asm string is read after clang has numbered its operands: operand
// references are written `$N` (outputs first, then inputs), so `%r1` and
// `%%r1` (PTX registers) are never taken for operands.
//
//===----------------------------------------------------------------------===//

#ifndef COALESCE_FRONTEND_PTXMEMORY_H
#define COALESCE_FRONTEND_PTXMEMORY_H

#include "coalesce/Predictor.h"
#include "coalesce/SectorCounter.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {
namespace frontend {

/// The state space a PTX memory instruction names (`ld.global`,
/// `st.shared::cta`, plain `ld` is generic: the pointer decides).
enum class PtxSpace { Global, Shared, Generic, Other };

/// One memory operation of an inline PTX instruction.
struct PtxMemoryOp {
  unsigned Operand = 0;  ///< The asm operand holding the address ($N).
  int64_t Offset = 0;    ///< Bytes added in the operand: `[$1+16]`.
  unsigned Bytes = 0;    ///< Per lane: element size times vector width.
  /// cp.async's size given as an operand (`[$0], [$1], $2` with "n"(16)):
  /// the caller reads its constant into Bytes.
  std::optional<unsigned> BytesOperand;
  AccessOp Op = AccessOp::Load; ///< Atomic for atom and red.
  AtomicKind Atomic = AtomicKind::None;
  PtxSpace Space = PtxSpace::Generic;
  std::string Mnemonic;  ///< "ld.global.nc.v4.f32".
};

/// The memory operations of the PTX in \p Asm (operands written `$N`), in
/// the order of the instructions. Instructions it does not know (and those
/// addressing a PTX register rather than an operand) give none.
std::vector<PtxMemoryOp> readPtxMemoryOps(llvm::StringRef Asm);

} // namespace frontend
} // namespace coalesce

#endif
