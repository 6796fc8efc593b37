#!/usr/bin/env bash
# Collect what Nova's scheduler sees of an OpenStack cloud into a bundle for
# Schedscope (`npm run -s scenario -- import-openstack BUNDLE.tar.gz`, or the
# /import page). Run it where the `openstack` client and osc-placement are
# installed, with admin credentials loaded (OS_CLOUD or an openrc).
#
# usage: scripts/collect-openstack.sh [-o DIR] [--nova-conf FILE | --no-nova-conf]
#                                     [--mysql-defaults FILE --cell NAME=DATABASE ...]
#
#   -o DIR               bundle directory (default ./openstack-bundle-YYYYmmdd-HHMMSS);
#                        DIR.tar.gz is written beside it
#   --nova-conf FILE     the scheduler host's nova.conf (default /etc/nova/nova.conf when
#                        readable); only the scheduler's sections are copied, never
#                        credentials
#   --mysql-defaults F   a mysql option file ([client] host/user/password) to read the
#                        compute_nodes table of each cell database: CPU info, supported
#                        instances, NUMA, PCI pools, metrics and stats, which no API
#                        returns since compute microversion 2.88
#   --cell NAME=DB       a cell database to read (repeat per cell, e.g. --cell cell1=nova_cell1)
#
# Files (one per command, `-f json`): compute-service-list.json, hypervisor-show.json,
# aggregate-show.json, flavor-list.json, image-show.json, server-group-show.json,
# server-list.json, resource-provider-list.json, resource-provider-{inventory,usage,
# trait,aggregate}.json (objects keyed by provider uuid), optional nova.conf and
# compute-nodes.json.
set -euo pipefail

out=""
nova_conf=""
no_nova_conf=0
mysql_defaults=""
cells=()

die() {
  echo "collect-openstack: $*" >&2
  exit 1
}

while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="${2:?-o needs a directory}"; shift 2 ;;
    --nova-conf) nova_conf="${2:?--nova-conf needs a file}"; shift 2 ;;
    --no-nova-conf) no_nova_conf=1; shift ;;
    --mysql-defaults) mysql_defaults="${2:?--mysql-defaults needs a file}"; shift 2 ;;
    --cell) cells+=("${2:?--cell needs NAME=DATABASE}"); shift 2 ;;
    -h | --help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument $1 (see --help)" ;;
  esac
done

command -v openstack >/dev/null || die "the openstack client is not installed (pip install python-openstackclient osc-placement)"
openstack resource provider list --help >/dev/null 2>&1 ||
  die "osc-placement is not installed (pip install osc-placement): the resource provider commands are missing"
openstack token issue -f value -c id >/dev/null 2>&1 || die "cannot authenticate: load admin credentials (OS_CLOUD or an openrc) first"

# Microversions: Placement 1.19 (Rocky) has traits, aggregates and root providers.
export OS_PLACEMENT_API_VERSION="${OS_PLACEMENT_API_VERSION:-1.19}"

out="${out:-openstack-bundle-$(date -u +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }

# `openstack ARGS... ID -f json` for each ID on stdin, joined as JSON between
# OPEN and CLOSE; inside '{' '}' each answer is keyed by its ID.
each_id() {
  local open=$1 close=$2 first=1 id
  shift 2
  printf '%s' "$open"
  while IFS= read -r id; do
    [ -n "$id" ] || continue
    [ $first -eq 1 ] || printf ','
    first=0
    if [ "$open" = '{' ]; then printf '"%s":' "$id"; fi
    openstack "$@" "$id" -f json
  done
  printf '%s\n' "$close"
}
# a JSON array of the answers
array_of() { each_id '[' ']' "$@"; }
# a JSON object {provider uuid: answer}
object_of() { each_id '{' '}' "$@"; }

log "compute services"
openstack compute service list --long -f json >"$out/compute-service-list.json"
log "hypervisors"
openstack hypervisor list -f value -c ID | array_of hypervisor show >"$out/hypervisor-show.json"
log "aggregates"
openstack aggregate list -f value -c ID | array_of aggregate show >"$out/aggregate-show.json"
log "flavors"
openstack flavor list --all --long -f json >"$out/flavor-list.json"
log "images"
openstack image list -f value -c ID | array_of image show >"$out/image-show.json"
log "server groups"
openstack server group list --all-projects -f value -c ID | array_of server group show >"$out/server-group-show.json"
log "servers"
openstack server list --all-projects --long --limit -1 -f json >"$out/server-list.json"
log "resource providers"
openstack resource provider list -f json >"$out/resource-provider-list.json"
providers="$(openstack resource provider list -f value -c uuid)"
log "inventories, usages, traits and aggregates of $(printf '%s\n' "$providers" | grep -c . || true) providers"
printf '%s\n' "$providers" | object_of resource provider inventory list >"$out/resource-provider-inventory.json"
printf '%s\n' "$providers" | object_of resource provider usage show >"$out/resource-provider-usage.json"
printf '%s\n' "$providers" | object_of resource provider trait list >"$out/resource-provider-trait.json"
printf '%s\n' "$providers" | object_of resource provider aggregate list >"$out/resource-provider-aggregate.json"

