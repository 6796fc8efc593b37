#!/bin/bash
# Build the Nova 2026.1 ("Gazpacho") reference: a Debian testing chroot with
# testing's python3-nova 33.0.2 and python3-placement 15.0.0, holding
# ../shared/nova-reference's scripts with the 2025.1 harness patch
# (release-2025.1/harness.patch there) and harness-2026.1.patch here applied.
# Idempotent: run it again to finish or refresh.
#
#   sudo bash lib/scheduler/conformance/tools/release-2026.1/setup.sh
#   cp my.json /opt/nova-forky/tmp/ && chroot /opt/nova-forky python3 /ref/nova_reference.py /tmp/my.json
#
# Results say "nova_release": "33 (2026.1)". Everything comes from Debian's
# archive (debootstrap and apt); nothing else is fetched.
#
# Environment: NOVA_FORKY_ROOT (default /opt/nova-forky), DEBIAN_MIRROR
# (default: the first Debian URI of this machine's apt sources),
# NOVA_REFERENCE_DIR (default ../shared/nova-reference beside the repository).
# Needs root, debootstrap and patch (installed with apt-get when missing),
# ~1.2 GB of disk and about 5 minutes on 2 CPUs the first time.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../../../.." && pwd)
ROOT=${NOVA_FORKY_ROOT:-/opt/nova-forky}
apt_mirror() {  # the first Debian URI this machine's apt sources name
    { awk '/^URIs:/ {print $2}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true
      awk '/^deb / {print $2}' /etc/apt/sources.list 2>/dev/null || true; } | grep -v security | head -n 1
}
MIRROR=${DEBIAN_MIRROR:-$(apt_mirror)}
[ -n "$MIRROR" ] || { echo "setup.sh: no Debian mirror in apt's sources; set DEBIAN_MIRROR" >&2; exit 1; }
REF_SRC=${NOVA_REFERENCE_DIR:-$REPO/../shared/nova-reference}
PATCHES="$REF_SRC/release-2025.1/harness.patch $HERE/harness-2026.1.patch"
PACKAGES="python3-nova python3-placement python3-wsgi-intercept"
# testing's Release file may be older than its Valid-Until
APT_OPTS="-o Acquire::Check-Valid-Until=false"

[ "$(id -u)" = 0 ] || { echo "setup.sh: run as root" >&2; exit 1; }
[ -f "$REF_SRC/nova_reference.py" ] || { echo "setup.sh: no nova_reference.py in $REF_SRC" >&2; exit 1; }

need=""
command -v debootstrap >/dev/null || need="$need debootstrap"
command -v patch >/dev/null || need="$need patch"
if [ -n "$need" ]; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $need
fi

unmount_proc() {
    if mountpoint -q "$ROOT/proc" 2>/dev/null; then umount "$ROOT/proc"; fi
}

# 1. the chroot (a debootstrap that did not finish leaves $ROOT/debootstrap)
if [ -d "$ROOT/debootstrap" ] || { [ -e "$ROOT" ] && [ ! -x "$ROOT/usr/bin/apt-get" ]; }; then
    echo "setup.sh: removing the unfinished chroot $ROOT"
    unmount_proc
    rm -rf --one-file-system "$ROOT"
fi
if [ ! -x "$ROOT/usr/bin/apt-get" ]; then
    debootstrap --variant=minbase testing "$ROOT" "$MIRROR"
fi
mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
echo 'Acquire::Check-Valid-Until "false";' > "$ROOT/etc/apt/apt.conf.d/99no-check-valid-until"

# 2. Nova, Placement and wsgi-intercept from testing (no recommends)
chroot "$ROOT" env DEBIAN_FRONTEND=noninteractive apt-get $APT_OPTS update -q
chroot "$ROOT" env DEBIAN_FRONTEND=noninteractive \
    apt-get $APT_OPTS install -y -q --no-install-recommends $PACKAGES
chroot "$ROOT" apt-get clean

# 3. the harness: fresh copies of the shared originals, then the patches
stage=$(mktemp -d)
cp "$REF_SRC"/*.py "$stage/"
for p in $PATCHES; do
    if ! patch -p1 -s --dry-run -d "$stage" < "$p" >/dev/null; then
        rm -rf "$stage"
        echo "setup.sh: $p no longer applies to $REF_SRC (the shared reference changed); rebase it" >&2
        exit 1
    fi
    patch -p1 -s -d "$stage" < "$p"
done
rm -rf "$ROOT/ref"
mkdir -p "$ROOT/ref/examples"
cp "$stage"/*.py "$ROOT/ref/"
rm -rf "$stage"
cp "$REF_SRC"/examples/*.json "$ROOT/ref/examples/"

# 4. what got installed, and a smoke test
echo "--- installed in $ROOT"
chroot "$ROOT" dpkg-query -W -f='${Package} ${Version}\n' \
    python3 python3-nova python3-placement python3-os-traits python3-wsgi-intercept
release=$(chroot "$ROOT" python3 /ref/nova_reference.py \
    /ref/examples/placement-claims.scenario.json |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["nova_release"], d["error"], [s["host"] for s in d["selections"]])')
echo "--- smoke test (placement-claims): $release"
case "$release" in
    "33 (2026.1) None"*) ;;
    *) echo "setup.sh: expected Nova 33 (2026.1) to answer" >&2; exit 1 ;;
esac
echo "setup.sh: done (/proc stays mounted in $ROOT; umount $ROOT/proc to release it)"
