import type { Metadata } from "next";
import { ConnectionsPanel } from "@/components/sync/connections-panel";
import { prisma } from "@/lib/db";
import { publicConnection } from "@/lib/sync/connections";
import { readSchedule } from "@/lib/sync/schedule";

export const metadata: Metadata = { title: "Connections" };
export const dynamic = "force-dynamic";

export default async function ConnectionsPage() {
  const rows = await prisma.cloudConnection.findMany({ orderBy: { name: "asc" } });
  const connections = await Promise.all(rows.map((r) => publicConnection(prisma, r)));
  const schedule = await readSchedule(prisma);
  return (
    <section>
      <h1>Connected clouds</h1>
      <p className="lead">
        Schedscope reads a cloud&apos;s APIs (Keystone, Nova, Placement, Glance) with GET requests only and replaces its
        cloud with what they say, through the same checks as a bundle upload. nova.conf is in no API: the scheduler
        profile stays as imported. From a shell: <code>npm run -s cloud -- sync --os-cloud NAME</code>.
      </p>
      <ConnectionsPanel connections={connections} schedule={schedule} />
    </section>
  );
}
