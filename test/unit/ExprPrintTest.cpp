//===- ExprPrintTest.cpp - The printed form reads back as the same Expr ---===//
///
/// Diagnostics print strides and conditions with Expr::str() ("adjacent lanes
/// are 512 bytes apart (8*(n / (blockDim.x*gridDim.x)))"): a user reads
/// them as C. A small parser with C's precedence and associativity, written
/// here apart from the engine, reads the printed text back through the
/// factories; on random trees the result must be the same expression.
///
//===----------------------------------------------------------------------===//

#include "ExprOps.h"

#include "TestExprs.h"
#include "coalesce/Expr.h"

#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <optional>
#include <random>
#include <string>

using namespace coalesce;
using coalesce::testing::ExprOp;

namespace {

/// C's expression grammar over integers, identifiers (dots allowed:
/// threadIdx.x), min(a, b) and max(a, b); each name maps to a symbol.
class CParser {
public:
  CParser(std::string Text, const std::map<std::string, Symbol> &Names)
      : S(std::move(Text)), Names(Names) {}

  /// The expression, or nullopt when the text is not one to its end.
  std::optional<Expr> parse() {
    std::optional<Expr> E = conditional();
    skip();
    if (!E || Pos != S.size())
      return std::nullopt;
    return E;
  }

private:
  void skip() {
    while (Pos < S.size() && S[Pos] == ' ')
      ++Pos;
  }
  bool eat(const char *Tok) {
    skip();
    size_t N = std::char_traits<char>::length(Tok);
    if (S.compare(Pos, N, Tok) != 0)
      return false;
    // `<` must not take the first character of `<<` or `<=`, `&` of `&&`.
    char Next = Pos + N < S.size() ? S[Pos + N] : '\0';
    if (N == 1 && (Tok[0] == '<' || Tok[0] == '>') &&
        (Next == Tok[0] || Next == '='))
      return false;
    if (N == 1 && (Tok[0] == '&' || Tok[0] == '|') && Next == Tok[0])
      return false;
    if (N == 1 && (Tok[0] == '!' || Tok[0] == '=') && Next == '=')
      return false;
    Pos += N;
    return true;
  }

  std::optional<Expr> conditional() {
    std::optional<Expr> C = binary(0);
    if (!C || !eat("?"))
      return C;
    std::optional<Expr> T = conditional();
    if (!T || !eat(":"))
      return std::nullopt;
    std::optional<Expr> F = conditional();
    if (!F)
      return std::nullopt;
    return Expr::select(*C, *T, *F);
  }

