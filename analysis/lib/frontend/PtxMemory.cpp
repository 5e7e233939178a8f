//===- PtxMemory.cpp - The memory instructions of inline PTX --------------===//
//
// A small reader of PTX instruction syntax: `[@pred] opcode.q1.q2... operands;`
// with instructions separated by `;` or new lines, `{ }` scopes and `//`
// comments ignored. Only the memory instructions of the table below are
// read; the rest of PTX is skipped.
//
//===----------------------------------------------------------------------===//
#include "PtxMemory.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <optional>

namespace coalesce {
namespace frontend {

namespace {

/// Bytes of a PTX fundamental or packed type (`f32`, `b128`, `bf16x2`).
std::optional<unsigned> typeBytes(llvm::StringRef T) {
  return llvm::StringSwitch<std::optional<unsigned>>(T)
      .Cases({"b8", "u8", "s8", "e4m3", "e5m2"}, 1)
      .Cases({"b16", "u16", "s16", "f16", "bf16", "e4m3x2", "e5m2x2"}, 2)
      .Cases({"b32", "u32", "s32", "f32", "f16x2", "bf16x2"}, 4)
      .Cases({"b64", "u64", "s64", "f64"}, 8)
      .Case("b128", 16)
      .Default(std::nullopt);
}

/// The operand and offset of an address `[$N]`, `[$N+16]`, `[$N + -4]`;
/// nullopt for a PTX register or a label.
std::optional<std::pair<unsigned, int64_t>> addressOperand(llvm::StringRef A) {
  A = A.trim();
  if (!A.consume_front("[") || !A.consume_back("]"))
    return std::nullopt;
  A = A.trim();
  if (!A.consume_front("$"))
    return std::nullopt;
  unsigned N = 0;
  if (A.consumeInteger(10, N))
    return std::nullopt;
  A = A.trim();
  int64_t Offset = 0;
  if (A.consume_front("+")) {
    if (A.trim().consumeInteger(0, Offset))
      return std::nullopt;
  } else if (A.consume_front("-")) {
    if (A.trim().consumeInteger(0, Offset))
      return std::nullopt;
    Offset = -Offset;
  } else if (!A.empty()) {
    return std::nullopt;
  }
  return std::pair{N, Offset};
}

/// The operands of an instruction, split at top-level commas (a vector
/// `{a, b}` is one operand).
llvm::SmallVector<llvm::StringRef, 4> splitOperands(llvm::StringRef S) {
  llvm::SmallVector<llvm::StringRef, 4> Out;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] == '{' || S[I] == '[')
      ++Depth;
    else if (S[I] == '}' || S[I] == ']')
      --Depth;
    else if (S[I] == ',' && Depth == 0) {
      Out.push_back(S.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  if (!S.slice(Start, S.size()).trim().empty())
    Out.push_back(S.slice(Start, S.size()).trim());
  return Out;
}

/// One instruction: its memory operation, if it has one this reader knows.
std::optional<PtxMemoryOp> readInstruction(llvm::StringRef I) {
  I = I.trim();
  if (I.consume_front("@")) // Predicate guard: `@p`, `@!%p1`.
    I = I.drop_until([](char C) { return C == ' ' || C == '\t'; }).trim();
  llvm::StringRef Mnemonic =
      I.take_until([](char C) { return C == ' ' || C == '\t'; });
  llvm::StringRef Rest = I.drop_front(Mnemonic.size()).trim();
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Mnemonic.split(Parts, '.');
  if (Parts.empty())
    return std::nullopt;
  PtxMemoryOp Op;
  Op.Mnemonic = Mnemonic.str();
  llvm::StringRef Opcode = Parts[0];
  bool Copy = Opcode == "cp" && Parts.size() > 2 && Parts[1] == "async" &&
              (Parts[2] == "ca" || Parts[2] == "cg");
  if (Opcode != "ld" && Opcode != "ldu" && Opcode != "st" &&
      Opcode != "atom" && Opcode != "red" && !Copy)
    return std::nullopt;
  unsigned Element = 0, Vector = 1;
  bool Float = false;
  for (llvm::StringRef Q : llvm::ArrayRef<llvm::StringRef>(Parts).drop_front()) {
    if (Q == "global")
      Op.Space = PtxSpace::Global;
    else if (Q.starts_with("shared"))
      Op.Space = Op.Space == PtxSpace::Generic ? PtxSpace::Shared : Op.Space;
    else if (Q == "local" || Q == "const" || Q == "param" || Q == "tex")
      Op.Space = PtxSpace::Other;
    else if (Q == "v2" || Q == "v4" || Q == "v8")
      Vector = Q[1] - '0';
    else if (std::optional<unsigned> B = typeBytes(Q)) {
      Element = *B;
      Float = Q.starts_with("f") || Q.starts_with("bf");
    }
  }
  llvm::SmallVector<llvm::StringRef, 4> Operands = splitOperands(Rest);
  std::optional<std::pair<unsigned, int64_t>> Address;
  if (Copy) {
    // cp.async.cg.shared.global [dst], [src], 16: reads 16 bytes of global
    // memory at src (the shared destination is written by the copy).
    if (Operands.size() < 3)
      return std::nullopt;
    Address = addressOperand(Operands[1]);
    unsigned Size = 0;
    if (llvm::StringRef SizeOp = Operands[2]; SizeOp.consume_front("$")) {
      // The size as an operand (`"n"(Bytes)`): its value is the caller's.
      unsigned N = 0;
      if (SizeOp.getAsInteger(10, N))
        return std::nullopt;
      Op.BytesOperand = N;
    } else if (Operands[2].getAsInteger(0, Size) || Size == 0) {
      return std::nullopt;
    }
    Op.Space = PtxSpace::Global;
    Op.Bytes = Size;
    Op.Op = AccessOp::Load;
  } else {
    if (Operands.size() < 2 || Element == 0)
      return std::nullopt;
    bool Load = Opcode == "ld" || Opcode == "ldu";
    // ld d, [a]; atom d, [a], b; st [a], b; red [a], b.
    Address = addressOperand(Load || Opcode == "atom" ? Operands[1]
                                                     : Operands[0]);
    Op.Bytes = Element * Vector;
    if (Load)
      Op.Op = AccessOp::Load;
    else if (Opcode == "st")
      Op.Op = AccessOp::Store;
    else {
      Op.Op = AccessOp::Atomic;
      Op.Atomic = Float ? AtomicKind::Float : AtomicKind::Integer;
    }
  }
  if (!Address)
    return std::nullopt;
  Op.Operand = Address->first;
  Op.Offset = Address->second;
  return Op;
}

} // namespace

std::vector<PtxMemoryOp> readPtxMemoryOps(llvm::StringRef Asm) {
  std::vector<PtxMemoryOp> Ops;
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  Asm.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.split("//").first;
    llvm::SmallVector<llvm::StringRef, 4> Instructions;
    Line.split(Instructions, ';');
    for (llvm::StringRef I : Instructions) {
      // Scopes and labels: `{ .reg .pred p; ... }`, `L1: ld...`.
      I = I.trim().ltrim("{}").trim();
      if (size_t Colon = I.find(':');
          Colon != llvm::StringRef::npos &&
          I.take_front(Colon).find_first_of(" \t.[") == llvm::StringRef::npos)
        I = I.drop_front(Colon + 1);
      I = I.rtrim("{}").trim();
      if (std::optional<PtxMemoryOp> Op = readInstruction(I))
        Ops.push_back(std::move(*Op));
    }
  }
  return Ops;
}

} // namespace frontend
} // namespace coalesce
