#!/usr/bin/env bash
# Rebuild lib/scheduler/conformance/fixtures from scratch-or-incrementally:
# scenarios are rewritten only when their content changes, and Nova's
# reference only re-runs for scenarios newer than their expected file.
# A full rebuild is ~440 reference runs (~5-10 min with 2 processes).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
F="$ROOT/lib/scheduler/conformance/fixtures"
mkdir -p "$F"
python3 "$HERE/generate.py" --seed 2026 --count 300 --hard-ratio 0.3 --out "$F"
python3 "$HERE/generate.py" --seed 2026 --start 300 --count 40 --only-hard --out "$F"
python3 "$HERE/quirks.py" --out "$F"
for f in "$(cd "$(dirname "$0")/../../../.." && pwd)"/../shared/nova-reference/examples/*.json; do
  dst="$F/example-$(basename "$f")"
  cmp -s "$f" "$dst" || { cp "$f" "$dst"; chmod u+w "$dst"; }
done
touch "$F"/example-*.expected.json   # shared results are authoritative
python3 "$HERE/make-fixtures.py" -q -j "${JOBS:-2}" --strip-timing "$F"
python3 "$HERE/coverage.py" "$F"
du -sh "$F"