# nova.conf: the scheduler's sections only (no credentials leave the host)
if [ $no_nova_conf -eq 0 ]; then
  [ -n "$nova_conf" ] || { [ -r /etc/nova/nova.conf ] && nova_conf=/etc/nova/nova.conf; } || true
  if [ -n "$nova_conf" ]; then
    [ -r "$nova_conf" ] || die "cannot read $nova_conf"
    awk '
      /^[[:space:]]*\[/ {
        s = $0; gsub(/[[:space:]\[\]]/, "", s)
        keep = (s == "filter_scheduler" || s == "scheduler" || s == "metrics" || s == "pci" ||
                s == "compute" || s == "workarounds" || s == "DEFAULT")
        if (keep) print; next
      }
      # in these sections only the scheduler options, with their continuation lines; in [DEFAULT] also
      # the names the scheduler options had there before Pike (Schedscope reports them)
      keep && (s == "DEFAULT" || s == "compute" || s == "workarounds") {
        if (/^[ \t]+[^ \t]/) { if (cont) print; next }
        cont = (s == "DEFAULT" && /^[[:space:]]*(default_availability_zone|pci_alias|scheduler_[a-z_]+|[a-z_]*weight_multiplier|max_io_ops_per_host|max_instances_per_host|isolated_images|isolated_hosts|restrict_isolated_hosts_to_isolated_images|aggregate_image_properties_isolation_(namespace|separator)|baremetal_scheduler_default_filters)[[:space:]]*[=:]/) ||
               (s == "compute" && /^[[:space:]]*packing_host_numa_cells_allocation_strategy[[:space:]]*[=:]/) ||
               (s == "workarounds" && /^[[:space:]]*disable_fallback_pcpu_query[[:space:]]*[=:]/)
        if (cont) print
        next
      }
      keep { print }
    ' "$nova_conf" >"$out/nova.conf"
    log "nova.conf: scheduler sections of $nova_conf"
  else
    log "nova.conf: skipped (none at /etc/nova/nova.conf; give --nova-conf FILE): the profiles in Schedscope stay as they are"
  fi
fi

# compute_nodes of each cell database: what no API exposes since microversion 2.88
if [ -n "$mysql_defaults" ] && [ ${#cells[@]} -gt 0 ]; then
  command -v mysql >/dev/null || die "--mysql-defaults given but the mysql client is not installed"
  first=1
  {
    printf '['
    for cell in "${cells[@]}"; do
      name="${cell%%=*}"
      db="${cell#*=}"
      [ "$name" != "$cell" ] || die "--cell needs NAME=DATABASE (got $cell)"
      log "compute_nodes of cell $name (database $db)"
      while IFS= read -r row; do
        [ -n "$row" ] || continue
        [ $first -eq 1 ] || printf ','
        first=0
        printf '%s' "$row"
      done < <(mysql --defaults-extra-file="$mysql_defaults" -N -B -r "$db" -e "
        SELECT JSON_OBJECT('host', host, 'hypervisor_hostname', hypervisor_hostname,
          'cpu_info', cpu_info, 'supported_instances', supported_instances,
          'numa_topology', numa_topology, 'pci_stats', pci_stats, 'metrics', metrics,
          'stats', stats, 'cell', '$name')
        FROM compute_nodes WHERE deleted = 0 ORDER BY id")
    done
    printf ']\n'
  } >"$out/compute-nodes.json"
else
  log "compute-nodes.json: SKIPPED (give --mysql-defaults FILE and --cell NAME=DATABASE): CPU info, supported" \
    "instances, NUMA topology, PCI pools, metrics and stats will get neutral values, and every host is in cell1"
fi

tar -czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
log "bundle: $out/ and $out.tar.gz ($(du -h "$out.tar.gz" | cut -f1))"
echo "$out.tar.gz"
