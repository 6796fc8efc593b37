/**
 * One sync at a time across every instance on one database: a lease kept in
 * AppSetting "sync.lease" ({holder, until}). Taking it is a compare-and-swap
 * (an insert, or an update of the exact expired value), so two instances on
 * one PostgreSQL cannot both win; the holder renews it while it works, and a
 * crashed holder's lease runs out.
 */
import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";

const LEASE_KEY = "sync.lease";
export const LEASE_MS = 90_000;

export interface Lease {
  holder: string;
  /** what holds it, for the message to whoever is refused */
  label: string;
  until: number;
}

export class SyncBusyError extends Error {
  constructor(readonly held: Lease) {
    super(`a sync is already running (${held.label}); one sync at a time — wait for it to finish`);
  }
}

function parse(value: string): Lease | null {
  try {
    const v = JSON.parse(value) as Lease;
    return typeof v.holder === "string" && typeof v.until === "number" ? v : null;
  } catch {
    return null;
  }
}

/** Take the lease or throw SyncBusyError; returns the release and renew handles. */
export async function takeLease(
  db: Db,
  label: string,
  now: () => number = Date.now,
): Promise<{ release: () => Promise<void>; renew: () => Promise<boolean>; holder: string }> {
  const holder = randomUUID();
  const value = () => JSON.stringify({ holder, label, until: now() + LEASE_MS });
  const row = await db.appSetting.findUnique({ where: { key: LEASE_KEY } });
  if (!row) {
    try {
      await db.appSetting.create({ data: { key: LEASE_KEY, value: value() } });
    } catch {
      const other = await db.appSetting.findUnique({ where: { key: LEASE_KEY } });
      throw new SyncBusyError(parse(other?.value ?? "") ?? { holder: "?", label: "another instance", until: 0 });
    }
  } else {
    const held = parse(row.value);
    if (held && held.until > now()) throw new SyncBusyError(held);
    const { count } = await db.appSetting.updateMany({
      where: { key: LEASE_KEY, value: row.value },
      data: { value: value() },
    });
    if (count !== 1) {
      const other = await db.appSetting.findUnique({ where: { key: LEASE_KEY } });
      throw new SyncBusyError(parse(other?.value ?? "") ?? { holder: "?", label: "another instance", until: 0 });
    }
  }
  const mine = async () => {
    const r = await db.appSetting.findUnique({ where: { key: LEASE_KEY } });
    return r && parse(r.value)?.holder === holder ? r : null;
  };
  return {
    holder,
    renew: async () => {
      const r = await mine();
      if (!r) return false;
      const { count } = await db.appSetting.updateMany({
        where: { key: LEASE_KEY, value: r.value },
        data: { value: value() },
      });
      return count === 1;
    },
    release: async () => {
      const r = await mine();
      if (r) await db.appSetting.deleteMany({ where: { key: LEASE_KEY, value: r.value } });
    },
  };
}

/** The lease held now, if any (for the page: "a sync started by X is running"). */
export async function currentLease(db: Db, now: () => number = Date.now): Promise<Lease | null> {
  const row = await db.appSetting.findUnique({ where: { key: LEASE_KEY } });
  const held = row ? parse(row.value) : null;
  return held && held.until > now() ? held : null;
}
