//===- ProbeSliceTest.cpp - The statements a loop's probe passes need -----===//

#include "frontend/ProbeSlice.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

using namespace clang;

namespace coalesce {
namespace frontend {
namespace {

/// Parses \p Code (C++) and finds function \p Fn, the body of its first
/// loop and its variables by name.
class Fixture {
public:
  Fixture(llvm::StringRef Code, llvm::StringRef Fn)
      : AST(tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17"})) {
    struct Finder : RecursiveASTVisitor<Finder> {
      llvm::StringRef Fn;
      const FunctionDecl *F = nullptr;
      const CompoundStmt *Body = nullptr;
      std::map<std::string, const ValueDecl *> Vars;
      bool Inside = false;
      bool within(FunctionDecl *FD, llvm::function_ref<bool()> Traverse) {
        if (FD->getName() != Fn || !FD->hasBody())
          return true;
        F = FD;
        Inside = true;
        bool R = Traverse();
        Inside = false;
        return R;
      }
      bool TraverseFunctionDecl(FunctionDecl *FD) {
        return within(
            FD, [&] { return RecursiveASTVisitor::TraverseFunctionDecl(FD); });
      }
      bool TraverseCXXMethodDecl(CXXMethodDecl *MD) {
        return within(
            MD, [&] { return RecursiveASTVisitor::TraverseCXXMethodDecl(MD); });
      }
      bool VisitForStmt(ForStmt *S) {
        if (Inside && !Body)
          Body = dyn_cast<CompoundStmt>(S->getBody());
        return true;
      }
      bool VisitVarDecl(VarDecl *VD) {
        if (Inside)
          Vars[VD->getName().str()] = VD;
        return true;
      }
    } Find;
    Find.Fn = Fn;
    Find.TraverseDecl(AST->getASTContext().getTranslationUnitDecl());
    EXPECT_TRUE(Find.F) << Fn.str();
    F = Find.F;
    Body = Find.Body;
    Vars = std::move(Find.Vars);
  }

  const ValueDecl *var(const std::string &Name) const {
    auto It = Vars.find(Name);
    EXPECT_NE(It, Vars.end()) << Name;
    return It == Vars.end() ? nullptr : It->second;
  }
  /// The statements of the loop's body a pass walks when \p Needed must
  /// come out right: "1" walked, "0" skipped, "all" when none is skipped.
  std::string slice(std::initializer_list<const char *> Needed) const {
    if (!Body)
      return "no loop";
    llvm::SmallPtrSet<const ValueDecl *, 8> Set;
    for (const char *N : Needed)
      Set.insert(var(N));
    std::optional<llvm::BitVector> Walk =
        probeSlice(statementEffects(Body), std::move(Set));
    if (!Walk)
      return "all";
    std::string S;
    for (unsigned I = 0; I < Walk->size(); ++I)
      S += (*Walk)[I] ? '1' : '0';
    return S;
  }

  std::unique_ptr<ASTUnit> AST;
  const FunctionDecl *F = nullptr;
  const CompoundStmt *Body = nullptr;
  std::map<std::string, const ValueDecl *> Vars;
};

TEST(ProbeSliceTest, SkipsWhatCannotReachTheCarriedSlots) {
  Fixture X(R"(
    void f(int n, int *out) {
      int carried = 0;
      for (int r = 0; r < n; ++r) {
        int a = r * 2;
        carried += a;
        int b = r * 3;
        out[b] = b;
      }
    })",
            "f");
  // `carried` needs `a`, which needs `r`; `b` and the store feed nothing.
  EXPECT_EQ(X.slice({"carried", "r", "n"}), "1100");
  std::vector<StatementEffects> E = statementEffects(X.Body);
  ASSERT_EQ(E.size(), 4u);
  EXPECT_FALSE(E[2].MayStore);
  EXPECT_TRUE(E[3].MayStore); // Through a pointer: memory.
  EXPECT_TRUE(E[3].Writes.empty());
  EXPECT_TRUE(E[0].Writes.count(X.var("a")));
  // Needing the store's index walks what computes it, not the store.
  EXPECT_EQ(X.slice({"b"}), "0010");
  // A store writes memory, never a slot: no pass needs it for a slot.
  EXPECT_EQ(X.slice({"carried", "b", "out", "r"}), "1110");
}

TEST(ProbeSliceTest, JumpsAndHiddenStateAreAlwaysWalked) {
  Fixture X(R"(
    void g();
    void h(int *p) { *p = 1; }
    [[noreturn]] void die();
    void f(int n, int *out) {
      int c = 0;
      for (int r = 0; r < n; ++r) {
        if (r == 3) break;
        for (int k = 0; k < 4; ++k) { if (k) break; out[k] = k; }
        if (r == 5) continue;
        if (r == 6) die();
        g();
        if (r == 7) return;
        h(out);
      }
    })",
            "f");
  // The nested loop's own break ends that loop only.
  EXPECT_EQ(X.slice({}), "1011010");
  std::vector<StatementEffects> E = statementEffects(X.Body);
  ASSERT_EQ(E.size(), 7u);
  EXPECT_TRUE(E[1].MayStore);
  // A function the walker cannot enter, handed nothing, stores nothing it
  // sees; one it enters may store through what it is handed.
  EXPECT_FALSE(E[4].MayStore);
  EXPECT_TRUE(E[6].MayStore);

