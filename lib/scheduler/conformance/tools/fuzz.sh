#!/usr/bin/env bash
# Differential fuzzing: our engine vs. real Nova on fresh random scenarios.
#
#   lib/scheduler/conformance/tools/fuzz.sh N SEED [HARD_RATIO]   generate N scenarios with
#        SEED (hard-mode share HARD_RATIO, default 0.3), run Nova's reference
#        on them (2 processes, ~1 s each), run our CLI, compare.
#   lib/scheduler/conformance/tools/fuzz.sh DIR                   compare an existing
#        directory of X.scenario.json + X.expected.json (e.g. the committed
#        corpus lib/scheduler/conformance/fixtures) without re-running Nova.
#
# Disagreeing scenarios are copied (scenario, expected, our actual result and
# the compare.py reason) into a folder printed at the end:
#   $FUZZ_FAIL_DIR (default /tmp/schedscope-fuzz-fail-<SEED|dirname>).
# Env: JOBS (reference processes, default 2), KEEP=1 keeps the temp dir,
#      NOVA_PYTHON (default /usr/bin/python3), NOVA_REF_DIR.
# Exit status: 0 when every scenario agrees, 1 otherwise.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
NOVA_PY="${NOVA_PYTHON:-/usr/bin/python3}"
PROJECT_ROOT="$(cd "$(dirname "$0")/../../../.." && pwd)"
REF_DIR="${NOVA_REF_DIR:-$PROJECT_ROOT/../shared/nova-reference}"
JOBS="${JOBS:-2}"

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage

if [ -d "$1" ]; then
  SRC="$(cd "$1" && pwd)"
  TAG="$(basename "$SRC")"
  WORK="$(mktemp -d "/tmp/schedscope-fuzz-${TAG}.XXXXXX")"
  SCEN="$SRC"
else
  [ $# -ge 2 ] || usage
  N="$1"; SEED="$2"; HARD="${3:-0.3}"
  TAG="$SEED"
  WORK="$(mktemp -d "/tmp/schedscope-fuzz-${SEED}.XXXXXX")"
  SCEN="$WORK/scenarios"
  echo "== generating $N scenarios (seed $SEED, hard ratio $HARD) in $SCEN"
  python3 "$HERE/generate.py" --seed "$SEED" --count "$N" --out "$SCEN" \
    --hard-ratio "$HARD" --prefix f --list > "$WORK/mutations.txt"
  echo "== running Nova's reference ($JOBS processes)"
  NOVA_PYTHON="$NOVA_PY" NOVA_REFERENCE="$REF_DIR/nova_reference.py" \
    python3 "$HERE/make-fixtures.py" -q -j "$JOBS" --strip-timing "$SCEN"
fi
FAIL_DIR="${FUZZ_FAIL_DIR:-/tmp/schedscope-fuzz-fail-$TAG}"
if [ "$(cd "$(dirname "$FAIL_DIR")" 2>/dev/null && pwd)/$(basename "$FAIL_DIR")" = "$SCEN" ]; then
  FAIL_DIR="$FAIL_DIR.recheck"   # never wipe the folder we are reading
fi

mapfile -t SCENARIOS < <(ls "$SCEN"/*.scenario.json | sort)
EXPECTED=()
for s in "${SCENARIOS[@]}"; do EXPECTED+=("${s%.scenario.json}.expected.json"); done
echo "== running our engine on ${#SCENARIOS[@]} scenarios"

ACTUAL="$WORK/actual.jsonl"
run_cli() { (cd "$ROOT" && npm run -s schedule -- "$@"); }
# One JSON line per file. The CLI pretty-prints when given a single file and
# exits 2 on input it refuses, which would lose the whole batch: fall back to
# one run per file and record failures as {"error": "CLI_FAILED"}.
set +e
START=$(date +%s.%N)
run_cli "${SCENARIOS[@]}" > "$ACTUAL" 2> "$WORK/cli.stderr"
RC=$?
END=$(date +%s.%N)
set -e
LINES=$(wc -l < "$ACTUAL" | tr -d ' ')
if [ "$RC" -ne 0 ] || [ "$LINES" -ne "${#SCENARIOS[@]}" ] || [ "${#SCENARIOS[@]}" -eq 1 ]; then
  if [ "${#SCENARIOS[@]}" -gt 1 ]; then
    echo "   batch run failed (rc=$RC, $LINES lines); running one file at a time"
    head -5 "$WORK/cli.stderr" | sed 's/^/   | /'
  fi
  : > "$ACTUAL"
  for s in "${SCENARIOS[@]}"; do
    if out="$(run_cli "$s" 2>>"$WORK/cli.stderr")"; then
      printf '%s' "$out" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))' >> "$ACTUAL" \
        || echo '{"error": "CLI_BAD_JSON"}' >> "$ACTUAL"
    else
      echo '{"error": "CLI_FAILED"}' >> "$ACTUAL"
    fi
  done
else
  python3 -c "print('   engine batch wall time: %.1f s' % ($END - $START))"
fi

echo "== comparing with Nova"
set +e
VERBOSE=1 "$NOVA_PY" "$REF_DIR/compare.py" "$ACTUAL" "${EXPECTED[@]}" > "$WORK/compare.txt"
CMP=$?
set -e
cat "$WORK/compare.txt"

rm -rf "$FAIL_DIR"
mkdir -p "$FAIL_DIR"
python3 - "$WORK/compare.txt" "$ACTUAL" "$FAIL_DIR" "${SCENARIOS[@]}" <<'EOF'
import json, os, shutil, sys
cmp_txt, actual, fail_dir, scenarios = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
lines = open(actual).read().splitlines()
index = {os.path.basename(s)[:-len(".scenario.json")]: i for i, s in enumerate(scenarios)}
reasons = {}
for line in open(cmp_txt):
    if ".expected.json: " in line:
        name, reason = line.rstrip("\n").split(".expected.json: ", 1)
        reasons[name] = reason
with open(os.path.join(fail_dir, "REASONS.txt"), "w") as out:
    for name, reason in sorted(reasons.items()):
        i = index.get(name)
        if i is None:
            continue
        scen = scenarios[i]
        shutil.copy(scen, fail_dir)
        shutil.copy(scen[:-len(".scenario.json")] + ".expected.json", fail_dir)
        act = lines[i] if i < len(lines) else '{"error": "NO_OUTPUT"}'
        try:
            doc = json.loads(act)
        except ValueError:
            doc = {"unparsable": act}
        with open(os.path.join(fail_dir, name + ".actual.json"), "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")
        out.write("%s: %s\n" % (name, reason))
print("== %d disagreement(s) kept in %s (REASONS.txt lists them)" % (len(reasons), fail_dir))
EOF
if [ -f "$WORK/mutations.txt" ]; then cp "$WORK/mutations.txt" "$FAIL_DIR/"; fi
if [ -s "$WORK/cli.stderr" ]; then
  cp "$WORK/cli.stderr" "$FAIL_DIR/cli.stderr"
  echo "== the CLI wrote to stderr: see $FAIL_DIR/cli.stderr"
fi
echo "== re-check these later (no Nova re-run): $0 $FAIL_DIR"
if [ "${KEEP:-0}" = "1" ]; then echo "== work dir kept: $WORK"; else rm -rf "$WORK"; fi
exit $CMP
