import { DataTable, RecordRowHeader } from "@/components/ui/table";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ChildProviders } from "@/components/hosts/child-providers";
import { DrainPreview } from "@/components/hosts/drain-preview";
import { NumaCells } from "@/components/hosts/numa-cells";
import { ServiceForm } from "@/components/hosts/service-form";
import { fmt1, fmtGb, fmtInt, fmtMb, decodeParam } from "@/components/ui/format";
import { KeyValueChips } from "@/components/ui/chips";
import { RecordHead } from "@/components/ui/record-head";
import { UsageBar } from "@/components/ui/usage-bar";
import { describeMetadataKey } from "@/lib/catalog/metadata-keys";
import { getHostHardware } from "@/lib/cloud/host-hardware";
import { getHost } from "@/lib/cloud/queries";
import type { ChildProviderInput } from "@/lib/scenario/schema";
import { prisma } from "@/lib/db";
import { previewDrain } from "@/lib/maintenance/preview";
import type { SearchParams } from "@/lib/api/params";
import { readPageParams } from "@/lib/api/page-params";

export const dynamic = "force-dynamic";

type Params = Promise<{ name: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { name } = await params;
  return { title: `Host ${decodeParam(name)}` };
}

export default async function HostPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Promise<SearchParams>;
}) {
  const { name: raw } = await params;
  const name = decodeParam(raw);
  const [h, hw] = await Promise.all([getHost(prisma, name), getHostHardware(prisma, name)]);
  if (!h || !hw) notFound();
  const drain =
    readPageParams("/hosts/[name]", await searchParams).drain === "1" ? await previewDrain(prisma, h.name) : null;
  const { supportedInstances: supported, cpuInfo } = h;

  return (
    <section>
      <RecordHead list="Hosts" listHref="/hosts" entity="host" name={h.name}>
        <span className={`state state-${h.state.replace(/\s+/g, "-")}`}>{h.state}</span>
      </RecordHead>
      <p className="muted">
        Cell {h.cell} · zone {h.zones.join(", ")}
        {h.zoneIsDefault ? " (default zone: in no zone aggregate)" : ""} · node {h.node} · {h.hypervisorType}{" "}
        {h.hypervisorVersion} · IP {h.hostIp ?? "not set"}
      </p>

      <div className="grid-2">
        <section className="panel" aria-labelledby="res-h">
          <h2 id="res-h">Resources</h2>
          <UsageBar
            label="vCPU"
            used={h.vcpusUsed}
            total={h.vcpusCapacity}
            detail={`${fmtInt(h.vcpus)} physical × ratio ${fmt1(h.cpuAllocationRatio)}; ${fmtInt(h.reservedVcpus)} reserved`}
          />
          <UsageBar
            label="RAM"
            used={h.memoryMbUsed}
            total={h.memoryMbCapacity}
            unit="MB"
            detail={`${fmtMb(h.memoryMb)} × ratio ${fmt1(h.ramAllocationRatio)}; ${fmtMb(h.reservedMemoryMb)} reserved${h.freeRamMbOverride !== null ? `; free_ram_mb override ${fmtInt(h.freeRamMbOverride)}` : ""}`}
          />
          <UsageBar
            label="Disk"
            used={h.localGbUsed}
            total={h.localGbCapacity}
            unit="GB"
            detail={`${fmtGb(h.localGb)} × ratio ${fmt1(h.diskAllocationRatio)}; ${fmtInt(h.reservedDiskGb)} GB reserved${h.diskAvailableLeast !== null ? `; disk_available_least ${fmtInt(h.diskAvailableLeast)} GB` : ""}`}
          />
          <dl className="facts">
            <dt>Instances</dt>
            <dd>
              {fmtInt(h.numInstances)} (stats) · {fmtInt(h.instanceCount)} instance records
            </dd>
            <dt>I/O operations</dt>
            <dd>{fmtInt(h.numIoOps)}</dd>
            <dt>Failed builds</dt>
            <dd>{fmtInt(h.failedBuilds)}</dd>
          </dl>
        </section>

        <section className="panel" aria-labelledby="svc-h">
          <h2 id="svc-h">Compute service</h2>
          {!h.serviceUp || h.forcedDown ? (
            <p className="warn-text">
              The service is {h.forcedDown ? "forced down" : "down (not reporting)"}: ComputeFilter rejects this host
              whatever its enabled state.
            </p>
          ) : null}
          <ServiceForm host={h.name} disabled={h.serviceDisabled} reason={h.disabledReason} version={h.version} />
        </section>
      </div>

      <NumaCells host={h.name} hw={hw} />

      {h.scenario.name !== h.name ? (
        <p className="notice" role="note">
          {h.name} is a compute node of the service host <b>{h.scenario.name}</b> (several nodes, as Ironic has): Nova
          names the host {h.scenario.name} and the node {h.scenario.node}; aggregates go by the service host.
        </p>
      ) : null}
      <ChildProviders
        node={h.scenario.node ?? h.name}
        providers={
          ((h.scenario as { child_providers?: ChildProviderInput[] }).child_providers ?? []) as ChildProviderInput[]
        }
      />

      <section aria-labelledby="agg-h">
        <h2 id="agg-h">Aggregates ({h.aggregates.length})</h2>
        {h.aggregates.length ? (
          <DataTable
            caption={<>Aggregates of {h.name} and the metadata the scheduler reads from them</>}
            columns={["Aggregate", "Zone", "Metadata"]}
          >
            {h.aggregateDetails.map((a) => (
              <tr key={a.name}>
                <RecordRowHeader kind="aggregates" id={a.name} />
                <td>{a.availabilityZone ?? "—"}</td>
                <td>
                  <KeyValueChips chips={a.metadata.map((m) => ({ ...m, title: describeMetadataKey(m.key).reader }))} />
                </td>
              </tr>
            ))}
          </DataTable>
        ) : (
          <p className="empty">In no aggregate (zone: the default availability zone).</p>
        )}
      </section>

      <div className="grid-2">
        <section aria-labelledby="traits-h">
          <h2 id="traits-h">Traits ({h.traits.length})</h2>
          {h.traits.length ? (
            <ul className="chips">
              {h.traits.map((t) => (
                <li key={t}>
                  <code>{t}</code>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No Placement traits.</p>
          )}
          <h2 id="metrics-h">Metrics ({h.metrics.length})</h2>
          {h.metrics.length ? (
            <DataTable
              labelledBy="metrics-h"
              className="compact-table"
              columns={["Metric", { label: "Value", num: true }]}
            >
              {h.metrics.map((m) => (
                <tr key={m.name}>
                  <th scope="row">
                    <code>{m.name}</code>
                  </th>
                  <td className="num">{m.value}</td>
                </tr>
              ))}
            </DataTable>
          ) : (
            <p className="muted">No monitor metrics.</p>
          )}
        </section>
        <section aria-labelledby="hw-h">
          <h2 id="hw-h">Hypervisor</h2>
          <dl className="facts">
            <dt>Supported instances</dt>
            <dd>{supported.length ? supported.map((s) => s.join(" / ")).join(", ") : "none listed"}</dd>
            <dt>CPU</dt>
            <dd>
              {[cpuInfo.vendor, cpuInfo.model, cpuInfo.arch].filter(Boolean).join(" · ") || "—"}
              {Array.isArray(cpuInfo.features) ? (
                <div className="muted small">features: {(cpuInfo.features as string[]).join(", ")}</div>
              ) : null}
            </dd>
            <dt>Allocation ratios</dt>
            <dd>
              cpu {fmt1(h.cpuAllocationRatio)} · ram {fmt1(h.ramAllocationRatio)} · disk {fmt1(h.diskAllocationRatio)}
            </dd>
            <dt>UUID</dt>
            <dd>
              <code>{h.uuid ?? "—"}</code>
            </dd>
          </dl>
        </section>
      </div>

      <section aria-labelledby="inst-h">
        <h2 id="inst-h">Instances ({fmtInt(h.instanceCount)})</h2>
        {h.instances.length ? (
          <DataTable
            caption={
              <>
                Instances on {h.name}
                {h.instanceCount > h.instances.length ? ` (first ${h.instances.length})` : ""} ·{" "}
                <Link href={`/instances?host=${encodeURIComponent(h.name)}`}>manage</Link>
              </>
            }
            columns={["Name", "UUID", "Flavor", "Image", "Project", "Server group"]}
          >
            {h.instances.map((i) => (
              <tr key={i.uuid}>
                <th scope="row">{i.name ?? "—"}</th>
                <td>
                  <code className="small">{i.uuid}</code>
                </td>
                <td>{i.flavor ? <Link href={`/flavors/${encodeURIComponent(i.flavor)}`}>{i.flavor}</Link> : "—"}</td>
                <td>{i.image ?? "—"}</td>
                <td>
                  <code className="small">{i.projectId ?? "—"}</code>
                </td>
                <td>{i.serverGroup ? `${i.serverGroup} (${i.serverGroupPolicy})` : "—"}</td>
              </tr>
            ))}
          </DataTable>
        ) : (
          <p className="muted">No instance records on this host.</p>
        )}
      </section>

      <section aria-labelledby="drain-h">
        <h2 id="drain-h">Drain</h2>
        {drain ? (
          <DrainPreview host={h.name} steps={drain.steps} summary={drain.summary} />
        ) : (
          <p>
            <Link href={`/hosts/${encodeURIComponent(h.name)}?drain=1`}>Preview a drain of {h.name}</Link>: where Nova
            would move each instance, one by one, and which could not go.
          </p>
        )}
      </section>
    </section>
  );
}
