import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { prisma } from "@/lib/db";
import { loadRun } from "@/lib/runs/cache";
import { getRun } from "@/lib/runs/queries";
import { buildRunView, type RunMeta } from "@/lib/runs/view";
import { ResultView } from "@/components/schedule/result-view";
import "@/components/schedule/schedule.css";
import { recordIdOf } from "@/lib/core/input-limits";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Run #${(await params).id}` };
}

/** A stored run, shown again exactly: from the stored result JSON, never recomputed. */
export default async function RunPage({ params }: Props) {
  const id = recordIdOf((await params).id);
  if (id === null) notFound();
  const [run, cached] = await Promise.all([getRun(prisma, id), loadRun(prisma, id)]);
  if (!run || !cached) notFound();
  const meta: RunMeta = {
    id: run.id,
    createdAt: run.createdAt.toISOString(),
    profileName: run.profileName,
    flavorName: run.flavorName,
    numInstances: run.numInstances,
    hostCount: run.hostCount,
    engineMs: run.engineMs,
    committedAt: run.committedAt?.toISOString() ?? null,
    committedInstances: run.committedInstances,
    request: run.request,
  };
  return (
    <section className="sc-page">
      <h1>Run #{run.id}</h1>
      <p className="sc-lead">
        As computed at the time, from the stored result (the cloud may have changed since).{" "}
        <Link href={`/schedule?from=${run.id}`}>Edit the request and schedule again</Link> ·{" "}
        <Link href="/runs">All runs</Link>
      </p>
      <ResultView meta={meta} view={buildRunView(cached.result, run.request, run.config)} showPermalink={false} />
    </section>
  );
}
