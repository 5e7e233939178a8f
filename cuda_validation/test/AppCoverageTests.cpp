//===- AppCoverageTests.cpp - Kernels that ran without predictions --------===//
//
// Application mode when the kernels a program runs have no rows in the
// manifest (AppCoverage.h, LintReport.h, compareLines' extra kernels), and
// when ncu profiles nothing (AppRunner.h). The ncu logs in test/data were
// recorded on an H200 (test/data/README); the end-to-end tests run
// coalesce-verify with a fake ncu that answers from those logs and from
// test/data/app/matrix-source.csv (examples/matrix.cu, profiled on an H200).
//
//===----------------------------------------------------------------------===//

#include "AppCoverage.h"
#include "AppRunner.h"
#include "Csv.h"
#include "LineComparison.h"
#include "LintReport.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace coalesce::verify;

namespace {

const std::string TestData = COALESCE_VERIFY_TEST_DATA_DIR;
const std::string AppData = COALESCE_VERIFY_APP_DATA_DIR;

ManifestAccess row(const std::string &Kernel, const std::string &File,
                   unsigned Line, const std::string &Rule = "-") {
  ManifestAccess A;
  A.Kernel = Kernel;
  A.File = File;
  A.Line = A.EndLine = Line;
  A.Op = "load";
  A.Base = "a";
  A.Expr = "a[i]";
  A.Rule = Rule;
  return A;
}

SassInstruction instruction(const std::string &Fn, const std::string &File,
                            unsigned Line, double Sectors, double Ideal,
                            double Requests = 100) {
  SassInstruction I;
  I.Function = Fn;
  I.File = File;
  I.Line = Line;
  I.Address = "0x" + std::to_string(Line);
  I.Op = MemOp::Load;
  I.Executed = Requests;
  I.Sectors = Sectors;
  I.IdealSectors = Ideal;
  return I;
}

/// A page with \p Instructions, one launch per function named there.
SourcePage page(std::vector<SassInstruction> Instructions) {
  SourcePage P;
  P.Instructions = std::move(Instructions);
  for (const SassInstruction &I : P.Instructions)
    P.Launches[I.Function] = 1;
  return P;
}

const UnpredictedKernel *named(const std::vector<UnpredictedKernel> &K,
                               const std::string &Name) {
  for (const UnpredictedKernel &U : K)
    if (U.Kernel == Name)
      return &U;
  return nullptr;
}

} // namespace

//===----------------------------------------------------------------------===//
// coalesce-lint's JSON report.
//===----------------------------------------------------------------------===//

