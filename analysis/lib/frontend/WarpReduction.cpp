//===- WarpReduction.cpp - Butterfly reductions across a warp -------------===//
//
// WarpExchanges (see WarpReduction.h), and where the walker meets it: the
// xor shuffle of a value per lane (xorShuffle, from the CUDA library values);
// the translator offers it every combination of two values
// (combineValues, ExprTranslator.cpp).
//
//===----------------------------------------------------------------------===//
#include "WarpReduction.h"

#include "FrontendInternal.h"

#include "coalesce/LaneModel.h"

#include "llvm/Support/MathExtras.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

using namespace clang;

namespace coalesce {
namespace frontend {

Expr WarpExchanges::shuffled(const Expr &V, unsigned Lanes,
                             std::string Name) {
  Symbol S{V.isIndirect() ? SymbolKind::IndirectValue : SymbolKind::LaneValue,
           std::move(Name), mixKeys(V.hash(), Lanes)};
  Entries.insert({S, {V, Lanes, /*Reduced=*/false, Combine::Add}});
  return Exprs.symbol(S);
}

namespace {
/// How a reduction reads in notes: "the warp's sum of x[threadIdx.x]",
/// "max of k over lanes lane ^ {8, 16}"; the code (\p Site) where the
/// reduced value prints long.
std::string reductionName(Combine Op, const Expr &Root, unsigned Bits,
                          llvm::function_ref<std::string()> Site) {
  static constexpr const char *Words[] = {"sum", "product", "and", "or",
                                          "xor", "min", "max"};
  std::string Of = Root.str();
  if (Of.size() > 60)
    return Site();
  std::string Word = Words[static_cast<unsigned>(Op)];
  if (Bits == WarpSize - 1)
    return fmt::format("the warp's {} of {}", Word, Of);
  std::vector<unsigned> Lanes;
  for (unsigned B = 1; B < WarpSize; B <<= 1)
    if (Bits & B)
      Lanes.push_back(B);
  return fmt::format("{} of {} over lanes lane ^ {{{}}}", Word, Of,
                     fmt::join(Lanes, ", "));
}
} // namespace

const WarpExchanges::Entry *WarpExchanges::find(const Expr &E) const {
  if (E.getKind() != Expr::Kind::Symbol)
    return nullptr;
  auto It = Entries.find(E.getSymbol());
  return It == Entries.end() ? nullptr : &It->second;
}

std::optional<Expr>
WarpExchanges::combine(Combine Op, const Expr &L, const Expr &R,
                       llvm::function_ref<std::string()> Name) {
  for (auto [Mine, Other] : {std::pair{&L, &R}, std::pair{&R, &L}}) {
    const Entry *Shuffled = find(*Other);
    if (!Shuffled || Shuffled->Reduced || !(Shuffled->Of == *Mine))
      continue;
    // The lanes Mine is the same in (it reduces over them), and the value
    // it reduces when the steps so far all used Op (for the name).
    Expr Root = *Mine;
    unsigned Bits = 0;
    bool Named = true;
    if (const Entry *Before = find(*Mine); Before && Before->Reduced) {
      Bits = Before->Bits;
      Named = Before->Op == Op && !(Bits & Shuffled->Bits);
      if (Named)
        Root = Before->Of;
    }
    Bits |= Shuffled->Bits;
    std::string Printed = Named ? reductionName(Op, Root, Bits, Name) : Name();
    uint64_t Version = mixKeys(mixKeys(Mine->hash(), Shuffled->Bits),
                               static_cast<uint64_t>(Op) + 1);
    if (Bits == WarpSize - 1)
      return Exprs.symbol({SymbolKind::UniformValue, Printed, Version});
    Symbol S{Mine->isIndirect() ? SymbolKind::IndirectValue
                                : SymbolKind::LaneValue,
             Printed, Version};
    Entries.insert({S, {Root, Bits, /*Reduced=*/true, Op}});
    return Exprs.symbol(S);
  }
  return std::nullopt;
}

std::optional<Expr> KernelWalker::xorShuffle(const CallExpr *CE,
                                             unsigned ValueArg, const Expr &V,
                                             const Frame &F) {
  unsigned N = CE->getNumArgs();
  auto ConstantArg = [&](unsigned I) -> std::optional<int64_t> {
    return translate(CE->getArg(I), F, nullptr).asConstant();
  };
  // Every lane takes part: the mask, where there is one, is all 32.
  if (ValueArg == 1) {
    std::optional<int64_t> Mask = ConstantArg(0);
    if (!Mask || (static_cast<uint64_t>(*Mask) & 0xffffffffu) != 0xffffffffu)
      return std::nullopt;
  }
  std::optional<int64_t> Width =
      N > ValueArg + 2 ? ConstantArg(ValueArg + 2) : int64_t(WarpSize);
  std::optional<int64_t> Lanes = ConstantArg(ValueArg + 1);
  if (!Width || !Lanes || *Lanes <= 0 || *Lanes >= *Width ||
      *Width > WarpSize || !llvm::isPowerOf2_64(*Lanes))
    return std::nullopt;
  return Exchanges.shuffled(V, static_cast<unsigned>(*Lanes),
                            sourceText(Ctx, CE->getSourceRange()));
}

} // namespace frontend
} // namespace coalesce
