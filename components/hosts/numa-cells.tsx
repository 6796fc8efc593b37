import { DataTable } from "@/components/ui/table";
import { fmtInt, fmtMb } from "@/components/ui/format";
import { UsageBar } from "@/components/ui/usage-bar";
import type { HostHardware } from "@/lib/cloud/host-hardware";
import type { CellView, CpuView, DevicePoolView } from "@/lib/cloud/numa-view";

/** One thread: its number and role in text (the colour only repeats it). */
function Cpu({ c }: { c: CpuView }) {
  const cls = `numa-cpu numa-${c.role === "shared" ? "shared" : "dedicated"}${c.pinned ? " numa-pinned" : ""}`;
  return (
    <li className={cls} aria-label={c.label} title={c.label}>
      <span aria-hidden="true">
        {c.cpu}
        {c.pinned ? "•" : c.role === "shared" ? "s" : c.role === "dedicated" ? "d" : ""}
      </span>
    </li>
  );
}

function Devices({ devices, caption }: { devices: DevicePoolView[]; caption: string }) {
  return (
    <DataTable
      className="compact-table"
      caption={caption}
      columns={["Device", "Type", { label: "Free", num: true }, "Tags"]}
    >
      {devices.map((d) => (
        <tr key={`${d.vendorId}:${d.productId}:${JSON.stringify(d.tags)}`}>
          <th scope="row">
            <code>
              {d.vendorId}:{d.productId}
            </code>
          </th>
          <td>{d.deviceType ?? "—"}</td>
          <td className="num">{fmtInt(d.count)}</td>
          <td className="small">
            {Object.entries(d.tags)
              .filter(([k]) => k !== "dev_type")
              .map(([k, v]) => `${k}=${v}`)
              .join(", ") || "—"}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

function Cell({ cell, host }: { cell: CellView; host: string }) {
  const id = `numa-cell-${cell.id}`;
  return (
    <section className="panel numa-cell" aria-labelledby={id}>
      <h3 id={id}>
        NUMA cell {cell.id}
        {cell.socket !== null ? ` (socket ${cell.socket})` : " (socket not reported)"}
      </h3>
      <p className="small">{cell.summary}</p>
      <UsageBar
        label={`Cell ${cell.id} memory`}
        used={cell.memoryUsageMb}
        total={cell.memoryMb}
        unit="MiB"
        detail={`${fmtMb(cell.memoryMb)}; ${fmtInt(cell.cpuUsage)} shared vCPUs in use`}
      />
      {cell.dedicated > 0 ? (
        <UsageBar
          label={`Cell ${cell.id} pinned CPUs`}
          used={cell.pinned}
          total={cell.dedicated}
          detail={`${fmtInt(cell.freeDedicated)} dedicated CPUs free for pinning`}
        />
      ) : null}
      <ul className="numa-cores" aria-label={`CPUs of NUMA cell ${cell.id} of ${host}, by core`}>
        {cell.cores.map((core) => (
          <li key={core.map((c) => c.cpu).join("-")} className="numa-core">
            <span className="visually-hidden">Core with threads {core.map((c) => c.cpu).join(" and ")}:</span>
            <ul className="numa-threads">
              {core.map((c) => (
                <Cpu key={c.cpu} c={c} />
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <DataTable
        className="compact-table"
        caption={<>Memory pages of NUMA cell {cell.id}</>}
        columns={[
          "Page size",
          { label: "Total", num: true },
          { label: "Used", num: true },
          { label: "Reserved", num: true },
          { label: "Free", num: true },
        ]}
      >
        {cell.pages.map((p) => (
          <tr key={p.sizeKb}>
            <th scope="row">{p.size}</th>
            <td className="num">{fmtInt(p.total)}</td>
            <td className="num">{fmtInt(p.used)}</td>
            <td className="num">{fmtInt(p.reserved)}</td>
            <td className="num">{fmtInt(p.free)}</td>
          </tr>
        ))}
      </DataTable>
      {cell.devices.length ? (
        <Devices devices={cell.devices} caption={`PCI devices on NUMA cell ${cell.id}`} />
      ) : (
        <p className="muted small">No PCI devices on this cell.</p>
      )}
    </section>
  );
}

/** The host's NUMA cells (CPUs shared/dedicated/pinned, SMT siblings, pages, devices) and Placement inventories. */
export function NumaCells({ host, hw }: { host: string; hw: HostHardware }) {
  const { numa } = hw;
  return (
    <section aria-labelledby="numa-h">
      <h2 id="numa-h">NUMA topology and devices</h2>
      {numa?.cells.length ? (
        <>
          <p className="muted small">
            {numa.cells.length} NUMA cell{numa.cells.length === 1 ? "" : "s"}
            {numa.smt ? ", SMT threads grouped by core" : ", no SMT siblings (hw:cpu_thread_policy=require never fits)"}
            . Legend: <span className="numa-cpu numa-shared legend">s</span> shared (cpu_shared_set),{" "}
            <span className="numa-cpu numa-dedicated legend">d</span> dedicated (cpu_dedicated_set),{" "}
            <span className="numa-cpu numa-dedicated numa-pinned legend">•</span> pinned by an instance.
          </p>
          <div className="numa-grid">
            {numa.cells.map((c) => (
              <Cell key={c.id} cell={c} host={host} />
            ))}
          </div>
        </>
      ) : (
        <p className="muted">
          No NUMA topology reported: NUMATopologyFilter rejects this host for any request with pinned CPUs, huge pages
          or guest NUMA nodes.
        </p>
      )}
      {numa?.unaffinedDevices.length ? (
        <Devices devices={numa.unaffinedDevices} caption="PCI devices with no NUMA node" />
      ) : null}
      {hw.pcpus > 0 || hw.inventories.length ? (
        <DataTable
          className="compact-table"
          caption={<>Extra Placement inventories</>}
          columns={["Resource class", { label: "Total", num: true }, { label: "Used", num: true }, "Details"]}
        >
          {hw.pcpus > 0 ? (
            <tr>
              <th scope="row">PCPU</th>
              <td className="num">{fmtInt(hw.pcpus)}</td>
              <td className="num">{fmtInt(hw.pcpusUsed)}</td>
              <td className="small">dedicated CPUs (cpu_dedicated_set)</td>
            </tr>
          ) : null}
          {hw.inventories.map(({ resourceClass, inventory: i }) => (
            <tr key={resourceClass}>
              <th scope="row">{resourceClass}</th>
              <td className="num">{fmtInt(i.total)}</td>
              <td className="num">{fmtInt(i.used ?? 0)}</td>
              <td className="small">
                reserved {i.reserved ?? 0}, ratio {i.allocation_ratio ?? 1}, units {i.min_unit ?? 1}–
                {i.max_unit ?? i.total} step {i.step_size ?? 1}
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}
