import type { Metadata } from "next";
import { ExplainView } from "@/components/explain/explain-view";
import { prisma } from "@/lib/db";
import { NOVA_RELEASES } from "@/lib/scheduler/releases";
import "@/components/explain/explain.css";

export const metadata: Metadata = { title: "Explain" };
export const dynamic = "force-dynamic";

export default async function ExplainPage() {
  const profiles = await prisma.schedulerProfile.findMany({
    orderBy: [{ active: "desc" }, { name: "asc" }],
    select: { name: true, active: true },
  });
  return (
    <section className="explain-page">
      <h1>Explain what Nova did</h1>
      <p className="lead">
        Upload nova-scheduler&apos;s log (with placement-api&apos;s, so each request&apos;s flavor is known): every
        scheduling call in it is replayed on the cloud and shown beside what Nova logged, each filter with the hosts it
        left and the hosts it removed, and why. Then try the same traffic under another profile. From a shell:{" "}
        <code>npm run -s explain -- --cloud CLOUD.json LOG...</code>
      </p>
      <ExplainView options={{ profiles, releases: NOVA_RELEASES }} />
    </section>
  );
}
