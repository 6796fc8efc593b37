#!/usr/bin/env bash
# Differential fuzzing of a later release against its real Nova (a chroot).
#
#   lib/scheduler/conformance/tools/fuzz-release.sh RELEASE N SEED
#        generate N scenarios for RELEASE (generate-releases.py), answer them
#        with the release's reference in its chroot (nova-batch.py, 2
#        processes), then compare with our CLI (fuzz.sh DIR).
#   lib/scheduler/conformance/tools/fuzz-release.sh RELEASE --fixtures DIR
#        answer DIR's scenarios with nova_reference.py itself, one process per
#        scenario (make-fixtures.py: how committed fixtures are made).
#   lib/scheduler/conformance/tools/fuzz-release.sh RELEASE --answer DIR
#        the same with nova-batch.py (Nova imported once: several times faster
#        on a busy machine; the same nova_reference.main per scenario).
#
# The chroots: 2025.1 from ../shared/nova-reference/release-2025.1/setup.sh,
# 2026.1 from release-2026.1/setup.sh here. Env: NOVA_CHROOT (default
# /opt/nova-trixie for 2025.1, /opt/nova-forky for 2026.1), JOBS (2),
# FUZZ_FAIL_DIR (default /tmp/schedscope-fuzz-fail-RELEASE-SEED).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -ge 3 ] || { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
RELEASE="$1"
case "$RELEASE" in
  2025.1) ROOT="${NOVA_CHROOT:-/opt/nova-trixie}" ;;
  2026.1) ROOT="${NOVA_CHROOT:-/opt/nova-forky}" ;;
  *) echo "fuzz-release.sh: no reference for $RELEASE" >&2; exit 2 ;;
esac
JOBS="${JOBS:-2}"
[ -f "$ROOT/ref/nova_reference.py" ] || { echo "fuzz-release.sh: no reference in $ROOT" >&2; exit 2; }

answer() {  # DIR MODE: answer DIR's scenarios inside the chroot
  local dir="$1" mode="$2" inside
  inside="/tmp/schedscope-$(basename "$dir")-$$"
  rm -rf "$ROOT/tools" "$ROOT$inside"
  cp -r "$HERE" "$ROOT/tools"
  mkdir -p "$ROOT$inside"
  cp "$dir"/*.scenario.json "$ROOT$inside/"
  if [ "$mode" = batch ]; then
    chroot "$ROOT" env NOVA_REFERENCE=/ref/nova_reference.py \
      nice -n 10 python3 /tools/nova-batch.py -j "$JOBS" "$inside"
  else
    chroot "$ROOT" env NOVA_REFERENCE=/ref/nova_reference.py NOVA_PYTHON=python3 \
      nice -n 10 python3 /tools/make-fixtures.py -q -j "$JOBS" --force --strip-timing "$inside"
  fi
  cp "$ROOT$inside"/*.expected.json "$dir/"
  rm -rf "$ROOT$inside" "$ROOT/tools"
}

if [ "$2" = "--fixtures" ]; then
  answer "$(cd "$3" && pwd)" fixtures
  exit 0
fi
if [ "$2" = "--answer" ]; then
  answer "$(cd "$3" && pwd)" batch
  exit 0
fi
N="$2"; SEED="$3"
WORK="$(mktemp -d "/tmp/schedscope-fuzz-$RELEASE-$SEED.XXXXXX")"
echo "== generating $N $RELEASE scenarios (seed $SEED) in $WORK"
python3 "$HERE/generate-releases.py" --release "$RELEASE" --seed "$SEED" --count "$N" --out "$WORK" \
  --prefix f --list > "$WORK/changes.txt"
echo "== running Nova $RELEASE's reference in $ROOT ($JOBS processes)"
answer "$WORK" batch
export FUZZ_FAIL_DIR="${FUZZ_FAIL_DIR:-/tmp/schedscope-fuzz-fail-$RELEASE-$SEED}"
set +e
"$HERE/fuzz.sh" "$WORK"
RC=$?
set -e
cp "$WORK/changes.txt" "$FUZZ_FAIL_DIR/" 2>/dev/null || true
echo "== scenarios and answers kept in $WORK"
exit $RC