TEST(LintReport, JsonValuesEscapesAndErrors) {
  JsonValue V;
  std::string Error;
  ASSERT_TRUE(parseJson(" {\"a\": [1, -2.5e1, true, false, null],\n"
                        "  \"s\": \"x\\\"\\n\\u00e9\\ud83d\\ude00\", "
                        "\"o\": {}} ",
                        V, Error))
      << Error;
  const JsonValue *A = V.get("a");
  ASSERT_TRUE(A && A->K == JsonValue::Kind::Array);
  ASSERT_EQ(A->Items.size(), 5u);
  EXPECT_EQ(A->Items[1].Number, -25);
  EXPECT_TRUE(A->Items[2].Bool);
  EXPECT_EQ(A->Items[4].K, JsonValue::Kind::Null);
  EXPECT_EQ(V.str("s"), "x\"\n\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(V.get("o")->K, JsonValue::Kind::Object);
  EXPECT_EQ(V.get("missing"), nullptr);
  EXPECT_EQ(V.num("s", 7), 7);
  for (const char *Bad : {"{\"a\": 1,}", "[1 2]", "\"open", "{} x", "",
                          "{\"a\" 1}", "[tru]"}) {
    Error.clear();
    EXPECT_FALSE(parseJson(Bad, V, Error)) << Bad;
    EXPECT_NE(Error.find("at byte"), std::string::npos) << Bad << ": " << Error;
  }
}

namespace {

/// A report in the shape coalesce-lint writes (docs/json-schema.md).
const char *SampleReport = R"({
  "tool": "coalesce-lint", "version": "0.1.0", "schema": 1,
  "files": [
    {"file": "src/app.cu", "analyzed": true, "errors": [], "fatal_error": null},
    {"file": "src/bad.cu", "analyzed": true, "errors": [
      {"file": "src/bad.h", "line": 2, "column": 1, "message": "unused", "in_kernel": false},
      {"file": "src/bad.cu", "line": 3, "column": 15,
       "message": "use of undeclared identifier 'undefined_thing'", "in_kernel": true}],
     "fatal_error": null},
    {"file": "gone.cu", "analyzed": false, "errors": [],
     "fatal_error": "cannot read gone.cu: No such file or directory"},
    {"file": "tmpl.cuh", "analyzed": true, "errors": [], "fatal_error": null,
     "uninstantiated_kernels": [{"name": "reduce", "file": "tmpl.cuh", "line": 4, "column": 1}]}
  ],
  "kernels": [
    {"name": "covered", "file": "src/app.cu", "line": 10, "instantiation": null,
     "accesses": [{"op": "load"}, {"op": "store"}]},
    {"name": "dropped", "file": "src/app.cu", "line": 40, "instantiation": null,
     "accesses": []},
    {"name": "empty_tmpl", "file": "src/app.cu", "line": 50,
     "instantiation": "empty_tmpl<float>", "accesses": []},
    {"name": "empty_tmpl", "file": "src/app.cu", "line": 50,
     "instantiation": "empty_tmpl<int>", "accesses": []}
  ],
  "findings": 0, "suppressed_findings": 0
})";

} // namespace

TEST(LintReport, FilesErrorsAndKernels) {
  LintReport R;
  std::string Error;
  ASSERT_TRUE(parseLintReport(SampleReport, R, Error)) << Error;
  ASSERT_EQ(R.Files.size(), 4u);
  EXPECT_EQ(R.Files[1].Errors.size(), 2u);
  EXPECT_TRUE(R.Files[1].Errors[1].InKernel);
  EXPECT_EQ(R.Files[1].Errors[1].Line, 3u);
  EXPECT_FALSE(R.Files[2].Analyzed);
  EXPECT_NE(R.Files[2].FatalError.find("cannot read"), std::string::npos);
  EXPECT_EQ(R.Files[3].Uninstantiated, std::vector<std::string>{"reduce"});
  ASSERT_EQ(R.Kernels.size(), 4u);
  EXPECT_EQ(R.Kernels[0].Accesses, 2u);
  EXPECT_EQ(R.Kernels[1].Accesses, 0u);
  EXPECT_EQ(R.Kernels[2].Instantiation, "empty_tmpl<float>");
  // Another tool's JSON is refused with a hint.
  EXPECT_FALSE(parseLintReport("{\"version\": 1, \"tool\": "
                               "\"coalesce-verify\"}",
                               R, Error));
  EXPECT_NE(Error.find("--format=json"), std::string::npos) << Error;
}

//===----------------------------------------------------------------------===//
// Kernels profiled without rows in the manifest, and why.
//===----------------------------------------------------------------------===//

TEST(AppCoverage, KernelsWithoutRowsAreNamedWithWhatTheManifestTells) {
  std::vector<ManifestAccess> M = {row("covered", "/src/app.cu", 12)};
  SourcePage P = page({
      instruction("covered", "/build/app.cu", 12, 400, 400),
      instruction("norows", "/build/app.cu", 30, 3200, 400),
      instruction("nofile", "/build/other.cu", 7, 3200, 400),
      instruction("void tmpl<float>(float *)", "/build/other.cu", 20, 400, 400),
      instruction("void tmpl<double>(double *)", "/build/other.cu", 20, 800,
                  800),
  });
  P.Launches["void tmpl<double>(double *)"] = 2;
  std::vector<UnpredictedKernel> U = findUnpredictedKernels(M, P, nullptr);
  ASSERT_EQ(U.size(), 3u);
  EXPECT_EQ(U[0].Kernel, "norows"); // Profile order.
  EXPECT_EQ(U[0].Reason, "no rows in the manifest");
  EXPECT_EQ(U[0].Files, std::vector<std::string>{"app.cu"});
  EXPECT_EQ(named(U, "nofile")->Reason,
            "other.cu is not in the manifest (not analyzed, failed to "
            "compile, or no access predicted there)");
  const UnpredictedKernel *T = named(U, "tmpl");
  ASSERT_NE(T, nullptr);
  EXPECT_EQ(T->ProfiledAs.size(), 2u);
  EXPECT_EQ(T->Launches, 3u);
  EXPECT_FALSE(nothingPredictedRan(U, P));
  // An empty manifest says so, and then nothing predicted ran.
  std::vector<UnpredictedKernel> All = findUnpredictedKernels({}, P, nullptr);
  EXPECT_EQ(All.size(), 4u);
  EXPECT_EQ(All[0].Reason, "the manifest has no rows at all");
  EXPECT_TRUE(nothingPredictedRan(All, P));
  EXPECT_FALSE(nothingPredictedRan(All, SourcePage()));
}

