import type { Metadata } from "next";
import { CapacityView } from "@/components/capacity/capacity-view";
import { RunwaySection } from "@/components/capacity/runway-section";
import { readPageParams } from "@/lib/api/page-params";
import type { SearchParams } from "@/lib/api/params";
import { capacityOptions } from "@/lib/capacity/fill";
import { prisma } from "@/lib/db";
import { RunwayInputError, runwayView } from "@/lib/metrics/runway-view";
import "@/components/capacity/capacity.css";

export const metadata: Metadata = { title: "Capacity" };
export const dynamic = "force-dynamic";

async function runway(query: ReturnType<typeof readPageParams<"/capacity">>) {
  const opts = { flavor: query.flavor, addHosts: query.add ?? undefined, like: query.like || undefined };
  try {
    return { view: await runwayView(prisma, opts), error: null };
  } catch (e) {
    if (!(e instanceof RunwayInputError)) throw e;
    // the bad field named, and the runway without the what-if
    return { view: await runwayView(prisma, {}), error: e.message };
  }
}

export default async function CapacityPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const query = readPageParams("/capacity", await searchParams);
  const [options, rw] = await Promise.all([capacityOptions(prisma), runway(query)]);
  return (
    <section className="cap-page">
      <h1>Capacity</h1>
      <p className="lead">
        How many more instances fit, by the scheduler&apos;s own logic: boot a flavor (or a mix of flavors) on
        today&apos;s cloud ({options.hostCount.toLocaleString("en-US")} hosts) again and again, each boot scheduled as a
        trial and kept, until Nova answers NoValidHost. Filters, affinity and fragmentation all count. Nothing is
        written to the cloud.
      </p>
      {options.flavors.length === 0 ? (
        <p className="empty">The cloud has no flavors yet. Seed the demo cloud or import a cloud.</p>
      ) : (
        <CapacityView options={options} />
      )}
      <RunwaySection view={rw.view} action="/capacity" error={rw.error} />
    </section>
  );
}
