"use server";
/**
 * The /connections page's actions: save, remove, test a connection, start
 * a sync, set the schedule. Saves and removals go through mutate() (admin,
 * validated, one transaction) and write their own audit entry: the settings
 * without secrets, and whether a secret changed, never its value.
 */
import { type ActionResult, MutationError, mutate, formToObject } from "@/lib/actions/mutation";
import { currentActor, refusalFor } from "@/lib/auth/session";
import type { Tx } from "@/lib/db/client";
import { prisma } from "@/lib/db";
import { ApiError } from "@/lib/openstack-api/http";
import { authenticate, type CloudSettings, endpointFor } from "@/lib/openstack-api/keystone";
import { connectionSettings, fetchFor, sealSecrets, splitSecrets } from "./connections";
import { ConnectionIdSchema, ConnectionSchema, ScheduleSchema } from "./input";
import { currentLease } from "./lock";
import { runSync, SyncFailed } from "./run";
import { writeSchedule } from "./schedule";
import { credentialsKey, unseal } from "./seal";

async function audit(
  tx: Tx,
  actor: { userId: string | null; name: string; role: string },
  action: string,
  name: string,
  before: unknown,
  after: unknown,
) {
  await tx.auditEntry.create({
    data: {
      userId: actor.userId,
      userName: actor.name,
      role: actor.role,
      action,
      entity: "connection",
      entityKey: name,
      before: before === null ? null : JSON.stringify(before),
      after: after === null ? null : JSON.stringify(after),
    },
  });
}

export async function saveConnectionAction(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return mutate(
    "connection.save",
    ConnectionSchema,
    formToObject(form),
    async (tx, d, _p, actor) => {
      const { settings, secrets } = splitSecrets(d.settings);
      const old = d.id ? await tx.cloudConnection.findUnique({ where: { id: d.id } }) : null;
      if (d.id && !old) throw new MutationError(null, "this connection no longer exists (removed meanwhile?)");
      let kept: Record<string, string> = {};
      if (old) {
        // blank secret fields keep what is stored
        try {
          kept = JSON.parse(unseal(await credentialsKey(tx as never), old.secret, old.name));
        } catch {
          kept = {};
        }
      }
      const merged = { ...kept, ...secrets };
      if (!merged.password && !merged.application_credential_secret)
        throw new MutationError(
          settings.auth_type && /application/.test(String(settings.auth_type))
            ? "application_credential_secret"
            : "password",
          "password: is required (or an application credential secret)",
        );
      const sealed = await sealSecrets(tx, d.name, merged);
      const row = old
        ? await tx.cloudConnection.update({
            where: { id: old.id },
            data: { name: d.name, settings: JSON.stringify(settings), secret: sealed, version: { increment: 1 } },
          })
        : await tx.cloudConnection.create({
            data: { name: d.name, settings: JSON.stringify(settings), secret: sealed },
          });
      await audit(
        tx,
        actor,
        "connection.save",
        d.name,
        old ? { name: old.name, settings: JSON.parse(old.settings) } : null,
        { name: d.name, settings, secretChanged: Object.keys(secrets).length > 0 },
      );
      return { id: row.id, name: row.name };
    },
    { revalidate: ["/connections"], changesCloud: false, message: "Connection saved." },
  );
}

export async function deleteConnectionAction(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return mutate(
    "connection.delete",
    ConnectionIdSchema,
    formToObject(form),
    async (tx, d, _p, actor) => {
      const old = await tx.cloudConnection.findUnique({ where: { id: d.id } });
      if (!old) throw new MutationError(null, "this connection no longer exists (removed meanwhile?)");
      await tx.cloudConnection.delete({ where: { id: d.id } });
      await audit(
        tx,
        actor,
        "connection.delete",
        old.name,
        { name: old.name, settings: JSON.parse(old.settings) },
        null,
      );
      return { id: d.id };
    },
    { revalidate: ["/connections"], changesCloud: false, message: "Connection removed." },
  );
}