TEST(AppCoverage, TheLintReportSaysWhy) {
  LintReport R;
  std::string Error;
  ASSERT_TRUE(parseLintReport(SampleReport, R, Error)) << Error;
  std::vector<ManifestAccess> M = {row("covered", "src/app.cu", 12)};
  SourcePage P = page({
      instruction("covered", "/b/app.cu", 12, 400, 400),
      instruction("dropped", "/b/app.cu", 41, 3200, 400),
      instruction("void empty_tmpl<float>(float *)", "/b/app.cu", 51, 400,
                  400),
      instruction("broken", "/b/bad.cu", 3, 3200, 400),
      instruction("lost", "/b/gone.cu", 5, 400, 400),
      instruction("void reduce<256>(float *)", "/b/tmpl.cuh", 6, 400, 400),
      instruction("elsewhere", "/b/new.cu", 2, 400, 400),
      instruction("cleanfile", "/b/app.cu", 60, 400, 400),
  });
  std::vector<UnpredictedKernel> U = findUnpredictedKernels(M, P, &R);
  ASSERT_EQ(U.size(), 7u);
  EXPECT_EQ(named(U, "dropped")->Reason,
            "coalesce-lint's report lists it with no access (app.cu:40)");
  EXPECT_EQ(named(U, "empty_tmpl")->Reason,
            "coalesce-lint's report lists it with no access (app.cu:50, 2 "
            "instantiations)");
  EXPECT_EQ(named(U, "broken")->Reason,
            "not in coalesce-lint's report; bad.cu has 2 compile errors "
            "(first in a kernel: bad.cu:3: use of undeclared identifier "
            "'undefined_thing')");
  EXPECT_EQ(named(U, "lost")->Reason,
            "gone.cu was not analyzed: cannot read gone.cu: No such file or "
            "directory");
  EXPECT_NE(named(U, "reduce")->Reason.find("as a template tmpl.cuh never "
                                            "instantiates"),
            std::string::npos)
      << named(U, "reduce")->Reason;
  EXPECT_EQ(named(U, "elsewhere")->Reason,
            "new.cu is not among the files of coalesce-lint's report");
  EXPECT_EQ(named(U, "cleanfile")->Reason,
            "not in coalesce-lint's report, though app.cu was analyzed");
  // A kernel the report gives accesses the manifest lacks: two runs mixed.
  std::vector<UnpredictedKernel> Mixed =
      findUnpredictedKernels({row("dropped", "src/app.cu", 41)},
                             page({instruction("covered", "/b/app.cu", 12,
                                               400, 400)}),
                             &R);
  ASSERT_EQ(Mixed.size(), 1u);
  EXPECT_NE(Mixed[0].Reason.find("lists 2 accesses of it (app.cu:10) but the "
                                 "manifest has none"),
            std::string::npos)
      << Mixed[0].Reason;
}

