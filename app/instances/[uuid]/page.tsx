import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { MoveTrial } from "@/components/instances/move-trial";
import { decodeParam } from "@/components/ui/format";
import { RecordHead } from "@/components/ui/record-head";
import { getInstance } from "@/lib/cloud/queries";
import { prisma } from "@/lib/db";
import "@/components/schedule/schedule.css";

export const dynamic = "force-dynamic";

type Params = Promise<{ uuid: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { uuid } = await params;
  return { title: `Instance ${decodeParam(uuid)}` };
}

export default async function InstancePage({ params }: { params: Params }) {
  const { uuid: raw } = await params;
  const uuid = decodeParam(raw);
  const [inst, flavors] = await Promise.all([
    getInstance(prisma, uuid),
    prisma.flavor.findMany({
      orderBy: [{ vcpus: "asc" }, { memoryMb: "asc" }, { name: "asc" }],
      select: { name: true, vcpus: true, memoryMb: true, rootGb: true },
    }),
  ]);
  if (!inst) notFound();
  const label = inst.name ?? inst.uuid;
  return (
    <section>
      <RecordHead list="Instances" listHref="/instances" entity="instance" name={label} entityKey={inst.uuid}>
        <Link href={`/instances?edit=${encodeURIComponent(inst.uuid)}`}>Edit</Link>
      </RecordHead>
      <section aria-label="Instance details">
        <dl className="facts">
          <dt>UUID</dt>
          <dd>
            <code className="small">{inst.uuid}</code>
          </dd>
          <dt>Host</dt>
          <dd>
            {inst.host ? <Link href={`/hosts/${encodeURIComponent(inst.host.name)}`}>{inst.host.name}</Link> : "none"}
          </dd>
          <dt>Flavor</dt>
          <dd>{inst.flavor?.name ?? "none"}</dd>
          <dt>Image</dt>
          <dd>{inst.image ? (inst.image.name ?? inst.image.uuid) : "none"}</dd>
          <dt>Project</dt>
          <dd>{inst.projectId ?? "none"}</dd>
          <dt>Server group</dt>
          <dd>{inst.serverGroup ? `${inst.serverGroup.name} (${inst.serverGroup.policy})` : "none"}</dd>
        </dl>
      </section>
      {inst.host && inst.flavor ? (
        <MoveTrial
          instance={{ id: inst.id, uuid: inst.uuid, version: inst.version, flavor: inst.flavor.name }}
          flavors={flavors.map((f) => ({
            name: f.name,
            text: `${f.name} (${f.vcpus} vCPU, ${f.memoryMb} MB, ${f.rootGb} GB)`,
          }))}
        />
      ) : (
        <p className="empty">
          An instance moves from its host with its flavor: give this one {inst.host ? "a flavor" : "a host"} to trial a
          move.
        </p>
      )}
    </section>
  );
}
