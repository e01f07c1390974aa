#!/usr/bin/env bash
# Peru engine speed, this tree against another commit, side by side in one run (issue 13 "Keep").
#
#   benchmarks/peru_compare.sh [COMMIT] [GAMES]     (defaults: 4362cb9, 200)
#
# The other commit's engine/ and benchmarks/ are unpacked with `git archive` under /tmp (no
# worktree is registered); each side runs twice, alternating, so both meet the same load. The
# figures are CPU time of each process (benchmarks/peru_bench.py).
set -euo pipefail
cd "$(dirname "$0")/.."
COMMIT="${1:-4362cb9}"
GAMES="${2:-200}"
PY="${COINLAB_VENV:-.venv}/bin/python"
BASE="/tmp/coinlab-peru-bench-$COMMIT"
rm -rf "$BASE" && mkdir -p "$BASE"
git archive "$COMMIT" engine benchmarks | tar -x -C "$BASE"
for round in 1 2; do
  for side in this "$COMMIT"; do
    if [ "$side" = this ]; then root="$PWD"; else root="$BASE"; fi
    out=$(PYTHONPATH="$root" "$PY" "$root/benchmarks/peru_bench.py" --games "$GAMES" --json)
    echo "$out" | "$PY" -c "import json,sys; d=json.load(sys.stdin); print('round $round', '$side'.ljust(8), \
'choices/s with prompts', d['choices_per_s_with_prompts'], ' replay choices/s', d['replay_choices_per_s'], \
' games', d['games'], ' choices', d['choices'], ' load', d['load_average_1min'])"
  done
done
rm -rf "$BASE"