async function allowed(
  action: string,
): Promise<
  | { ok: false; formError: string; fieldErrors: Record<string, string[]> }
  | { actor: NonNullable<Awaited<ReturnType<typeof currentActor>>> }
> {
  const actor = await currentActor();
  const refusal = refusalFor(actor, action);
  if (refusal || !actor) return { ok: false, formError: refusal?.message ?? "Sign in first.", fieldErrors: {} };
  return { actor };
}

/** Keystone and the catalog only: the credentials work, the endpoints are there, the roles are admin's. */
export async function testConnectionAction(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const a = await allowed("cloud.sync");
  if ("ok" in a) return a;
  const p = ConnectionIdSchema.safeParse(formToObject(form));
  if (!p.success) return { ok: false, formError: "id: must be a connection id", fieldErrors: {} };
  const row = await prisma.cloudConnection.findUnique({ where: { id: p.data.id } });
  if (!row) return { ok: false, formError: "this connection no longer exists (removed meanwhile?)", fieldErrors: {} };
  try {
    const s = await connectionSettings(prisma, row);
    const session = await authenticate(fetchFor(s), s, 30_000);
    const endpoints = Object.fromEntries(
      ["compute", "placement", "image"].map((t) => {
        try {
          return [t, endpointFor(session, t, s)];
        } catch (e) {
          return [t, `missing: ${(e as Error).message}`];
        }
      }),
    );
    const admin = session.roles.includes("admin");
    return {
      ok: true,
      data: { roles: session.roles, endpoints },
      message: `Keystone accepted the credentials (roles: ${session.roles.join(", ") || "none"})${admin ? "" : "; without the admin role Nova hides hypervisors and other projects' servers"}.`,
    };
  } catch (e) {
    const msg = e instanceof ApiError ? e.message : (e as Error).message;
    return { ok: false, formError: msg, fieldErrors: {} };
  }
}

/** Start a sync in the background; the page follows it through GET /api/sync. */
export async function startSyncAction(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const a = await allowed("cloud.sync");
  if ("ok" in a) return a;
  const p = ConnectionIdSchema.safeParse(formToObject(form));
  if (!p.success) return { ok: false, formError: "id: must be a connection id", fieldErrors: {} };
  const row = await prisma.cloudConnection.findUnique({ where: { id: p.data.id } });
  if (!row) return { ok: false, formError: "this connection no longer exists (removed meanwhile?)", fieldErrors: {} };
  const held = await currentLease(prisma);
  if (held) return { ok: false, formError: `a sync is already running (${held.label})`, fieldErrors: {} };
  let settings: CloudSettings;
  try {
    settings = await connectionSettings(prisma, row);
  } catch (e) {
    return { ok: false, formError: (e as Error).message, fieldErrors: {} };
  }
  void runSync(prisma, {
    connectionName: row.name,
    connectionId: row.id,
    settings,
    actor: { userId: a.actor.userId, userName: a.actor.name, role: a.actor.role },
    startedBy: a.actor.name,
  }).catch((e) => {
    // recorded on the SyncRun; a refused lease (another instance) shows as "already running"
    if (!(e instanceof SyncFailed)) console.error("sync:", (e as Error).message);
  });
  return { ok: true, data: { started: true }, message: "Sync started." };
}

export async function saveScheduleAction(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return mutate(
    "sync.schedule",
    ScheduleSchema,
    formToObject(form),
    async (tx, d, _p, actor) => {
      const conn = await tx.cloudConnection.findUnique({ where: { id: d.id } });
      if (!conn) throw new MutationError("id", "connection: no longer exists");
      await writeSchedule(tx as never, { connectionId: d.id, minutes: d.minutes });
      await audit(tx, actor, "sync.schedule", conn.name, null, { minutes: d.minutes });
      return d;
    },
    {
      revalidate: ["/connections"],
      changesCloud: false,
      message: "Schedule saved.",
    },
  );
}
