//===- FuzzExpr.cpp - libFuzzer target for the symbolic engine ------------===//
///
/// \file
/// Decodes the input into a small program over a pool of expressions: each
/// step applies one of Expr's factories (constants, symbols, + - * / % << >>
/// & | ^ min max select comparisons && || !, substitute) to pool entries and
/// appends the result. Next to every folded Expr it keeps the naive tree of
/// the same operations, evaluated directly with C semantics. Then, for
/// symbol values and ranges also taken from the input, it checks what the
/// rest of the tool relies on:
///
///   - the folded Expr evaluates to the naive tree's value wherever that is
///     defined and no intermediate overflows int64 (evaluate() wraps; the
///     exact-division folds are only valid without overflow);
///   - substitute() and replace() of a symbol by its value agree with it;
///   - folding is idempotent: rebuilding a folded Expr through the
///     factories gives it back; terms()/fromTerms() and splitLaneUniform()
///     round-trip; linearCoefficient() and coefficientGcd() are right;
///   - == agrees with the hash, with operator< (a strict total order) and
///     with str(); str() does not crash;
///   - boundsOf() contains every defined value, neverHolds() is false for
///     a condition that holds, and narrowByCondition()
///     keeps every symbol value under which the condition holds.
///
/// Hash-consing: the symbols of one input are made in one ExprContext, so
/// rebuilding a folded Expr of that context gives the very node back (an
/// operation over constants alone belongs to no context and is compared
/// structurally); structurally equal => equal hashes.
/// A violation is __builtin_trap(). Inputs whose polynomials would grow
/// without bound (repeated squaring of sums) are cut short: that cost is
/// the pipeline's --timeout, not an invariant.
///
//===----------------------------------------------------------------------===//

#include "coalesce/Expr.h"
#include "ExprOps.h"
#include "coalesce/ExprBounds.h"
#include "symbolic/ExprNode.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace coalesce;

