"use server";

import { randomUUID } from "node:crypto";
import { deleteAction, formAction, keyRemoved, keySaved } from "@/lib/actions/form-action";
import { MutationError, type ActionResult } from "@/lib/actions/mutation";
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
/** The pages of the aggregate the form is about (it sends the aggregate's name). */
const formPaths = (input: Record<string, unknown>) => pathsFor(String(input.aggregate_name ?? ""));
const aggregateHref = (name: string) => `/aggregates/${encodeURIComponent(name)}`;

export async function createAggregate(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "aggregate.create",
    AggregateCreateSchema,
    form,
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
    {
      revalidate: pathsFor(),
      message: "Aggregate created.",
      redirectTo: (r) => `${aggregateHref(r.name)}?created=1`,
    },
  );
}

export async function renameAggregate(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "aggregate.rename",
    AggregateRenameSchema,
    form,
    async (tx, d) => {
      const agg = await aggregateById(tx, d.id);
      if (agg.name === d.name) return { name: d.name, old: agg.name };
      await assertAggregateNameFree(tx, d.name, d.id);
      await tx.aggregate.update({ where: { id: d.id }, data: { name: d.name } });
      return { name: d.name, old: agg.name };
    },
    {
      revalidate: pathsFor(),
      message: "Aggregate renamed.",
      redirectTo: (r) => (r.name !== r.old ? `${aggregateHref(r.name)}?renamed=1` : null),
    },
  );
}

export async function deleteAggregate(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return deleteAction("aggregate.delete", AggregateIdSchema, form, {
    what: "aggregate",
    find: (tx, id) => tx.aggregate.findUnique({ where: { id } }),
    remove: (tx, id) => tx.aggregate.delete({ where: { id } }),
    label: (agg) => agg.name,
    list: "/aggregates",
    revalidate: pathsFor(),
    message: "Aggregate deleted.",
  });
}

export async function setAggregateZone(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "aggregate.zone",
    AggregateZoneSchema,
    form,
    async (tx, d) => {
      const agg = await aggregateById(tx, d.id);
      const conflict = await zoneConflict(tx, d.id, d.availability_zone, "members");
      if (conflict) throw new MutationError("availability_zone", `availability_zone: ${conflict}`);
      await tx.aggregate.update({ where: { id: agg.id }, data: { availabilityZone: d.availability_zone } });
      return { zone: d.availability_zone };
    },
    { revalidate: formPaths, message: "Availability zone saved." },
  );
}

/** Add or change one metadata key (in place: original_key = the row's key before the edit). */
export async function saveAggregateMetadata(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "aggregate.metadata.save",
    AggregateMetadataSchema,
    form,
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
    { revalidate: formPaths, message: keySaved },
  );
}

export async function removeAggregateMetadata(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "aggregate.metadata.remove",
    AggregateMetadataRemoveSchema,
    form,
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
    { revalidate: formPaths, message: keyRemoved },
  );
}

export async function addAggregateHosts(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "aggregate.hosts.add",
    AggregateHostsAddSchema,
    form,
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
    {
      revalidate: formPaths,
      message: ({ added, skipped }) =>
        `Added ${added.length} host${added.length === 1 ? "" : "s"}` +
        (added.length ? `: ${added.join(", ")}` : "") +
        (skipped ? ` (${skipped} already in the aggregate)` : "") +
        ".",
    },
  );
}

export async function removeAggregateHost(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "aggregate.hosts.remove",
    AggregateHostRemoveSchema,
    form,
    async (tx, d) => {
      const agg = await aggregateById(tx, d.id);
      const host = await tx.computeHost.findUnique({ where: { name: d.host }, select: { id: true } });
      const { count } = host
        ? await tx.aggregateHost.deleteMany({ where: { aggregateId: agg.id, hostId: host.id } })
        : { count: 0 };
      if (!count) throw new MutationError(null, `host ${d.host} is not in this aggregate`);
      return { host: d.host };
    },
    { revalidate: formPaths, message: (_r, input) => `Removed ${String(input.host ?? "")} from the aggregate.` },
  );
}
