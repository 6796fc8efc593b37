import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { removeExtraSpec, saveExtraSpec } from "@/lib/flavors/actions";
import { DeleteFlavorForm, FlavorForm } from "@/components/flavors/flavor-forms";
import { KvEditor } from "@/components/forms/kv-editor";
import { fmtInt, fmtMb, decodeParam } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { RecordHead } from "@/components/ui/record-head";
import { getFlavor } from "@/lib/cloud/queries";
import { prisma } from "@/lib/db";
import type { SearchParams } from "@/lib/api/params";
import { readPageParams } from "@/lib/api/page-params";

export const dynamic = "force-dynamic";

type Params = Promise<{ name: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { name } = await params;
  return { title: `Flavor ${decodeParam(name)}` };
}

export default async function FlavorPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Promise<SearchParams>;
}) {
  const [{ name: raw }, query] = await Promise.all([params, searchParams]);
  const sp = readPageParams("/flavors/[name]", query);
  const f = await getFlavor(prisma, decodeParam(raw));
  if (!f) notFound();
  return (
    <section>
      <RecordHead list="Flavors" listHref="/flavors" entity="flavor" name={f.name}>
        <span className="muted">
          {f.vcpus} vCPU · {fmtMb(f.memoryMb)} RAM · {f.rootGb + f.ephemeralGb} GB disk · {fmtInt(f.instanceCount)}{" "}
          instances
        </span>
      </RecordHead>
      {sp.created ? <Notice tone="ok">Flavor {f.name} created. Add extra specs below.</Notice> : null}
      {sp.renamed ? <Notice tone="ok">Flavor saved as {f.name}.</Notice> : null}
      <KvEditor
        kind="flavor"
        title="Extra specs"
        noun="extra spec"
        entries={Object.entries(f.extraSpecs).map(([key, value]) => ({ key, value }))}
        hidden={{ id: f.id, flavor_name: f.name, version: f.version }}
        saveAction={saveExtraSpec}
        removeAction={removeExtraSpec}
        emptyText="No extra specs: every host that fits the sizes passes the extra-spec filters."
      />
      <section className="panel" aria-labelledby="sizes-h">
        <h2 id="sizes-h">Sizes</h2>
        <FlavorForm flavor={f} />
      </section>
      <section className="panel danger-zone" aria-labelledby="del-h">
        <h2 id="del-h">Delete</h2>
        <DeleteFlavorForm id={f.id} version={f.version} name={f.name} instances={f.instanceCount} />
      </section>
    </section>
  );
}
