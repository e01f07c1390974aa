#!/usr/bin/env bash
# Run the whole test suite N times, as CI does, on a clean clone, and count green and red runs.
#
#   benchmarks/suite_runs.sh [--runs N] [--busy] [--repo PATH] [--rev REV] [--venv PATH]
#                            [--out DIR] [-- PYTEST ARGS...]
#
#   --runs N     how many consecutive runs (default 10)
#   --busy       keep one core busy the whole time (a CPU-burning process pinned to core 0), as on
#                a shared CI machine
#   --repo PATH  the repository to clone (default: the one this script is in)
#   --rev REV    what to check out in the clone (default: the repository's HEAD)
#   --venv PATH  reuse an installed virtualenv instead of the clone's own .venv (which the first
#                run creates: pip install takes a few minutes, not counted in pytest's time). The
#                clone's code is what gets imported (PYTHONPATH), and the venv's install stamp is
#                touched so that scripts/test does not re-point its editable install at the clone
#   --out DIR    where the logs and the summary go (default: a new folder under /tmp)
#   after --      extra pytest arguments (default: --durations=10)
#
# The repository is cloned once (git clone), and before every run the clone is reset to a clean
# checkout of REV (git clean -xdf, keeping only .venv), then `CI=true bash .ci/run` runs in it.
# TEST_DATABASE_URL / TEST_REDIS_URL are passed through (scripts/test's defaults otherwise), so
# runs on a machine shared with other test runs can use databases of their own.
# Prints one line per run (result, pytest's passed/failed counts and seconds, the collected/run
# count of tests/conftest.py, wall seconds) and a summary; exits 0 only if every run was green.
set -uo pipefail

runs=10 busy=0 rev="" venv="" out=""
repo="$(cd "$(dirname "$0")/.." && pwd)"
pytest_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --busy) busy=1; shift ;;
    --repo) repo="$2"; shift 2 ;;
    --rev) rev="$2"; shift 2 ;;
    --venv) venv="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --) shift; pytest_args=("$@"); break ;;
    -h|--help) awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#pytest_args[@]} -eq 0 ] && pytest_args=(--durations=10)
out="${out:-$(mktemp -d /tmp/coinlab-suite-runs.XXXXXX)}"
mkdir -p "$out"
clone="$out/clone"
summary="$out/summary.txt"

burner=""
cleanup() {
  if [ -n "$burner" ]; then kill "$burner" 2>/dev/null; wait "$burner" 2>/dev/null; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ ! -d "$clone/.git" ]; then
  git clone -q "$repo" "$clone" || exit 1
fi
rev="${rev:-$(git -C "$repo" rev-parse HEAD)}"
git -C "$clone" fetch -q "$repo" "$rev" 2>/dev/null || true
git -C "$clone" checkout -q --detach "$rev" || exit 1
commit="$(git -C "$clone" rev-parse --short HEAD)"

if [ "$busy" = 1 ]; then
  # one core's worth of pure CPU work for the whole time, pinned to core 0 where taskset exists
  pin=(); command -v taskset >/dev/null && pin=(taskset -c 0)
  "${pin[@]}" sh -c 'while :; do :; done' &
  burner=$!
fi

busy_text=no
[ "$busy" = 1 ] && busy_text="yes, burner pid $burner"
{
  echo "suite runs: $runs x CI=true bash .ci/run ${pytest_args[*]}"
  echo "clone of $repo at $commit in $clone; busy machine: $busy_text"
  echo "venv: ${venv:-the .venv of the clone}; database: ${TEST_DATABASE_URL:-default of scripts/test}; redis: ${TEST_REDIS_URL:-default of scripts/test}"
  echo "started $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$summary"

green=0 red=0
for i in $(seq 1 "$runs"); do
  git -C "$clone" reset -q --hard "$rev"
  git -C "$clone" clean -q -xdf -e .venv
  log="$out/run-$i.log"
  start=$(date +%s)
  load="$(cut -d' ' -f1 /proc/loadavg)"
  if [ -n "$venv" ]; then
    touch "$venv/.coinlab-installed"
    (cd "$clone" && CI=true COINLAB_VENV="$venv" PYTHONPATH="$clone" bash .ci/run "${pytest_args[@]}") \
      </dev/null >"$log" 2>&1
  else
    (cd "$clone" && CI=true bash .ci/run "${pytest_args[@]}") </dev/null >"$log" 2>&1
  fi
  rc=$?
  wall=$(( $(date +%s) - start ))
  # pytest's last line, e.g. "==== 2 failed, 1187 passed in 393.21s (0:06:33) ====" (-q: no "=")
  last="$(grep -E '^=* ?[0-9]+ (passed|failed|error).* in [0-9.]+s' "$log" | tail -1 | tr -d '=' | sed 's/^ *//; s/ *$//')"
  # tests/conftest.py's count, "tests: N collected, N deselected, N to run, N reported": a collected
  # test that never ran makes pytest exit 1, and the run is red
  counted="$(grep -E '^tests: [0-9]+ collected' "$log" | tail -1 | sed 's/^tests: //')"
  if [ $rc -eq 0 ]; then green=$((green + 1)); result=green; else red=$((red + 1)); result="red (exit $rc)"; fi
  printf 'run %d/%d: %s; %s; %s; wall %ds; load average at start %s; log %s\n' \
    "$i" "$runs" "$result" "${last:-no pytest summary}" "${counted:-no test count}" "$wall" "$load" "$log" \
    | tee -a "$summary"
  grep -E 'collected tests were never run' "$log" | sed 's/^/    /' | tee -a "$summary"
  grep -E '^(FAILED|ERROR) ' "$log" | sed 's/^/    /' | tee -a "$summary"
  # a red run's screenshots and traces, kept before the next run cleans the clone
  if [ $rc -ne 0 ] && [ -d "$clone/test-artifacts" ]; then
    cp -r "$clone/test-artifacts" "$out/artifacts-run-$i"
    echo "    artifacts: $out/artifacts-run-$i" | tee -a "$summary"
  fi
done
echo "done $(date -u +%FT%TZ): $green green, $red red of $runs runs at $commit" | tee -a "$summary"
[ $red -eq 0 ]