namespace {

[[noreturn]] void fail(const char *What, const std::string &Detail) {
  std::fprintf(stderr, "fuzz-expr: invariant violated: %s\n  %s\n", What,
               Detail.c_str());
  __builtin_trap();
}

#define CHECK(Cond, Detail)                                                    \
  do {                                                                         \
    if (!(Cond))                                                               \
      fail(#Cond, Detail);                                                     \
  } while (false)

/// Reads the input; past its end every read is 0.
class Reader {
public:
  Reader(const uint8_t *Data, size_t Size) : P(Data), End(Data + Size) {}
  bool atEnd() const { return P == End; }
  uint8_t byte() { return P < End ? *P++ : 0; }
  /// A value: mostly from a table of interesting ones, else raw bytes.
  int64_t value() {
    static const int64_t Table[] = {0,         1,          -1,
                                    2,         3,          4,
                                    7,         8,          16,
                                    31,        32,         33,
                                    63,        64,         100,
                                    255,       1023,       1024,
                                    4096,      -2,         -32,
                                    -1024,     INT32_MAX,  INT32_MIN,
                                    UINT32_MAX, 1LL << 40, INT64_MAX,
                                    INT64_MIN, INT64_MAX - 1, INT64_MIN + 1};
    constexpr unsigned N = sizeof(Table) / sizeof(Table[0]);
    uint8_t B = byte();
    if (B < 200)
      return Table[B % N];
    if (B < 240)
      return int64_t(int8_t(byte()));
    uint64_t V = 0;
    for (int I = 0; I != 8; ++I)
      V = V << 8 | byte();
    return int64_t(V);
  }

private:
  const uint8_t *P, *End;
};

const std::vector<Symbol> &symbolTable() {
  static const std::vector<Symbol> Table = {
      Symbol::threadIdx(0),
      Symbol::threadIdx(1),
      Symbol::blockIdx(0),
      Symbol::blockDim(0),
      Symbol::gridDim(0),
      Symbol::param("N"),
      Symbol::param("M"),
      {SymbolKind::LoopIter, "k"},
      {SymbolKind::UniformValue, "u"},
      {SymbolKind::LaneValue, "lane"},
      {SymbolKind::IndirectValue, "idx[i]"},
  };
  return Table;
}

//===-- The naive tree ----------------------------------------------------===//

using Op = coalesce::testing::ExprOp;
constexpr unsigned NumOps = coalesce::testing::NumExprOps;

struct Naive;
using NaivePtr = std::shared_ptr<const Naive>;
struct Naive {
  Op K = Op::Const;
  int64_t Value = 0;
  unsigned Sym = 0;
  std::vector<NaivePtr> Ops;
  /// Tree size, saturating: evaluation walks the tree.
  uint64_t Size = 1;
};

NaivePtr makeNaive(Op K, std::vector<NaivePtr> Ops, int64_t Value = 0,
                   unsigned Sym = 0) {
  auto N = std::make_shared<Naive>();
  N->K = K;
  N->Value = Value;
  N->Sym = Sym;
  for (const NaivePtr &O : Ops)
    N->Size = std::min<uint64_t>(N->Size + O->Size, UINT64_MAX / 4);
  N->Ops = std::move(Ops);
  return N;
}

/// The value of a naive tree: defined, undefined (the engine's nullopt:
/// division by zero, INT64_MIN / -1, shift amounts outside [0, 63]), or
/// overflowed (some + - * << left int64; then no comparison is made).
struct Val {
  enum State { Ok, Undef, Overflow } St = Ok;
  int64_t V = 0;
  static Val ok(int64_t V) { return {Ok, V}; }
  static Val undef() { return {Undef, 0}; }
  static Val overflow() { return {Overflow, 0}; }
};

Val evalNaive(const Naive &N, const std::vector<int64_t> &Values) {
  auto E = [&](unsigned I) { return evalNaive(*N.Ops[I], Values); };
  switch (N.K) {
  case Op::Const:
    return Val::ok(N.Value);
  case Op::Sym:
    return Val::ok(Values[N.Sym]);
  case Op::Select: {
    Val C = E(0);
    if (C.St != Val::Ok)
      return C;
    return E(C.V != 0 ? 1 : 2);
  }
  case Op::LAnd:
  case Op::LOr: {
    // The engine's semantics: a deciding operand decides even when the
    // other is undefined (Expr::applyLogical).
    bool IsAnd = N.K == Op::LAnd;
    Val X = E(0), Y = E(1);
    if (X.St == Val::Overflow || Y.St == Val::Overflow)
      return Val::overflow();
    if ((X.St == Val::Ok && (X.V != 0) != IsAnd) ||
        (Y.St == Val::Ok && (Y.V != 0) != IsAnd))
      return Val::ok(IsAnd ? 0 : 1);
    if (X.St != Val::Ok || Y.St != Val::Ok)
      return Val::undef();
    return Val::ok(IsAnd ? 1 : 0);
  }
  case Op::Neg:
  case Op::LNot: {
    Val X = E(0);
    if (X.St != Val::Ok)
      return X;
    if (N.K == Op::LNot)
      return Val::ok(X.V == 0 ? 1 : 0);
    if (X.V == INT64_MIN)
      return Val::overflow();
    return Val::ok(-X.V);
  }
  default:
    break;
  }
  Val X = E(0);
  if (X.St != Val::Ok)
    return X;
  Val Y = E(1);
  if (Y.St != Val::Ok)
    return Y;
  int64_t A = X.V, B = Y.V, R = 0;
  using K = Expr::Kind;
  auto Apply = [&](K Kind) {
    std::optional<int64_t> V = Expr::applyOperator(Kind, A, B);
    return V ? Val::ok(*V) : Val::undef();
  };
  switch (N.K) {
  case Op::Add:
    return __builtin_add_overflow(A, B, &R) ? Val::overflow() : Val::ok(R);
  case Op::Sub:
    return __builtin_sub_overflow(A, B, &R) ? Val::overflow() : Val::ok(R);
  case Op::Mul:
    return __builtin_mul_overflow(A, B, &R) ? Val::overflow() : Val::ok(R);
  case Op::Shl: {
    if (B < 0 || B > 63)
      return Val::undef();
    // A * 2^B, exactly.
    __int128 W = __int128(A) * (__int128(1) << B);
    if (W > INT64_MAX || W < INT64_MIN)
      return Val::overflow();
    return Val::ok(int64_t(W));
  }
  case Op::Div:
    return Apply(K::Div);
  case Op::Rem:
    return Apply(K::Rem);
  case Op::Shr:
    return Apply(K::Shr);
  case Op::And:
    return Apply(K::And);
  case Op::Or:
    return Apply(K::Or);
  case Op::Xor:
    return Apply(K::Xor);
  case Op::Min:
    return Apply(K::Min);
  case Op::Max:
    return Apply(K::Max);
  case Op::Lt:
    return Val::ok(A < B);
  case Op::Le:
    return Val::ok(A <= B);
  case Op::Gt:
    return Val::ok(A > B);
  case Op::Ge:
    return Val::ok(A >= B);
  case Op::Eq:
    return Val::ok(A == B);
  case Op::Ne:
    return Val::ok(A != B);
  default:
    break;
  }
  fail("unhandled naive operation", std::to_string(int(N.K)));
}

/// The naive tree with symbol \p S replaced by \p To.
NaivePtr substituteNaive(const NaivePtr &N, unsigned S, const NaivePtr &To,
                         std::map<const Naive *, NaivePtr> &Memo) {
  if (N->K == Op::Sym)
    return N->Sym == S ? To : N;
  if (N->K == Op::Const)
    return N;
  auto It = Memo.find(N.get());
  if (It != Memo.end())
    return It->second;
  std::vector<NaivePtr> Ops;
  for (const NaivePtr &O : N->Ops)
    Ops.push_back(substituteNaive(O, S, To, Memo));
  NaivePtr R = makeNaive(N->K, std::move(Ops), N->Value, N->Sym);
  Memo[N.get()] = R;
  return R;
}

/// The naive tree in C syntax, for failure messages.
std::string naiveStr(const Naive &N) {
  static const char *const Spelling[] = {
      "",  "",  "+",  "-",  "*",  "-", "/",  "%",  "<<", ">>", "&", "|", "^",
      "min", "max", "?", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "!"};
  if (N.Size > 200)
    return "<tree of " + std::to_string(N.Size) + " nodes>";
  switch (N.K) {
  case Op::Const:
    return std::to_string(N.Value);
  case Op::Sym:
    return symbolTable()[N.Sym].Name;
  case Op::Neg:
  case Op::LNot:
    return std::string(Spelling[unsigned(N.K)]) + "(" + naiveStr(*N.Ops[0]) +
           ")";
  case Op::Min:
  case Op::Max:
    return std::string(Spelling[unsigned(N.K)]) + "(" + naiveStr(*N.Ops[0]) +
           ", " + naiveStr(*N.Ops[1]) + ")";
  case Op::Select:
    return "(" + naiveStr(*N.Ops[0]) + " ? " + naiveStr(*N.Ops[1]) + " : " +
           naiveStr(*N.Ops[2]) + ")";
  default:
    return "(" + naiveStr(*N.Ops[0]) + " " + Spelling[unsigned(N.K)] + " " +
           naiveStr(*N.Ops[1]) + ")";
  }
}

//===-- Folded expressions -------------------------------------------------===//

Expr build(const ExprContext &X, Op K, const std::vector<Expr> &A,
           int64_t Value, unsigned Sym) {
  if (K == Op::Const)
    return Expr::constant(Value);
  if (K == Op::Sym)
    return X.symbol(symbolTable()[Sym]);
  return coalesce::testing::applyExprOp(K, A);
}

unsigned arity(Op K) { return coalesce::testing::arityOf(K); }

/// The largest number of factors of a term of \p E (its degree).
size_t degree(const Expr &E) {
  size_t D = 0;
  for (const Term &T : E.terms())
    D = std::max(D, T.Factors.size());
  return D;
}

/// Would E * F (distributed) or a substitution into them grow without bound?
bool tooBigToMultiply(const Expr &E, const Expr &F) {
  return E.terms().size() * F.terms().size() > 512 ||
         degree(E) + degree(F) > 64;
}

/// \p E rebuilt bottom-up through the public factories.
Expr refold(const Expr &E, std::map<const Expr::Node *, Expr> &Memo) {
  if (E.getKind() == Expr::Kind::Constant || E.getKind() == Expr::Kind::Symbol)
    return E;
  const Expr::Node *Key = &ExprBuilder::node(E);
  auto It = Memo.find(Key);
  if (It != Memo.end())
    return It->second;
  std::vector<Expr> Ops;
  for (const Expr &O : E.operands())
    Ops.push_back(refold(O, Memo));
  Expr R = ExprBuilder::rebuild(E.getKind(), Ops);
  Memo.emplace(Key, R);
  return R;
}

bool contains(const Interval &I, int64_t V) { return I.Lo <= V && V <= I.Hi; }

Val evalExactNode(const Expr &E, const Bindings &B);

/// evaluate() without wrapping: Overflow when a value of the folded tree
/// leaves (INT64_MIN, INT64_MAX), the domain of interval arithmetic (its
/// end points stand for the infinities). boundsOf() is sound for these
/// exact values; folding may have wrapped coefficients already (C - (x - C)
/// folds to 2C - x, which is -x - 4 for C = 2^63 - 2), and then the
/// wrapped value the naive tree agrees with is out of its reach.
Val evalExact(const Expr &E, const Bindings &B) {
  Val V = evalExactNode(E, B);
  if (V.St == Val::Ok && (V.V == INT64_MIN || V.V == INT64_MAX))
    return Val::overflow();
  return V;
}

Val evalExactNode(const Expr &E, const Bindings &B) {
  using K = Expr::Kind;
  const std::vector<Expr> &Ops = E.operands();
  switch (E.getKind()) {
  case K::Constant:
    return Val::ok(E.getConstant());
  case K::Symbol:
    return Val::ok(*B.lookup(E.getSymbol()));
  case K::Add:
  case K::Mul: {
    bool IsAdd = E.getKind() == K::Add;
    int64_t Acc = IsAdd ? 0 : 1;
    for (const Expr &O : Ops) {
      Val V = evalExact(O, B);
      if (V.St != Val::Ok)
        return V;
      if (IsAdd ? __builtin_add_overflow(Acc, V.V, &Acc)
                : __builtin_mul_overflow(Acc, V.V, &Acc))
        return Val::overflow();
    }
    return Val::ok(Acc);
  }
  case K::Select: {
    Val C = evalExact(Ops[0], B);
    if (C.St != Val::Ok)
      return C;
    return evalExact(Ops[C.V != 0 ? 1 : 2], B);
  }
  default:
    break;
  }
  Val X = evalExact(Ops[0], B), Y = evalExact(Ops[1], B);
  if (X.St == Val::Overflow || Y.St == Val::Overflow)
    return Val::overflow();
  if (E.getKind() == K::LAnd || E.getKind() == K::LOr) {
    std::optional<int64_t> V = Expr::applyLogical(
        E.getKind(),
        [&] { return X.St == Val::Ok ? std::optional<int64_t>(X.V) : std::nullopt; },
        [&] { return Y.St == Val::Ok ? std::optional<int64_t>(Y.V) : std::nullopt; });
    return V ? Val::ok(*V) : Val::undef();
  }
  if (X.St != Val::Ok)
    return X;
  if (Y.St != Val::Ok)
    return Y;
  if (E.getKind() == K::Shl && Y.V >= 0 && Y.V <= 63) {
    __int128 W = __int128(X.V) * (__int128(1) << Y.V);
    if (W > INT64_MAX || W < INT64_MIN)
      return Val::overflow();
  }
  std::optional<int64_t> V = Expr::applyOperator(E.getKind(), X.V, Y.V);
  return V ? Val::ok(*V) : Val::undef();
}

uint64_t magnitude(int64_t V) {
  return V < 0 ? 0 - uint64_t(V) : uint64_t(V);
}

/// The largest magnitude of a constant in the naive tree \p N.
uint64_t largestConstant(const Naive &N) {
  uint64_t M = N.K == Op::Const ? magnitude(N.Value) : 0;
  for (const NaivePtr &O : N.Ops)
    M = std::max(M, largestConstant(*O));
  return M;
}

/// Values are compared only for programs whose constants stay below this.
/// Folding adds constants in wrapping arithmetic, and a comparison folds by
/// the sign of a constant difference: `x > (x - (2^63 - 2)) - 16` folds
/// to 0 because -2^63 - 14 wraps to 2^63 - 14, though for x >= 14 nothing
/// in the program overflows. Like C compilers, the engine takes values for
/// not overflowing; 48 steps adding constants below 2^48 stay far from it.
constexpr uint64_t MaxCheckedConstant = uint64_t(1) << 48;

/// The largest magnitude of a constant in \p E (saturating at INT64_MAX).
uint64_t largestConstant(const Expr &E) {
  if (E.isConstant())
    return magnitude(E.getConstant());
  uint64_t M = 0;
  for (const Expr &O : E.operands())
    M = std::max(M, largestConstant(O));
  return M;
}

std::string describe(const Expr &E) {
  return E.treeSize() <= 2000 ? E.str() : "<tree of " +
                                              std::to_string(E.treeSize()) +
                                              " nodes>";
}

/// "threadIdx.x=3 in [0, 31], ..." for the symbols of \p E.
std::string valuesOf(const Expr &E, const std::vector<int64_t> &Values,
                     const SymbolRanges &R) {
  std::string S;
  for (size_t I = 0; I != Values.size(); ++I) {
    const Symbol &Sym = symbolTable()[I];
    if (E.symbols().count(Sym))
      S += Sym.Name + "=" + std::to_string(Values[I]) + " in " +
           R.lookup(Sym).str() + "; ";
  }
  return S;
}

/// Trees larger than this are not evaluated, printed or refolded (a DAG
/// reusing subterms can have an exponential tree form).
constexpr uint64_t MaxTreeSize = 20000;
constexpr uint64_t MaxSubstitutedTreeSize = 2000;
constexpr size_t MaxSteps = 48;
constexpr size_t MaxPool = 64;

struct Entry {
  Expr E;
  NaivePtr N;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Reader In(Data, Size);
  const std::vector<Symbol> &Syms = symbolTable();
  const unsigned NumSyms = Syms.size();

  // Symbol values and, around them, the ranges for boundsOf().
  std::vector<int64_t> Values(NumSyms);
  Bindings B;
  SymbolRanges R;
  for (unsigned I = 0; I != NumSyms; ++I) {
    Values[I] = In.value();
    B.set(Syms[I], Values[I]);
    static const int64_t Widths[] = {0, 1, 3, 31, 1000, -1};
    auto Width = [&](uint8_t Byte) { return Widths[Byte % 6]; };
    int64_t Below = Width(In.byte()), Above = Width(In.byte());
    Interval Range;
    Range.Lo = Below < 0 || Values[I] < INT64_MIN + Below ? Interval::NegInf
                                                          : Values[I] - Below;
    Range.Hi = Above < 0 || Values[I] > INT64_MAX - Above ? Interval::PosInf
                                                          : Values[I] + Above;
    // INT64_MAX and INT64_MIN stand for the infinities: [+inf, +inf] is
    // no range of values.
    Range.Lo = std::min(Range.Lo, Interval::PosInf - 1);
    Range.Hi = std::max(Range.Hi, Interval::NegInf + 1);
    R.set(Syms[I], Range);
  }
  // Whether every value is one its symbol's kind allows (neverHolds()
  // assumes indices and iterations >= 0, sizes >= 1).
  bool Natural = true;
  for (unsigned I = 0; I != NumSyms; ++I) {
    SymbolKind K = Syms[I].Kind;
    if (K == SymbolKind::ThreadIdx || K == SymbolKind::BlockIdx ||
        K == SymbolKind::LoopIter)
      Natural &= Values[I] >= 0;
    if (K == SymbolKind::BlockDim || K == SymbolKind::GridDim)
      Natural &= Values[I] >= 1;
  }

  // The program.
  std::vector<Entry> Pool;
  ExprContext Exprs; // This input's expressions (hash-consed).
  Pool.push_back({Exprs.symbol(Syms[0]), makeNaive(Op::Sym, {}, 0, 0)});
  for (size_t Step = 0; Step != MaxSteps && !In.atEnd() && Pool.size() < MaxPool;
       ++Step) {
    uint8_t Code = In.byte();
    if (Code >= 250) {
      // substitute(): a symbol of an entry by another entry.
      const Entry &E = Pool[In.byte() % Pool.size()];
      const Entry &To = Pool[In.byte() % Pool.size()];
      unsigned S = In.byte() % NumSyms;
      if (E.E.treeSize() > MaxSubstitutedTreeSize ||
          To.E.treeSize() > MaxSubstitutedTreeSize ||
          degree(E.E) * std::max<size_t>(degree(To.E), 1) > 64 ||
          tooBigToMultiply(E.E, To.E))
        continue;
      std::map<const Naive *, NaivePtr> Memo;
      Pool.push_back({E.E.substitute({{Syms[S], To.E}}),
                      substituteNaive(E.N, S, To.N, Memo)});
      continue;
    }
    Op K = Op(Code % NumOps);
    std::vector<Expr> Args;
    std::vector<NaivePtr> NArgs;
    for (unsigned I = 0; I != arity(K); ++I) {
      const Entry &A = Pool[In.byte() % Pool.size()];
      Args.push_back(A.E);
      NArgs.push_back(A.N);
    }
    int64_t Value = 0;
    unsigned Sym = 0;
    if (K == Op::Const)
      Value = In.value();
    if (K == Op::Sym)
      Sym = In.byte() % NumSyms;
    if ((K == Op::Mul && tooBigToMultiply(Args[0], Args[1])) ||
        (K == Op::Shl && degree(Args[0]) > 64))
      continue;
    Pool.push_back({build(Exprs, K, Args, Value, Sym),
                    makeNaive(K, std::move(NArgs), Value, Sym)});
  }

  // FUZZ_EXPR_VERBOSE=1: the program, to read a saved input.
  static const bool Verbose = std::getenv("FUZZ_EXPR_VERBOSE") != nullptr;
  if (Verbose)
    for (size_t I = 0; I != Pool.size(); ++I)
      std::fprintf(stderr, "[%zu] %s\n    built as %s\n", I,
                   describe(Pool[I].E).c_str(), naiveStr(*Pool[I].N).c_str());

  // The invariants, entry by entry.
  std::map<const Expr::Node *, Expr> RefoldMemo;
  SymbolRanges Narrowed;
  bool HaveNarrowed = false;
  for (const Entry &En : Pool) {
    const Expr &E = En.E;
    if (E.treeSize() > MaxTreeSize || En.N->Size > MaxTreeSize)
      continue;
    std::string Str = E.str();
    std::string Where = Str + "  at  " + valuesOf(E, Values, R) +
                        "  built as  " + naiveStr(*En.N);

    // Folding is idempotent; == agrees with the hash.
    Expr Again = refold(E, RefoldMemo);
    CHECK(Again == E, "refolded: " + describe(Again) + "  from  " + Str);
    CHECK(!ExprBuilder::node(E).Table || Again.identity() == E.identity(),
          "refolded to another node: " + Str);
    CHECK(ExprBuilder::node(Again).Hash == ExprBuilder::node(E).Hash, Str);
    CHECK(Again.str() == Str, Str);

    // The polynomial view round-trips.
    CHECK(Expr::fromTerms(E.terms()) == E,
          describe(Expr::fromTerms(E.terms())) + "  from  " + Str);
    auto [Lane, Uniform] = E.splitLaneUniform();
    CHECK(Lane + Uniform == E, Str);
    CHECK(!Uniform.isLaneDependent(), Str);
    for (const Term &T : Lane.terms()) {
      bool LaneFactor = false;
      for (const Expr &F : T.Factors)
        LaneFactor |= F.isLaneDependent();
      CHECK(LaneFactor, "lane part " + describe(Lane) + " of " + Str);
    }
    int64_t G = E.coefficientGcd();
    for (const Term &T : E.terms())
      CHECK(G != 0 && (G == INT64_MIN ? T.Coeff == INT64_MIN
                                       : T.Coeff % G == 0),
            "gcd " + std::to_string(G) + " of " + Str);

    // Symbol bookkeeping.
    bool AnyLane = false, AnyIndirect = false;
    for (const Symbol &S : E.symbols()) {
      AnyLane |= S.isLaneDependent();
      AnyIndirect |= S.Kind == SymbolKind::IndirectValue;
    }
    CHECK(AnyLane == E.isLaneDependent(), Str);
    CHECK(AnyIndirect == E.isIndirect(), Str);

    // Evaluation: where the naive tree is defined without overflow, the
    // folded expression has the same value.
    Val NV = evalNaive(*En.N, Values);
    std::optional<int64_t> FV = E.evaluate(B);
    if (NV.St == Val::Ok && largestConstant(*En.N) <= MaxCheckedConstant) {
      CHECK(FV && *FV == NV.V,
            "evaluates to " + (FV ? std::to_string(*FV) : "undefined") +
                ", naive " + std::to_string(NV.V) + ": " + Where);
      // Substituting or replacing a symbol by its value changes nothing.
      // Both walk the tree form and fold again at every node: only on
      // small trees. The value becomes a constant: not beyond
      // MaxCheckedConstant (max(x, x + u) at u = INT64_MIN folds by the
      // wrapped difference -INT64_MIN). And only where the folded form
      // itself does not overflow: expanding 2x * (l - 2x) / 2x gives
      // -4x^2 + 2lx, which at x = l = -2^31 wraps although the product
      // does not, and the exact division folded after substituting x
      // ((-2^32 * l) / -2^32 --> l) then differs (fuzzing, 2026-12-03).
      bool Exact = evalExact(E, B).St == Val::Ok;
      for (const Symbol &S : E.symbols()) {
        if (!Exact || E.treeSize() > MaxSubstitutedTreeSize)
          break;
        unsigned I = 0;
        while (!(Syms[I] == S))
          ++I;
        if (magnitude(Values[I]) > MaxCheckedConstant)
          continue;
        Expr C = Expr::constant(Values[I]);
        std::optional<int64_t> SV = E.substitute({{S, C}}).evaluate(B);
        CHECK(SV && *SV == NV.V, "substitute " + S.Name + ": " + Where);
        std::optional<int64_t> RV = E.replace(Exprs.symbol(S), C).evaluate(B);
        CHECK(RV && *RV == NV.V, "replace " + S.Name + ": " + Where);
      }
      // Bounds contain the exact value.
      Interval I = boundsOf(E, R);
      CHECK(!Exact || contains(I, NV.V), "bounds " + I.str() + " miss " +
                                             std::to_string(NV.V) + ": " +
                                             Where);
      // A condition that holds keeps the values that make it hold. Its
      // differences (b - a for a < b) are folded again: constants near
      // 2^63 could wrap there.
      if (NV.V != 0 && !HaveNarrowed && Exact &&
          largestConstant(E) < (uint64_t(1) << 61)) {
        Narrowed = R;
        CHECK(narrowByCondition(E, Narrowed), "narrowed to never: " + Where);
        for (unsigned S = 0; S != NumSyms; ++S)
          CHECK(contains(Narrowed.lookup(Syms[S]), Values[S]),
                "narrowed " + Syms[S].Name + " to " +
                    Narrowed.lookup(Syms[S]).str() + ": " + Where);
        HaveNarrowed = true;
      }
      // A condition that holds here, for values the symbols' kinds allow,
      // is not shown to never hold.
      if (NV.V != 0 && Natural && Exact &&
          largestConstant(E) < (uint64_t(1) << 61) &&
          E.treeSize() <= MaxSubstitutedTreeSize)
        CHECK(!neverHolds(E), "never holds, yet holds: " + Where);
    }

    // linearCoefficient(): E(s = a) - E(s = b) == C * (a - b), wrapping.
    if (FV)
      for (const Symbol &S : E.symbols()) {
        std::optional<Expr> C = E.linearCoefficient(S);
        if (!C)
          continue;
        CHECK(!C->symbols().count(S), "coefficient of " + S.Name + ": " + Str);
        Bindings B2 = B;
        int64_t A = *B.lookup(S), Other = wrapAdd(A, 5);
        B2.set(S, Other);
        std::optional<int64_t> FV2 = E.evaluate(B2), CV = C->evaluate(B);
        CHECK(FV2 && CV, "linear in " + S.Name + " but undefined: " + Where);
        CHECK(wrapAdd(*FV, wrapNeg(*FV2)) == wrapMul(*CV, wrapAdd(A, wrapNeg(Other))),
              "coefficient " + describe(*C) + " of " + S.Name + ": " + Where);
      }
  }

  // Bounds over the narrowed ranges still contain the values.
  if (HaveNarrowed)
    for (const Entry &En : Pool) {
      if (En.E.treeSize() > MaxTreeSize || En.N->Size > MaxTreeSize)
        continue;
      Val NV = evalNaive(*En.N, Values);
      if (NV.St != Val::Ok || evalExact(En.E, B).St != Val::Ok ||
          largestConstant(*En.N) > MaxCheckedConstant)
        continue;
      Interval I = boundsOf(En.E, Narrowed);
      CHECK(contains(I, NV.V), "narrowed bounds " + I.str() + " miss " +
                                   std::to_string(NV.V) + ": " + En.E.str() +
                                   "  at  " + valuesOf(En.E, Values, R) +
                                   " narrowed: " +
                                   valuesOf(En.E, Values, Narrowed));
    }

  // == is consistent with operator< (a strict total order) and str().
  for (size_t I = 0; I < Pool.size(); ++I)
    for (size_t J = I; J < Pool.size() && J < I + 8; ++J) {
      const Expr &X = Pool[I].E, &Y = Pool[J].E;
      if (X.treeSize() > MaxTreeSize || Y.treeSize() > MaxTreeSize)
        continue;
      bool Eq = X == Y, Lt = X < Y, Gt = Y < X;
      CHECK(!(Lt && Gt), X.str() + " vs " + Y.str());
      CHECK(Eq == (!Lt && !Gt), X.str() + " vs " + Y.str());
      if (Eq) {
        CHECK(ExprBuilder::node(X).Hash == ExprBuilder::node(Y).Hash, X.str());
        CHECK(X.str() == Y.str(), X.str() + " vs " + Y.str());
      }
    }
  return 0;
}
