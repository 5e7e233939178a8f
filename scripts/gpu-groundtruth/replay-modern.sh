#!/usr/bin/env bash
# The ground-truth replay of the 'modern' set (replay.sh says what it does).
#
#   COALESCE_LINT=build/bin/coalesce-lint bash scripts/gpu-groundtruth/replay-modern.sh [SUITES_DIR]
exec bash "$(dirname "$0")/replay.sh" modern "$@"
