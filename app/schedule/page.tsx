import type { Metadata } from "next";
import Link from "next/link";
import { prisma } from "@/lib/db";
import { EMPTY_FORM, requestToFormValues, type FormValues } from "@/lib/runs/form-values";
import { getRun, scheduleFormOptions } from "@/lib/runs/queries";
import { ScheduleForm } from "@/components/schedule/schedule-form";
import "@/components/schedule/schedule.css";
import type { SearchParams } from "@/lib/api/params";
import { readPageParams } from "@/lib/api/page-params";

export const metadata: Metadata = { title: "Schedule" };
export const dynamic = "force-dynamic";

export default async function SchedulePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { from, flavor } = readPageParams("/schedule", await searchParams);
  const options = await scheduleFormOptions(prisma);
  const active = options.profiles.find((p) => p.active)?.name ?? null;
  const initial: FormValues = {
    ...EMPTY_FORM,
    flavor: options.flavors.find((f) => f.name === "m1.small")?.name ?? options.flavors[0]?.name ?? "",
  };
  let fromRun: number | null = null;
  if (from !== null) {
    const run = await getRun(prisma, from);
    if (run) {
      Object.assign(initial, requestToFormValues(run.request, run.profileName, active));
      fromRun = run.id;
    }
  }
  if (flavor && options.flavors.some((f) => f.name === flavor)) initial.flavor = flavor;

  return (
    <section className="sc-page">
      <h1>Schedule</h1>
      <p className="sc-lead">
        Ask Nova&apos;s filter scheduler where a boot request would land on today&apos;s cloud (
        {options.hostCount.toLocaleString("en-US")} hosts), and see why: the funnel of filters, every host that fell out
        and why, and how the survivors were weighed.
        {fromRun ? (
          <>
            {" "}
            The form holds the request of <Link href={`/runs/${fromRun}`}>run #{fromRun}</Link>.
          </>
        ) : null}
      </p>
      {options.flavors.length === 0 ? (
        <p className="empty">
          The cloud has no flavors yet. Seed the demo cloud with <code>npm run seed</code> or import a cloud.
        </p>
      ) : (
        <ScheduleForm options={options} initial={initial} />
      )}
    </section>
  );
}
