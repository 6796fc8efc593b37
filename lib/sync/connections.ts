/**
 * Stored connections: settings in clear (nothing secret), the password or
 * application credential secret sealed (seal.ts). What leaves for a browser
 * is publicConnection(): which secret is set, never its value.
 */
import fs from "node:fs";
import type { Db, Tx } from "@/lib/db/client";
import type { CloudSettings } from "@/lib/openstack-api/keystone";
import { SECRET_KEYS } from "@/lib/openstack-api/keystone";
import { nodeFetch } from "@/lib/openstack-api/transport";
import type { FetchLike } from "@/lib/openstack-api/http";
import { credentialsKey, seal, unseal } from "./seal";

export type SecretKey = (typeof SECRET_KEYS)[number];

export function splitSecrets(s: CloudSettings): {
  settings: Record<string, unknown>;
  secrets: Partial<Record<SecretKey, string>>;
} {
  const settings: Record<string, unknown> = { ...s };
  const secrets: Partial<Record<SecretKey, string>> = {};
  for (const k of SECRET_KEYS) {
    const v = settings[k];
    delete settings[k];
    if (typeof v === "string" && v) secrets[k] = v;
  }
  return { settings, secrets };
}

export interface PublicConnection {
  id: number;
  name: string;
  version: number;
  settings: Record<string, unknown>;
  /** which secrets are stored (values never leave the server) */
  secretsSet: SecretKey[];
  updatedAt: string;
}

export async function sealSecrets(
  db: Db | Tx,
  name: string,
  secrets: Partial<Record<SecretKey, string>>,
): Promise<string> {
  return seal(await credentialsKey(db as Db), JSON.stringify(secrets), name);
}

export async function connectionSettings(
  db: Db,
  row: { name: string; settings: string; secret: string },
): Promise<CloudSettings> {
  const secrets = JSON.parse(unseal(await credentialsKey(db), row.secret, row.name)) as Record<string, string>;
  return { ...(JSON.parse(row.settings) as CloudSettings), ...secrets };
}

export async function publicConnection(
  db: Db,
  row: { id: number; name: string; version: number; settings: string; secret: string; updatedAt: Date },
): Promise<PublicConnection> {
  let secretsSet: SecretKey[] = [];
  try {
    const open = JSON.parse(unseal(await credentialsKey(db), row.secret, row.name)) as Record<string, string>;
    secretsSet = SECRET_KEYS.filter((k) => !!open[k]);
  } catch {
    // a secret sealed with another key: shown as not set, so the admin enters it again
  }
  const settings = JSON.parse(row.settings) as Record<string, unknown>;
  // a pasted CA is long: the page shows that one is there
  if (typeof settings.cacert === "string" && settings.cacert.includes("-----BEGIN")) settings.cacert = "(PEM stored)";
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    settings,
    secretsSet,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The transport for a cloud: its CA (a PEM stored with the connection, or a file clouds.yaml names) and verify flag. */
export function fetchFor(s: CloudSettings): FetchLike {
  let ca: string | undefined;
  if (s.cacert) {
    if (s.cacert.includes("-----BEGIN")) ca = s.cacert;
    else {
      try {
        ca = fs.readFileSync(s.cacert, "utf8");
      } catch (e) {
        throw new Error(`cacert: cannot read ${s.cacert} (${(e as NodeJS.ErrnoException).code ?? "error"})`);
      }
    }
  }
  return nodeFetch({ ca, verify: s.verify });
}
