#!/usr/bin/env bash
# Check out the third-party CUDA suites measured in docs/real-code.md, at the
# commits recorded there, into DEST (default /work/.suites; keep it outside
# this repository: their sources are never committed here).
#
#   scripts/real-code/checkout-suites.sh [DEST]
#
# Each suite is cloned from GitHub (or taken from an existing bare git dir
# given as MIRROR_<name>=DIR, e.g. MIRROR_rodinia=/path/repo.git) and its
# source and build files are written to DEST/NAME; blobs missing from a
# partial mirror (large data files) are skipped. DEST/NAME/.suite-commit
# records the commit, which run-suite.sh copies into its meta.tsv.
set -euo pipefail

dest=${1:-/work/.suites}
mkdir -p "$dest"

# name  github repo  commit
suites=(
  "cuda-samples  NVIDIA/cuda-samples        c94ff366aed18c797b8a85dfaac7817b0228b420"
  "parboil       abduld/Parboil             a4c63da28f45699e9a274cbc49af3e067162aa2b"
  "polybench-acc cavazos-lab/PolyBench-ACC  70ea4ca9047dc4ec9c3ca79b4c91b3b2cc1510e7"
  "rodinia       yuhc/gpu-rodinia           9c10d3ea16ddba2ba057cc3951a9efc4c2cc18a4"
  "shoc          vetter/shoc                0aea03beba2f09fcb5935cc11737372fe4de9ec0"
  "thrust        NVIDIA/thrust              756c5afc0750f1413da05bd2b6505180e84c53d4"
)

for s in "${suites[@]}"; do
  read -r name gh commit <<<"$s"
  var="MIRROR_${name//-/_}"
  gitdir=${!var:-}
  if [ -z "$gitdir" ]; then
    gitdir="$dest/.git-$name"
    if [ ! -d "$gitdir" ]; then
      git clone --bare --filter=blob:limit=1m "https://github.com/$gh.git" "$gitdir"
    fi
  fi
  git --git-dir="$gitdir" cat-file -e "$commit^{commit}" ||
    { echo "checkout-suites: $gh: commit $commit not in $gitdir" >&2; exit 1; }
  rm -rf "${dest:?}/$name"
  mkdir -p "$dest/$name"
  git --git-dir="$gitdir" ls-tree -r "$commit" |
    grep -E $'\t''(.*/)?([^/]*\.(cu|cuh|h|hpp|hxx|c|cc|cpp|inl|inc|def|cmake|mk|txt|md)|Makefile[^/]*)$' |
    while IFS=$'\t' read -r meta path; do
      read -r _ type sha <<<"$meta"
      [ "$type" = blob ] || continue
      git --git-dir="$gitdir" cat-file -e "$sha" 2>/dev/null || continue
      mkdir -p "$dest/$name/$(dirname "$path")"
      git --git-dir="$gitdir" cat-file blob "$sha" >"$dest/$name/$path"
    done
  echo "$commit $gh" >"$dest/$name/.suite-commit"
  echo "checkout-suites: $name ($gh@${commit:0:12}): $(find "$dest/$name" -name '*.cu' | wc -l) .cu files" >&2
done