// A kernel listed with no access gets the compile error inside a kernel
// that lies between its declaration and the next kernel of its file.
TEST(AppCoverage, ErrorInTheCodeOfAKernelWithoutAccesses) {
  LintReport R;
  R.Files.push_back({"a.cu", true, "", {}, {}});
  R.Files[0].Errors.push_back({"a.cu", 8, "outside any kernel", false});
  R.Files[0].Errors.push_back({"a.cu", 30, "in the next kernel", true});
  R.Kernels.push_back({"first", "a.cu", 10, "", 0});
  R.Kernels.push_back({"second", "a.cu", 25, "", 3});
  SourcePage P = page({instruction("first", "/b/a.cu", 12, 400, 400)});
  auto Reason = [&] {
    return findUnpredictedKernels({row("x", "a.cu", 1)}, P, &R)[0].Reason;
  };
  EXPECT_EQ(Reason(),
            "coalesce-lint's report lists it with no access (a.cu:10)");
  R.Files[0].Errors.push_back({"a.cu", 14, "no member named 'y'", true});
  EXPECT_EQ(Reason(), "coalesce-lint's report lists it with no access "
                      "(a.cu:10); a compile error follows its declaration "
                      "(a.cu:14: no member named 'y')");
}

TEST(AppCoverage, WastefulLinesOfKernelsWithoutRowsAreMissed) {
  // The manifest names app.cu only; "stray" ran in other.cu with a strided
  // load (32 sectors for an ideal of 4) and an atomic in a CUDA header.
  std::vector<ManifestAccess> M = {row("k", "/src/app.cu", 5,
                                       "coalesce-stride")};
  SassInstruction Header = instruction(
      "stray",
      "/usr/local/cuda/targets/x86_64-linux/include/sm_20_atomic_functions.hpp",
      90, 3200, 100);
  SourcePage P = page({
      instruction("k", "/b/app.cu", 5, 3200, 400),
      instruction("stray", "/b/other.cu", 7, 3200, 400),
      instruction("stray", "/b/other.cu", 8, 400, 400),
      Header,
      // A predicted kernel's code in a file the manifest does not name
      // still does not count.
      instruction("k", "/b/helper.cuh", 3, 3200, 400),
  });
  // Before: other.cu is no file of the manifest, its waste unseen.
  LineComparison Old = compareLines(M, P, LineCriteria());
  EXPECT_EQ(Old.Wasteful, 1u);
  EXPECT_EQ(Old.Recall, 1.0);
  std::vector<UnpredictedKernel> U = findUnpredictedKernels(M, P, nullptr);
  ASSERT_EQ(U.size(), 1u);
  EXPECT_EQ(U[0].Files, std::vector<std::string>{"other.cu"});
  LineComparison L = compareLines(M, P, LineCriteria(), unpredictedNames(U));
  countUnpredictedLines(U, L);
  EXPECT_EQ(L.Wasteful, 2u);
  EXPECT_EQ(L.Missed, 1u);
  EXPECT_EQ(L.TruePositives, 1u);
  EXPECT_EQ(L.Recall, 0.5);
  ASSERT_EQ(L.Lines.size(), 3u); // app.cu:5, other.cu:7 and :8.
  for (const LineResult &R : L.Lines) {
    EXPECT_NE(R.File, "helper.cuh");
    EXPECT_NE(R.File, "sm_20_atomic_functions.hpp");
    if (R.File == "other.cu" && R.Line == 7) {
      EXPECT_EQ(R.Verdict, "missed");
      EXPECT_EQ(R.Unpredicted, std::vector<std::string>{"stray"});
    }
  }
  EXPECT_EQ(U[0].MeasuredLines, 2u);
  EXPECT_EQ(U[0].WastefulLines, 1u);
  std::string Text = describeUnpredicted(U);
  EXPECT_EQ(Text, "1 kernel ran without predictions in the manifest, 1 "
                  "wasteful line counted as missed: stray (other.cu is not "
                  "in the manifest (not analyzed, failed to compile, or no "
                  "access predicted there))");
}

