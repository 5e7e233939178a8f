//===- ExprPrint.cpp - Human-readable form of an Expr ---------------------===//
///
/// \file
/// str(): sums as "4*N*threadIdx.x + 1024*blockIdx.x - 4", every
/// non-polynomial node parenthesized ("(i % 8)", "(c ? x : y)") or written
/// as a call ("min(a, b)"), so the printed form reads unambiguously as C:
/// parsed back with C's precedence it is the same expression
/// (ExprPrintTest's round trip).
///
//===----------------------------------------------------------------------===//

#include "symbolic/ExprNode.h"

#include <fmt/format.h>

namespace coalesce {

using K = Expr::Kind;

namespace {

void print(const Expr &E, std::string &Out);
void printOperand(const Expr &E, std::string &Out,
                  bool RightOfDivision = false);

/// Prints a term without its sign when \p DropSign.
void printTerm(const Term &T, bool DropSign, std::string &Out) {
  int64_t C = T.Coeff;
  if (DropSign && C < 0 && C != INT64_MIN)
    C = -C;
  if (T.Factors.empty()) {
    Out += fmt::format("{}", C);
    return;
  }
  if (C == -1)
    Out += '-';
  else if (C != 1)
    Out += fmt::format("{}*", C);
  bool First = true;
  for (const Expr &F : T.Factors) {
    if (!First)
      Out += '*';
    First = false;
    printOperand(F, Out);
  }
}

void printSum(const Expr &E, std::string &Out) {
  bool First = true;
  for (const Expr &Summand : E.operands()) {
    Term T = termOf(Summand);
    bool Negative = T.Coeff < 0 && T.Coeff != INT64_MIN;
    if (!First)
      Out += Negative ? " - " : " + ";
    printTerm(T, /*DropSign=*/!First, Out);
    First = false;
  }
}

/// An operand of an infix operator or a factor of a product: sums get
/// parentheses, and so do products on the right of `/` and `%`
/// (\p RightOfDivision), which C would otherwise read as `(a / b)*c`.
void printOperand(const Expr &E, std::string &Out, bool RightOfDivision) {
  if (E.getKind() == K::Add ||
      (RightOfDivision && E.getKind() == K::Mul)) {
    Out += '(';
    print(E, Out);
    Out += ')';
    return;
  }
  print(E, Out);
}

const char *infixSpelling(K Kind) {
  switch (Kind) {
  case K::Div:
    return "/";
  case K::Rem:
    return "%";
  case K::Shl:
    return "<<";
  case K::Shr:
    return ">>";
  case K::And:
    return "&";
  case K::Or:
    return "|";
  case K::Xor:
    return "^";
  case K::Lt:
    return "<";
  case K::Le:
    return "<=";
  case K::Eq:
    return "==";
  case K::Ne:
    return "!=";
  case K::LAnd:
    return "&&";
  case K::LOr:
    return "||";
  default:
    return "?";
  }
}

void print(const Expr &E, std::string &Out) {
  const std::vector<Expr> &Ops = E.operands();
  switch (E.getKind()) {
  case K::Constant:
    Out += fmt::format("{}", E.getConstant());
    return;
  case K::Symbol:
    Out += E.getSymbol().Name;
    return;
  case K::Add:
    printSum(E, Out);
    return;
  case K::Mul:
    printTerm(termOf(E), /*DropSign=*/false, Out);
    return;
  case K::Min:
  case K::Max:
    Out += E.getKind() == K::Min ? "min(" : "max(";
    print(Ops[0], Out);
    Out += ", ";
    print(Ops[1], Out);
    Out += ')';
    return;
  case K::Select:
    Out += '(';
    printOperand(Ops[0], Out);
    Out += " ? ";
    print(Ops[1], Out);
    Out += " : ";
    print(Ops[2], Out);
    Out += ')';
    return;
  default:
    Out += '(';
    printOperand(Ops[0], Out);
    Out += fmt::format(" {} ", infixSpelling(E.getKind()));
    printOperand(Ops[1], Out,
                 E.getKind() == K::Div || E.getKind() == K::Rem);
    Out += ')';
    return;
  }
}

} // namespace

std::string Expr::str() const {
  std::string Out;
  print(*this, Out);
  return Out;
}

} // namespace coalesce