  /// Binary operators by C's precedence, lowest first; all left-associative.
  std::optional<Expr> binary(unsigned Level) {
    static const std::vector<std::vector<const char *>> Levels = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="},
        {"<=", ">=", "<", ">"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
    if (Level == Levels.size())
      return unary();
    std::optional<Expr> L = binary(Level + 1);
    while (L) {
      const char *Op = nullptr;
      for (const char *Tok : Levels[Level])
        if (eat(Tok)) {
          Op = Tok;
          break;
        }
      if (!Op)
        return L;
      std::optional<Expr> R = binary(Level + 1);
      if (!R)
        return std::nullopt;
      L = apply(Op, *L, *R);
    }
    return L;
  }

  static Expr apply(std::string Op, const Expr &A, const Expr &B) {
    if (Op == "||") return Expr::logicalOr(A, B);
    if (Op == "&&") return Expr::logicalAnd(A, B);
    if (Op == "|") return Expr::bitOr(A, B);
    if (Op == "^") return Expr::bitXor(A, B);
    if (Op == "&") return Expr::bitAnd(A, B);
    if (Op == "==") return Expr::eq(A, B);
    if (Op == "!=") return Expr::ne(A, B);
    if (Op == "<=") return Expr::le(A, B);
    if (Op == ">=") return Expr::le(B, A);
    if (Op == "<") return Expr::lt(A, B);
    if (Op == ">") return Expr::lt(B, A);
    if (Op == "<<") return Expr::shl(A, B);
    if (Op == ">>") return Expr::shr(A, B);
    if (Op == "+") return A + B;
    if (Op == "-") return A - B;
    if (Op == "*") return A * B;
    if (Op == "/") return Expr::div(A, B);
    return Expr::rem(A, B);
  }

  std::optional<Expr> unary() {
    if (eat("-")) {
      std::optional<Expr> E = unary();
      return E ? std::optional<Expr>(Expr::neg(*E)) : std::nullopt;
    }
    if (eat("!")) {
      std::optional<Expr> E = unary();
      return E ? std::optional<Expr>(Expr::logicalNot(*E)) : std::nullopt;
    }
    return primary();
  }

  std::optional<Expr> primary() {
    skip();
    if (eat("(")) {
      std::optional<Expr> E = conditional();
      return E && eat(")") ? E : std::nullopt;
    }
    if (Pos < S.size() && std::isdigit(static_cast<unsigned char>(S[Pos]))) {
      size_t End = Pos;
      while (End < S.size() && std::isdigit(static_cast<unsigned char>(S[End])))
        ++End;
      int64_t V = std::stoll(S.substr(Pos, End - Pos));
      Pos = End;
      return Expr::constant(V);
    }
    size_t End = Pos;
    while (End < S.size() &&
           (std::isalnum(static_cast<unsigned char>(S[End])) || S[End] == '_' ||
            S[End] == '.'))
      ++End;
    std::string Name = S.substr(Pos, End - Pos);
    Pos = End;
    if (Name == "min" || Name == "max") {
      if (!eat("("))
        return std::nullopt;
      std::optional<Expr> A = conditional();
      if (!A || !eat(","))
        return std::nullopt;
      std::optional<Expr> B = conditional();
      if (!B || !eat(")"))
        return std::nullopt;
      return Name == "min" ? Expr::min(*A, *B) : Expr::max(*A, *B);
    }
    auto It = Names.find(Name);
    if (It == Names.end())
      return std::nullopt;
    return testSymbol(It->second);
  }

  std::string S;
  size_t Pos = 0;
  const std::map<std::string, Symbol> &Names;
};

const Symbol Syms[] = {Symbol::threadIdx(0), Symbol::blockIdx(0),
                       Symbol{SymbolKind::BlockDim, "blockDim.x"},
                       Symbol{SymbolKind::GridDim, "gridDim.x"},
                       Symbol::param("n"),
                       Symbol{SymbolKind::LoopIter, "k"}};

std::map<std::string, Symbol> names() {
  std::map<std::string, Symbol> M;
  for (const Symbol &S : Syms)
    M.emplace(S.Name, S);
  return M;
}

/// A random expression through the factories, small constants (the printed
/// form of INT64_MIN is not a C literal).
Expr randomExpr(std::mt19937 &Rng, int Depth) {
  auto Pick = [&](int Lo, int Hi) {
    return std::uniform_int_distribution<int>(Lo, Hi)(Rng);
  };
  if (Depth == 0 || Pick(0, 4) == 0) {
    if (Pick(0, 9) < 3)
      return Expr::constant(Pick(-20, 20));
    return testSymbol(Syms[Pick(0, 5)]);
  }
  auto O = static_cast<ExprOp>(
      Pick(int(ExprOp::Add), int(coalesce::testing::NumExprOps) - 1));
  std::vector<Expr> Kids;
  for (unsigned I = 0; I < coalesce::testing::arityOf(O); ++I)
    Kids.push_back(randomExpr(Rng, Depth - 1));
  if ((O == ExprOp::Shl || O == ExprOp::Shr) && Pick(0, 9) < 7)
    Kids[1] = Expr::constant(Pick(0, 8));
  return coalesce::testing::applyExprOp(O, Kids);
}

std::optional<Expr> reparse(const Expr &E) {
  static const std::map<std::string, Symbol> Names = names();
  return CParser(E.str(), Names).parse();
}

TEST(ExprPrintRoundTrip, QuotientOfAProductKeepsItsParentheses) {
  Expr N = testSymbol(Syms[4]), BD = testSymbol(Syms[2]),
       GD = testSymbol(Syms[3]);
  Expr Stride = Expr::constant(8) * Expr::div(N, BD * GD);
  EXPECT_EQ(Stride.str(), "8*(n / (blockDim.x*gridDim.x))");
  EXPECT_EQ(Expr::rem(N, BD * Expr::constant(4)).str(),
            "(n % (4*blockDim.x))");
  std::optional<Expr> Back = reparse(Stride);
  ASSERT_TRUE(Back);
  EXPECT_TRUE(*Back == Stride) << Back->str();
}

TEST(ExprPrintRoundTrip, RandomTreesReadBackAsTheSameExpression) {
  std::mt19937 Rng(20261205);
  int Checked = 0;
  for (int Tree = 0; Tree < 5000; ++Tree) {
    Expr E = randomExpr(Rng, 4);
    // Folding can make constants no C literal spells (INT64_MIN).
    if (E.str().find("9223372036854775808") != std::string::npos)
      continue;
    std::optional<Expr> Back = reparse(E);
    ASSERT_TRUE(Back) << "does not parse: " << E.str();
    ASSERT_TRUE(*Back == E) << "printed " << E.str() << "\n  read back as "
                            << Back->str();
    ++Checked;
  }
  EXPECT_GT(Checked, 4500);
}

} // namespace

namespace {

/// A value a loop builds by sharing its last value twice per pass (candle's
/// GGUF MMQ kernels): 60 nodes whose tree has 2^60 leaves. Printing it
/// whole took gigabytes; the printed form stops at MaxPrintedChars.
TEST(ExprPrint, SharedSubexpressionsStopAtTheLengthCap) {
  Expr N = testSymbol(Syms[4]);
  Expr E = N;
  for (int I = 0; I < 60; ++I)
    E = Expr::select(Expr::lt(N, Expr::constant(I)), E * Expr::constant(2),
                     E + Expr::constant(1));
  ASSERT_LT(E.distinctNodes(1000), size_t(1000));
  std::string Text = E.str();
  EXPECT_EQ(Text.size(), Expr::MaxPrintedChars + 3);
  EXPECT_EQ(Text.substr(Text.size() - 3), "...");
  // A form under the cap is printed whole, without the marker.
  Expr Small =
      Expr::select(Expr::lt(N, Expr::constant(3)), N, N + Expr::constant(1));
  EXPECT_EQ(Small.str(), "((n < 3) ? n : n + 1)");
}

} // namespace
