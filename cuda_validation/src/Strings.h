//===- Strings.h - Small string helpers of coalesce-verify ------*- C++ -*-===//
///
/// \file
/// Text helpers the report writers share.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_STRINGS_H
#define COALESCE_VERIFY_STRINGS_H

#include <string>
#include <vector>

namespace coalesce::verify {

/// \p Items separated by \p Separator ("a, b, c").
inline std::string joined(const std::vector<std::string> &Items,
                          const std::string &Separator = ", ") {
  std::string Out;
  for (const std::string &S : Items)
    Out += (Out.empty() ? "" : Separator) + S;
  return Out;
}

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_STRINGS_H
