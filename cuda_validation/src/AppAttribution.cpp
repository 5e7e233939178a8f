//===- AppAttribution.cpp - Attribution per instance and launch -----------===//

#include "AppAttribution.h"

namespace coalesce::verify {

Attribution attributeUnits(const ProfileSplit &Split,
                           const std::vector<ManifestAccess> &Accesses,
                           double Tolerance) {
  Attribution Out;
  for (const ProfileUnit &U : Split.Units) {
    std::vector<ManifestAccess> Mine;
    for (size_t I : U.Accesses)
      Mine.push_back(Accesses[I]);
    AttributionInput In;
    In.Accesses = &Mine;
    In.Source = &U.Page;
    In.Tolerance = Tolerance;
    Attribution A = attribute(In);
    for (AccessResult &R : A.Results) {
      R.Instance = R.Access.Instance;
      R.ProfiledAs = U.ProfiledAs;
      R.Launch = U.Launch;
      R.Launches = U.Launches;
      if (U.Merged)
        R.Note = "instantiations and launches measured together (see the "
                 "note on " +
                 U.Kernel + ")" + (R.Note.empty() ? "" : "; " + R.Note);
      else if (!U.Note.empty() && R.Result == Verdict::NotProfiled)
        R.Note = U.Note;
      Out.Results.push_back(std::move(R));
    }
    for (UnattributedInstruction &I : A.Unattributed) {
      I.Instruction.Function = U.ProfiledAs;
      I.Instruction.Launch = U.Launch;
      Out.Unattributed.push_back(std::move(I));
    }
  }
  return Out;
}

} // namespace coalesce::verify