TEST(AppCoverage, ToolkitHeaders) {
  for (const char *P :
       {"/usr/local/cuda/targets/x86_64-linux/include/sm_20_atomic_functions.hpp",
        "/usr/local/cuda-12.4/include/cuda_fp16.hpp",
        "/opt/nvidia/hpc_sdk/Linux_x86_64/24.1/cuda/12.3/targets/x86_64-linux/"
        "include/cub/block/block_load.cuh",
        "cuda/include/crt/math_functions.hpp"})
    EXPECT_TRUE(isToolkitHeader(P)) << P;
  for (const char *P : {"/home/u/app/include/kernels.cuh", "/src/cuda_kernels.cu",
                        "/work/mycuda/src/include.cu", "matrix.cu"})
    EXPECT_FALSE(isToolkitHeader(P)) << P;
}

//===----------------------------------------------------------------------===//
// ncu profiling nothing.
//===----------------------------------------------------------------------===//

TEST(AppRunner, KernelsNcuListsWhenItProfiledNone) {
  std::string Matrix =
      readFile(TestData + "/ncu-matrix-no-manifest-kernel.log").value_or("");
  ASSERT_FALSE(Matrix.empty());
  EXPECT_TRUE(ncuProfiledNothing(Matrix));
  EXPECT_EQ(ncuAvailableKernels(Matrix),
            (std::vector<std::string>{"colSum", "rowSum", "scaleX",
                                      "shiftCopy", "transposeNaive",
                                      "transposeTiled"}));
  std::string Templates =
      readFile(TestData + "/ncu-instances-no-match.log").value_or("");
  EXPECT_EQ(ncuAvailableKernels(Templates),
            (std::vector<std::string>{"gather", "scale"}));
  std::string None = readFile(TestData + "/ncu-no-kernel.log").value_or("");
  EXPECT_TRUE(ncuProfiledNothing(None));
  EXPECT_TRUE(ncuAvailableKernels(None).empty());
  EXPECT_FALSE(ncuProfiledNothing("==PROF== Profiling \"k\": 100%\n"));
}

TEST(AppRunner, AllKernelsProfilesTheFirstLaunchOfEach) {
  AppOptions O;
  O.Command = "./app";
  O.Dir = "out";
  O.ManifestKernels = {"a", "b"};
  EXPECT_TRUE(appUsesManifestFilter(O));
  O.AllKernels = true;
  EXPECT_FALSE(appUsesManifestFilter(O));
  EXPECT_EQ(appStopAfter(O), 0u);
  std::string Line;
  for (const std::string &A : appProfileCommand("ncu", O))
    Line += A + " ";
  EXPECT_NE(Line.find("--kernel-id ::regex:.:1 --launch-count 100 -f"),
            std::string::npos)
      << Line;
  EXPECT_EQ(Line.find("--kill"), std::string::npos) << Line;
}

namespace {

/// Runs coalesce-verify --app under a fake ncu in a fresh directory.
class FakeNcu : public ::testing::Test {
protected:
  std::string Dir;

  void SetUp() override {
    char Template[] = "/tmp/coalesce-verify-fake-ncu-XXXXXX";
    ASSERT_NE(mkdtemp(Template), nullptr);
    Dir = Template;
    // Profiling: when the filter holds $FAKE_PROFILES, write the report and
    // say so for each of the export's six launches; else print $FAKE_LOG
    // (ncu's output when it profiled nothing) and write no report.
    // Exporting (-i): print the recorded source page.
    std::ofstream(Dir + "/ncu")
        << "#!/bin/sh\n"
           "echo \"$*\" >> \"$FAKE_DIR/calls.txt\"\n"
           "case \" $* \" in *\" -i \"*) cat \"$FAKE_EXPORT\"; exit 0;; esac\n"
           "out=; prev=\n"
           "for a in \"$@\"; do [ \"$prev\" = -o ] && out=$a; prev=$a; done\n"
           "case \"$*\" in *\"$FAKE_PROFILES\"*)\n"
           "  : > \"$out.ncu-rep\"\n"
           "  for k in 1 2 3 4 5 6; do echo \"==PROF== Profiling \\\"k\\\"\"; "
           "done\n"
           "  exit 0;;\n"
           "esac\n"
           "cat \"$FAKE_LOG\"\n"
           "exit 0\n";
    chmod((Dir + "/ncu").c_str(), 0755);
    // A manifest whose only kernel the program never launches.
    std::ofstream(Dir + "/m.tsv")
        << "id\tkernel\tfile\tline\top\tpredicted\tideal\trule\n"
           "0\tnotRun\tmatrix.cu\t99\tload\t4\t4\t-\n";
  }
  void TearDown() override { std::system(("rm -rf " + Dir).c_str()); }

