"use server";

import { randomUUID } from "node:crypto";
import { redirect } from "next/navigation";
import { formToObject, MutationError, mutate, type ActionResult } from "@/lib/actions/mutation";
import {
  AggregateCreateSchema,
  AggregateHostRemoveSchema,
  AggregateHostsAddSchema,
  AggregateIdSchema,
  AggregateMetadataRemoveSchema,
  AggregateMetadataSchema,
  AggregateRenameSchema,
  AggregateZoneSchema,
} from "@/lib/cloud/form-schemas";
import { aggregateById, assertAggregateNameFree, zoneConflict } from "./rules";

const detailPaths = (name: string) => [`/aggregates/${name}`, `/aggregates/${encodeURIComponent(name)}`];
const pathsFor = (name?: string) => ["/", "/aggregates", ...(name ? detailPaths(name) : [])];
const aggregateHref = (name: string) => `/aggregates/${encodeURIComponent(name)}`;

export async function createAggregate(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await mutate(
    "aggregate.create",
    AggregateCreateSchema,
    formToObject(form),
    async (tx, d) => {
      await assertAggregateNameFree(tx, d.name);
      const last = await tx.aggregate.aggregate({ _max: { position: true } });
      const agg = await tx.aggregate.create({
        data: {
          name: d.name,
          availabilityZone: d.availability_zone,
          uuid: randomUUID(),
          position: (last._max.position ?? -1) + 1,
        },
      });
      return { name: agg.name };
    },
    { revalidate: pathsFor(), message: "Aggregate created." },
  );
  if (result.ok) redirect(`${aggregateHref(result.data.name)}?created=1`);
  return result;
}

export async function renameAggregate(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await mutate(
    "aggregate.rename",
    AggregateRenameSchema,
    formToObject(form),
    async (tx, d) => {
      const agg = await aggregateById(tx, d.id);
      if (agg.name === d.name) return { name: d.name, old: agg.name };
      await assertAggregateNameFree(tx, d.name, d.id);
      await tx.aggregate.update({ where: { id: d.id }, data: { name: d.name } });
      return { name: d.name, old: agg.name };
    },
    { revalidate: pathsFor(), message: "Aggregate renamed." },
  );
  if (result.ok && result.data.name !== result.data.old) redirect(`${aggregateHref(result.data.name)}?renamed=1`);
  return result;
}

export async function deleteAggregate(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await mutate(
    "aggregate.delete",
    AggregateIdSchema,
    formToObject(form),
    async (tx, d) => {
      const agg = await aggregateById(tx, d.id);
      await tx.aggregate.delete({ where: { id: d.id } });
      return { name: agg.name };
    },
    { revalidate: pathsFor(), message: "Aggregate deleted." },
  );
  if (result.ok) redirect(`/aggregates?deleted=${encodeURIComponent(result.data.name)}`);
  return result;
}

export async function setAggregateZone(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = formToObject(form);
  return mutate(
    "aggregate.zone",
    AggregateZoneSchema,
    input,
    async (tx, d) => {
      const agg = await aggregateById(tx, d.id);
      const conflict = await zoneConflict(tx, d.id, d.availability_zone, "members");
      if (conflict) throw new MutationError("availability_zone", `availability_zone: ${conflict}`);
      await tx.aggregate.update({ where: { id: agg.id }, data: { availabilityZone: d.availability_zone } });
      return { zone: d.availability_zone };
    },
    { revalidate: pathsFor(String(input.aggregate_name ?? "")), message: "Availability zone saved." },
  );
}

/** Add or change one metadata key (in place: original_key = the row's key before the edit). */
export async function saveAggregateMetadata(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = formToObject(form);
  const editing = typeof input.original_key === "string" && input.original_key !== "";
  return mutate(
    "aggregate.metadata.save",
    AggregateMetadataSchema,
    input,
    async (tx, d) => {
      const agg = await aggregateById(tx, d.id);
      const original = d.original_key?.trim() || null;
      if (original && original !== d.key) {
        // renaming a key: the new key must not already be set
        const clash =
          d.key === "availability_zone"
            ? agg.availabilityZone !== null
            : (await tx.aggregateMetadata.findUnique({
                where: { aggregateId_key: { aggregateId: agg.id, key: d.key } },
              })) !== null;
        if (clash)
          throw new MutationError("key", `key: "${d.key}" is already set on this aggregate; change it in its own row`);
        if (original === "availability_zone")
          await tx.aggregate.update({ where: { id: agg.id }, data: { availabilityZone: null } });
        else await tx.aggregateMetadata.deleteMany({ where: { aggregateId: agg.id, key: original } });
      } else if (!original) {
        const exists =
          d.key === "availability_zone"
            ? agg.availabilityZone !== null
            : (await tx.aggregateMetadata.findUnique({
                where: { aggregateId_key: { aggregateId: agg.id, key: d.key } },
              })) !== null;
        if (exists)
          throw new MutationError(
            "key",
            `key: "${d.key}" is already set on this aggregate; change its value in its row`,
          );
      }
      if (d.key === "availability_zone") {
        // the zone lives in its own column (as Nova keeps it apart)
        const conflict = await zoneConflict(tx, agg.id, d.value.trim(), "members");
        if (conflict) throw new MutationError("value", `value: ${conflict}`);
        await tx.aggregate.update({ where: { id: agg.id }, data: { availabilityZone: d.value.trim() } });
      } else {
        await tx.aggregateMetadata.upsert({
          where: { aggregateId_key: { aggregateId: agg.id, key: d.key } },
          create: { aggregateId: agg.id, key: d.key, value: d.value },
          update: { value: d.value },
        });
      }
      await tx.aggregate.update({ where: { id: agg.id }, data: { updatedAt: new Date() } });
      return { key: d.key };
    },
    {
      revalidate: pathsFor(String(input.aggregate_name ?? "")),
      message: editing ? `Saved ${String(input.key ?? "").trim()}.` : `Added ${String(input.key ?? "").trim()}.`,
    },
  );
}

