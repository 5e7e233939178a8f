//===- KernelName.h - Kernel names as ncu and clang spell them --*- C++ -*-===//
///
/// \file
/// Application mode tells template instantiations apart by name. The same
/// instantiation is spelled differently on the two sides:
///
///   ncu (--print-kernel-base demangled, NVIDIA's demangler):
///     void reduce6<float, (unsigned int)256, (bool)1>(T1 *, T1 *, unsigned
///     int) void <unnamed>::k<(Mode)1>(float *)
///   coalesce-lint's manifest (clang's printing policy), column "instance":
///     reduce6<float, 256U, true>
///     k<Mode::B>
///
/// parseKernelSignature() reduces both to an unqualified name and a list of
/// template arguments in one canonical spelling (integer literals without
/// casts or suffixes, bools as true/false, characters as their code, blanks
/// only between words), and compareInstances() says whether they name the
/// same instantiation.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_KERNELNAME_H
#define COALESCE_VERIFY_KERNELNAME_H

#include <string>
#include <vector>

namespace coalesce::verify {

/// A kernel name split into its parts.
struct KernelSignature {
  std::string Name;              ///< Unqualified ("reduce6").
  bool Template = false;         ///< It has a template argument list.
  std::vector<std::string> Args; ///< Canonical template arguments.
};

/// Parses a kernel name as ncu exports it (with or without a return type,
/// qualification and parameter list) or as the manifest's instance column
/// holds it. A mangled name ("_Z...") is kept whole as the name.
KernelSignature parseKernelSignature(const std::string &Spelling);

/// One template argument in canonical spelling: "(unsigned int)256", "256U"
/// and "256u" give "256"; "(bool)1" and "true" give "true"; "'x'" and
/// "(char)120" give "120"; "const float *" gives "const float*"; nested
/// template arguments are canonicalized too.
std::string canonicalTemplateArgument(const std::string &Arg);

/// How a profiled kernel relates to an analyzed instance.
enum class InstanceRelation {
  Same,       ///< Same name, same canonical arguments.
  Compatible, ///< Same name and arity; the arguments that differ cannot be
              ///< compared (ncu's "(Mode)1" against clang's "Mode::B").
  Different,
};

/// Compares a profiled kernel \p Profiled with an analyzed instance
/// \p Analyzed (both from parseKernelSignature).
InstanceRelation compareInstances(const KernelSignature &Profiled,
                                  const KernelSignature &Analyzed);

/// The unqualified kernel name of \p Spelling ("void ns::k<int>(int *)" ->
/// "k"); the key by which profiled and analyzed kernels are paired.
std::string unqualifiedKernelName(const std::string &Spelling);

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_KERNELNAME_H
