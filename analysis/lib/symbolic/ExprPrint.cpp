//===- ExprPrint.cpp - Human-readable form of an Expr ---------------------===//
///
/// \file
/// str(): sums as "4*N*threadIdx.x + 1024*blockIdx.x - 4", every
/// non-polynomial node parenthesized ("(i % 8)", "(c ? x : y)") or written
/// as a call ("min(a, b)"), so the printed form reads unambiguously as C:
/// parsed back with C's precedence it is the same expression
/// (ExprPrintTest's round trip). A form longer than Expr::MaxPrintedChars
/// ends there in "...": a value built by a loop can share its parts many
/// times over (a DAG of a few hundred nodes whose tree is billions), which
/// written out in full took gigabytes (candle's GGUF MMQ kernels).
///
//===----------------------------------------------------------------------===//

#include "symbolic/ExprNode.h"

#include "coalesce/ExprVisitor.h"

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

/// Appends the C form of an expression to Out.
struct Printer : ExprVisitor<Printer> {
  std::string &Out;
  explicit Printer(std::string &Out) : Out(Out) {}

  void visitConstant(const Expr &E) { Out += fmt::format("{}", E.getConstant()); }
  void visitSymbol(const Expr &E) { Out += E.getSymbol().Name; }
  void visitAdd(const Expr &E) { printSum(E, Out); }
  void visitMul(const Expr &E) {
    printTerm(termOf(E), /*DropSign=*/false, Out);
  }
  void call(const char *Fn, const Expr &E) {
    Out += Fn;
    Out += '(';
    visit(E.operands()[0]);
    Out += ", ";
    visit(E.operands()[1]);
    Out += ')';
  }
  void visitMin(const Expr &E) { call("min", E); }
  void visitMax(const Expr &E) { call("max", E); }
  void visitSelect(const Expr &E) {
    const std::vector<Expr> &Ops = E.operands();
    Out += '(';
    printOperand(Ops[0], Out);
    Out += " ? ";
    visit(Ops[1]);
    Out += " : ";
    visit(Ops[2]);
    Out += ')';
  }
  /// The infix operators.
  void visitBinary(const Expr &E) {
    const std::vector<Expr> &Ops = E.operands();
    Out += '(';
    printOperand(Ops[0], Out);
    Out += fmt::format(" {} ", infixSpelling(E.getKind()));
    printOperand(Ops[1], Out,
                 E.getKind() == K::Div || E.getKind() == K::Rem);
    Out += ')';
  }
};

void print(const Expr &E, std::string &Out) {
  if (Out.size() > Expr::MaxPrintedChars)
    return;
  Printer(Out).visit(E);
}

} // namespace

std::string Expr::str() const {
  std::string Out;
  print(*this, Out);
  if (Out.size() > MaxPrintedChars) {
    Out.resize(MaxPrintedChars);
    Out += "...";
  }
  return Out;
}

} // namespace coalesce