  Fixture M(R"(
    struct S { int i; void run(); };
    void S::run() {
      int c = 0;
      for (int r = 0; r < 4; ++r) {
        c += r;
        i += 1;
      }
    })",
            "run");
  // A member of `this` is state no local names.
  EXPECT_EQ(M.slice({}), "01");
  Fixture B(R"(
    struct P { int a, b; };
    void f(int n) {
      int c = 0;
      for (int r = 0; r < n; ++r) {
        auto [x, y] = P{r, n};
        c += x;
      }
    })",
            "f");
  // A structured binding is part of the variable its declaration makes.
  EXPECT_EQ(B.slice({"c"}), "all");
  EXPECT_EQ(B.slice({}), "00");
  EXPECT_EQ(M.slice({"c"}), "all");
}

TEST(ProbeSliceTest, CallsChangeWhatTheyAreHanded) {
  Fixture X(R"(
    struct Loader { int cur; void flip(); int now() const; };
    void bump(int &v);
    void read(const int &v, int w);
    void fill(float *p);
    void f(int n) {
      Loader l;
      int c = 0;
      float buf[4];
      for (int r = 0; r < n; ++r) {
        l.flip();
        int x = l.now();
        bump(c);
        read(c, r);
        buf[r] = 1.0f;
      }
    })",
            "f");
  std::vector<StatementEffects> E = statementEffects(X.Body);
  ASSERT_EQ(E.size(), 5u);
  EXPECT_TRUE(E[0].Writes.count(X.var("l")));   // Non-const method.
  EXPECT_FALSE(E[1].Writes.count(X.var("l")));  // Const method.
  EXPECT_TRUE(E[2].Writes.count(X.var("c")));   // Non-const reference.
  EXPECT_FALSE(E[3].Writes.count(X.var("c")));  // Const reference.
  EXPECT_TRUE(E[4].Writes.count(X.var("buf"))); // A local array's element.
  EXPECT_FALSE(E[4].MayStore);
  EXPECT_EQ(X.slice({"l"}), "10000");
  EXPECT_EQ(X.slice({"c"}), "00100");
  EXPECT_FALSE(hasAliasedLocals(X.F));
}

TEST(ProbeSliceTest, LocalsReachedByOtherNamesStopTheSlice) {
  auto Aliased = [](llvm::StringRef Body) {
    std::string Code =
        ("void use(float *); void f(int n) {" + Body + "}").str();
    Fixture X(Code + " void loop() { for (int i = 0; i < 1; ++i) {} }", "f");
    return hasAliasedLocals(X.F);
  };
  EXPECT_TRUE(Aliased("int x = 0; int *p = &x;"));
  EXPECT_TRUE(Aliased("float v[4]; use(v);"));
  EXPECT_TRUE(Aliased("int x = 0; int &r = x; r = n;"));
  EXPECT_TRUE(Aliased("int x = 0; auto g = [&] { x = n; }; g();"));
  EXPECT_FALSE(Aliased("float v[4]; v[n] = 1.0f; int x = n; x += 2;"));
  EXPECT_FALSE(Aliased("int x = n; auto g = [=] { return x; }; g();"));
}

} // namespace
} // namespace frontend
} // namespace coalesce
