#!/usr/bin/env bash
# The ground-truth replay of the 'half' set (replay.sh says what it does).
#
#   COALESCE_LINT=build/bin/coalesce-lint bash scripts/gpu-groundtruth/replay-half.sh [SUITES_DIR]
exec bash "$(dirname "$0")/replay.sh" half "$@"
