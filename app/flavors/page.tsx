import { DataTable } from "@/components/ui/table";
import type { Metadata } from "next";
import Link from "next/link";
import { FlavorForm } from "@/components/flavors/flavor-forms";
import { KeyValueChips } from "@/components/ui/chips";
import { NewPanel } from "@/components/ui/edit-panel";
import { fmtInt, fmtMb } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { describeExtraSpec } from "@/lib/catalog/extra-specs";
import { listFlavors } from "@/lib/cloud/queries";
import { prisma } from "@/lib/db";

export const metadata: Metadata = { title: "Flavors" };
export const dynamic = "force-dynamic";

type SP = Record<string, string | string[] | undefined>;

export default async function FlavorsPage({ searchParams }: { searchParams: Promise<SP> }) {
  const sp = await searchParams;
  const deleted = typeof sp.deleted === "string" ? sp.deleted : null;
  const flavors = await listFlavors(prisma, "name");
  return (
    <section>
      <h1>Flavors</h1>
      <p className="lead">
        A flavor&apos;s sizes are what the resource filters check; its extra specs are matched by
        AggregateInstanceExtraSpecsFilter, ComputeCapabilitiesFilter and the traits prefilter.
      </p>
      {deleted ? <Notice tone="ok">Flavor {deleted} deleted.</Notice> : null}
      <DataTable
        caption={<>Flavors ({flavors.length})</>}
        columns={[
          "Name",
          "ID",
          { label: "vCPUs", num: true },
          { label: "RAM", num: true },
          { label: "Disk (root + eph.)", num: true },
          "Extra specs",
          { label: "Instances", num: true },
        ]}
      >
        {flavors.map((f) => (
          <tr key={f.id}>
            <th scope="row">
              <Link href={`/flavors/${encodeURIComponent(f.name)}`}>{f.name}</Link>
              {!f.isPublic ? <span className="tag">private</span> : null}
            </th>
            <td>
              <code>{f.flavorid ?? "—"}</code>
            </td>
            <td className="num">{f.vcpus}</td>
            <td className="num">{fmtMb(f.memoryMb)}</td>
            <td className="num">
              {f.rootGb} + {f.ephemeralGb} GB
            </td>
            <td>
              <KeyValueChips
                chips={Object.entries(f.extraSpecs).map(([key, value]) => {
                  const info = describeExtraSpec(key, value);
                  return {
                    key,
                    value,
                    title: info.readers.join(", ") || "not read by the scheduler",
                    className: info.error ? "bad" : undefined,
                  };
                })}
              />
            </td>
            <td className="num">{fmtInt(f.instanceCount)}</td>
          </tr>
        ))}
      </DataTable>
      <NewPanel id="new-flavor" title="New flavor">
        <FlavorForm />
      </NewPanel>
    </section>
  );
}
