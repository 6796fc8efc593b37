#!/usr/bin/env bash
# Adversarial differential fuzzing: our engine vs. real Nova on small
# scenarios that each target one quirk area (lib/scheduler/conformance/tools/adversarial.py).
#
#   lib/scheduler/conformance/tools/run-adversarial.sh N SEED [AREAS]
#        generate N scenarios with SEED (AREAS: comma list, default all),
#        run Nova's reference on them (JOBS processes, default 2, ~1 s each),
#        run our CLI on all of them and compare.
#
# Disagreeing scenarios (scenario, Nova's expected, our actual, the reason)
# are kept in a folder printed at the end, with AREAS.tsv (name, area, what):
#   $ADV_FAIL_DIR (default /tmp/schedscope-adv-fail-<SEED>).
# Env: JOBS, MUTATE=1 adds wrong-type values (robustness: look for "the engine
#      failed" in cli.stderr; exact agreement is not expected), SLOW=1 runs nova_reference.py once per file (default: nova-batch.py,
#      the same code imported once), KEEP=1 keeps the work dir (all scenarios + expected results),
#      NOVA_PYTHON (default /usr/bin/python3), NOVA_REF_DIR.
# Exit status: 0 when every scenario agrees, 1 otherwise.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NOVA_PY="${NOVA_PYTHON:-/usr/bin/python3}"
PROJECT_ROOT="$(cd "$(dirname "$0")/../../../.." && pwd)"
REF_DIR="${NOVA_REF_DIR:-$PROJECT_ROOT/../shared/nova-reference}"
JOBS="${JOBS:-2}"

[ $# -ge 2 ] || { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
N="$1"; SEED="$2"; AREAS="${3:-}"
WORK="$(mktemp -d "/tmp/schedscope-adv-${SEED}.XXXXXX")"
SCEN="$WORK/adv-$SEED"
FAIL_DIR="${ADV_FAIL_DIR:-/tmp/schedscope-adv-fail-$SEED}"

echo "== generating $N adversarial scenarios (seed $SEED${AREAS:+, areas $AREAS}) in $SCEN"
python3 "$HERE/adversarial.py" --seed "$SEED" --count "$N" --out "$SCEN" \
  ${AREAS:+--areas "$AREAS"} ${MUTATE:+--mutate-types} --list > "$WORK/areas.tsv"
echo "== running Nova's reference ($JOBS processes)"
if [ "${SLOW:-0}" = "1" ]; then
  # one nova_reference.py process per scenario (~1 s of start-up each)
  NOVA_PYTHON="$NOVA_PY" NOVA_REFERENCE="$REF_DIR/nova_reference.py" \
    python3 "$HERE/make-fixtures.py" -q -j "$JOBS" --strip-timing "$SCEN"
else
  # the same reference code, imported once per process (nova-batch.py)
  NOVA_REFERENCE="$REF_DIR/nova_reference.py" "$NOVA_PY" "$HERE/nova-batch.py" -j "$JOBS" "$SCEN"
fi

# fuzz.sh in directory mode runs our CLI, compares and keeps the failures.
set +e
FUZZ_FAIL_DIR="$FAIL_DIR" NOVA_PYTHON="$NOVA_PY" NOVA_REF_DIR="$REF_DIR" \
  bash "$HERE/fuzz.sh" "$SCEN"
RC=$?
set -e
cp "$WORK/areas.tsv" "$FAIL_DIR/AREAS.tsv"
echo "== disagreements by area:"
python3 - "$FAIL_DIR" <<'PY'
import collections, os, sys
d = sys.argv[1]
names = [l.split(":")[0] for l in open(os.path.join(d, "REASONS.txt"))]
c = collections.Counter(n.split("-")[1] for n in names)
for k, v in c.most_common():
    print("%5d  %s" % (v, k))
PY
if [ "${KEEP:-0}" = "1" ]; then echo "== work dir kept: $WORK"; else rm -rf "$WORK"; fi
exit $RC