  /// Runs coalesce-verify with \p Args, ncu answering with \p Log; returns
  /// the exit code, stdout and stderr in \p Out.
  int run(const std::string &Args, const std::string &Log, std::string &Out) {
    std::string Cmd =
        "FAKE_DIR=" + Dir + " FAKE_EXPORT=" + AppData +
        "/matrix-source.csv FAKE_PROFILES='(colSum|rowSum|scaleX|shiftCopy|"
        "transposeNaive|transposeTiled)' FAKE_LOG=" + Log + " " +
        COALESCE_VERIFY_EXE + " --ncu " + Dir + "/ncu --app ./matrix " +
        "--manifest " + Dir + "/m.tsv --json " + Dir + "/r.json " + Args +
        " " + Dir + "/out > " + Dir + "/out.txt 2>&1";
    int Rc = std::system(Cmd.c_str());
    Out = readFile(Dir + "/out.txt").value_or("");
    return WIFEXITED(Rc) ? WEXITSTATUS(Rc) : -1;
  }
};

} // namespace

// The manifest's kernels were not launched (ncu: "No kernels were
// profiled", exit 0, no report): before, "ncu (profiling `./matrix`) failed
// (exit 0)" and exit 4. Now the kernels ncu lists are profiled, named as
// kernels without predictions, and their waste counted as missed.
TEST_F(FakeNcu, ManifestKernelsNotLaunchedProfilesThoseThatWere) {
  std::string Out;
  int Rc = run("", TestData + "/ncu-matrix-no-manifest-kernel.log", Out);
  EXPECT_EQ(Rc, 6) << Out;
  EXPECT_EQ(Out.find("failed (exit 0)"), std::string::npos) << Out;
  EXPECT_NE(Out.find("none of the manifest's kernels (notRun) was launched "
                     "by `./matrix`; profiled instead the first launch of "
                     "each kernel it launched: colSum, rowSum, scaleX, "
                     "shiftCopy, transposeNaive, transposeTiled"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("  rowSum  1 launch, matrix.cu, 1 of 2 measured lines "
                     "wasteful: no rows in the manifest"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("matrix.cu:37  missed  32.00/4.00  32768 requests  "
                     "excess 28 MiB  kernel without predictions: rowSum"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("3 wasteful, 0 flagged and measured, 0 true positives, "
                     "0 false alarms, 3 missed"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("error: no access compared: 6 kernels ran without "
                     "predictions in the manifest, 3 wasteful lines counted "
                     "as missed"),
            std::string::npos)
      << Out;
  // The second profile selects the kernels that ran, then stops.
  std::string Calls = readFile(Dir + "/calls.txt").value_or("");
  EXPECT_NE(Calls.find("(colSum|rowSum|scaleX|shiftCopy|transposeNaive|"
                       "transposeTiled)([^A-Za-z0-9_]|$):1 --launch-count 6 "
                       "--kill yes"),
            std::string::npos)
      << Calls;
  std::string Json = readFile(Dir + "/r.json").value_or("");
  EXPECT_NE(Json.find("\"exit_code\": 6"), std::string::npos) << Json;
  EXPECT_NE(Json.find("{\"kernel\": \"rowSum\", \"profiled_as\": [\"rowSum\"], "
                      "\"launches\": 1, \"files\": [\"matrix.cu\"], "
                      "\"measured_lines\": 2, \"wasteful_lines\": 1, "
                      "\"reason\": \"no rows in the manifest\"}"),
            std::string::npos)
      << Json;
  EXPECT_NE(Json.find("\"missed\": 3"), std::string::npos) << Json;
}

// Nothing profiled and nothing to profile instead: exit 6 with why, never
// "failed (exit 0)".
TEST_F(FakeNcu, NothingProfiledSaysWhy) {
  std::string Out;
  EXPECT_EQ(run("", TestData + "/ncu-no-kernel.log", Out), 6) << Out;
  EXPECT_NE(Out.find("ncu profiled no kernel: `./matrix` launched no CUDA "
                     "kernel under it (ncu: \"No kernels were profiled\""),
            std::string::npos)
      << Out;
  EXPECT_EQ(Out.find("failed (exit 0)"), std::string::npos) << Out;
  EXPECT_NE(readFile(Dir + "/r.json").value_or("").find("\"exit_code\": 6"),
            std::string::npos);
  // --kernel selects none of the kernels the program launched.
  EXPECT_EQ(run("--kernel zzz",
                TestData + "/ncu-matrix-no-manifest-kernel.log", Out),
            6)
      << Out;
  EXPECT_NE(Out.find("`./matrix` launched colSum, rowSum, scaleX, shiftCopy, "
                     "transposeNaive, transposeTiled, none of which matches "
                     "--kernel 'zzz'"),
            std::string::npos)
      << Out;
  // ncu exits 0 without a report and without saying why: a profiler
  // problem (exit 4), worded as such.
  std::ofstream(Dir + "/silent.log") << "==PROF== Connected to process 1\n";
  EXPECT_EQ(run("", Dir + "/silent.log", Out), 4) << Out;
  EXPECT_NE(Out.find("ncu (profiling `./matrix`) exited 0 without writing a "
                     "report"),
            std::string::npos)
      << Out;
  EXPECT_EQ(Out.find("failed (exit 0)"), std::string::npos) << Out;
}

// With coalesce-lint's report, its kernels without rows join the filter
// (their waste is measured without --all-kernels), and files whose kernels
// it may not list are named with the way out.
TEST_F(FakeNcu, LintReportKernelsJoinTheFilter) {
  std::ofstream(Dir + "/r-lint.json")
      << R"({"tool": "coalesce-lint", "schema": 1,
  "files": [{"file": "matrix.cu", "analyzed": true, "fatal_error": null,
    "errors": [{"file": "matrix.cu", "line": 33, "message": "unknown type name 'undefined_t'", "in_kernel": true}]}],
  "kernels": [{"name": "notRun", "file": "matrix.cu", "line": 98, "accesses": [{}]},
              {"name": "transposeNaive", "file": "matrix.cu", "line": 11, "accesses": []}]})";
  std::string Out;
  int Rc = run("--lint-report " + Dir + "/r-lint.json",
               TestData + "/ncu-matrix-no-manifest-kernel.log", Out);
  EXPECT_EQ(Rc, 6) << Out;
  std::string Calls = readFile(Dir + "/calls.txt").value_or("");
  EXPECT_NE(Calls.find("(notRun|transposeNaive)([^A-Za-z0-9_]|$):1 "
                       "--launch-count 2 --kill yes"),
            std::string::npos)
      << Calls;
  EXPECT_NE(Out.find("note: coalesce-lint's report has files with compile "
                     "errors, not analyzed or with templates never "
                     "instantiated (matrix.cu): kernels it does not list are "
                     "not profiled with the listed kernels as filter; "
                     "--all-kernels profiles the first launch of every "
                     "kernel"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("  transposeNaive  1 launch, matrix.cu, 1 of 1 measured "
                     "lines wasteful: coalesce-lint's report lists it with no "
                     "access (matrix.cu:11)"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("  rowSum  1 launch, matrix.cu, 1 of 2 measured lines "
                     "wasteful: not in coalesce-lint's report; matrix.cu has "
                     "1 compile error (first in a kernel: matrix.cu:33: "
                     "unknown type name 'undefined_t')"),
            std::string::npos)
      << Out;
  // --all-kernels: one profile of every kernel's first launch, no stop.
  std::system(("rm -f " + Dir + "/calls.txt").c_str());
  run("--all-kernels", TestData + "/ncu-matrix-no-manifest-kernel.log", Out);
  Calls = readFile(Dir + "/calls.txt").value_or("");
  EXPECT_NE(Calls.find("--kernel-id ::regex:.:1 --launch-count 100 -f"),
            std::string::npos)
      << Calls;
}
