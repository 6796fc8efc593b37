import { PageFrame } from "@/components/ui/page-frame";
import { DataTable } from "@/components/ui/table";
import type { Metadata } from "next";
import Link from "next/link";
import { FlavorForm } from "@/components/flavors/flavor-forms";
import { KeyValueChips } from "@/components/ui/chips";
import { NewPanel } from "@/components/ui/edit-panel";
import { fmtInt, fmtMb } from "@/components/ui/format";
import { describeExtraSpec } from "@/lib/catalog/extra-specs";
import { listFlavors } from "@/lib/cloud/queries";
import { prisma } from "@/lib/db";
import type { SearchParams } from "@/lib/api/params";
import { readPageParams } from "@/lib/api/page-params";

export const metadata: Metadata = { title: "Flavors" };
export const dynamic = "force-dynamic";

export default async function FlavorsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const deleted = readPageParams("/flavors", await searchParams).deleted ?? null;
  const flavors = await listFlavors(prisma, "name");
  return (
    <PageFrame
      title="Flavors"
      lead={
        <>
          A flavor&apos;s sizes are what the resource filters check; its extra specs are matched by
          AggregateInstanceExtraSpecsFilter, ComputeCapabilitiesFilter and the traits prefilter.
        </>
      }
      notice={deleted ? <>Flavor {deleted} deleted.</> : null}
    >
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
    </PageFrame>
  );
}