export async function removeAggregateMetadata(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = formToObject(form);
  return mutate(
    "aggregate.metadata.remove",
    AggregateMetadataRemoveSchema,
    input,
    async (tx, d) => {
      const agg = await aggregateById(tx, d.id);
      if (d.key === "availability_zone") {
        await tx.aggregate.update({ where: { id: agg.id }, data: { availabilityZone: null } });
      } else {
        const { count } = await tx.aggregateMetadata.deleteMany({ where: { aggregateId: agg.id, key: d.key } });
        if (!count) throw new MutationError(null, `metadata key "${d.key}" is not set on this aggregate`);
      }
      return { key: d.key };
    },
    { revalidate: pathsFor(String(input.aggregate_name ?? "")), message: `Removed ${String(input.key ?? "")}.` },
  );
}

export async function addAggregateHosts(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = formToObject(form);
  return mutate(
    "aggregate.hosts.add",
    AggregateHostsAddSchema,
    input,
    async (tx, d) => {
      const agg = await aggregateById(tx, d.id);
      const names = [...new Set(d.hosts.map((h) => h.trim()).filter(Boolean))];
      const hosts = await tx.computeHost.findMany({ where: { name: { in: names } }, select: { id: true, name: true } });
      const found = new Set(hosts.map((h) => h.name));
      const missing = names.filter((n) => !found.has(n));
      if (missing.length)
        throw new MutationError(
          "hosts",
          `hosts: unknown host${missing.length > 1 ? "s" : ""} ${missing.map((m) => `"${m}"`).join(", ")}`,
        );
      const already = await tx.aggregateHost.findMany({
        where: { aggregateId: agg.id, hostId: { in: hosts.map((h) => h.id) } },
        select: { hostId: true },
      });
      const skip = new Set(already.map((a) => a.hostId));
      const toAdd = hosts.filter((h) => !skip.has(h.id));
      const conflict = await zoneConflict(
        tx,
        agg.id,
        agg.availabilityZone,
        toAdd.map((h) => h.id),
      );
      if (conflict) throw new MutationError("hosts", `hosts: ${conflict}`);
      // keep the order the operator picked them in
      const order = new Map(names.map((n, i) => [n, i]));
      toAdd.sort((a, b) => order.get(a.name)! - order.get(b.name)!);
      for (const h of toAdd) await tx.aggregateHost.create({ data: { aggregateId: agg.id, hostId: h.id } });
      return { added: toAdd.map((h) => h.name), skipped: hosts.length - toAdd.length };
    },
    { revalidate: pathsFor(String(input.aggregate_name ?? "")) },
  ).then((r) =>
    r.ok
      ? {
          ...r,
          message:
            `Added ${r.data.added.length} host${r.data.added.length === 1 ? "" : "s"}` +
            (r.data.added.length ? `: ${r.data.added.join(", ")}` : "") +
            (r.data.skipped ? ` (${r.data.skipped} already in the aggregate)` : "") +
            ".",
        }
      : r,
  );
}

export async function removeAggregateHost(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = formToObject(form);
  return mutate(
    "aggregate.hosts.remove",
    AggregateHostRemoveSchema,
    input,
    async (tx, d) => {
      const agg = await aggregateById(tx, d.id);
      const host = await tx.computeHost.findUnique({ where: { name: d.host }, select: { id: true } });
      const { count } = host
        ? await tx.aggregateHost.deleteMany({ where: { aggregateId: agg.id, hostId: host.id } })
        : { count: 0 };
      if (!count) throw new MutationError(null, `host ${d.host} is not in this aggregate`);
      return { host: d.host };
    },
    {
      revalidate: pathsFor(String(input.aggregate_name ?? "")),
      message: `Removed ${String(input.host ?? "")} from the aggregate.`,
    },
  );
}
