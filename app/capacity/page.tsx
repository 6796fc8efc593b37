import type { Metadata } from "next";
import { CapacityView } from "@/components/capacity/capacity-view";
import { capacityOptions } from "@/lib/capacity/fill";
import { prisma } from "@/lib/db";
import "@/components/capacity/capacity.css";

export const metadata: Metadata = { title: "Capacity" };
export const dynamic = "force-dynamic";

export default async function CapacityPage() {
  const options = await capacityOptions(prisma);
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
    </section>
  );
}
