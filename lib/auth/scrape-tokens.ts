/**
 * Read-only tokens for machines that scrape /metrics (Prometheus): no user,
 * no session, no cookie. A token is 32 random bytes shown once when it is
 * added; only its SHA-256 is stored (a random 256-bit secret needs no salt
 * or slow hash: nobody can guess it, only look it up). Adding and revoking
 * are audited (entity `scrape-token`); a revoked token's row stays, with
 * the date, so the audit and `token list` still name it.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { PrismaClient } from "@/lib/db/client";
import { UserInputError } from "./users";

/** Tokens start with a fixed prefix, so a leaked one is recognisable in a secret scanner. */
const PREFIX = "sst_";

export const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** A token's name: 3 to 64 letters, digits, '_', '.' or '-' (a scraper's host name fits). */
const NAME_RULE = /^[a-z0-9_.-]{3,64}$/;

export function tokenNameProblem(name: string): string | null {
  if (NAME_RULE.test(name)) return null;
  return `NAME: must be 3 to 64 letters, digits, '_', '.' or '-' (got ${JSON.stringify(name)})`;
}

const CLI_ACTOR = { userId: null, userName: "(users CLI)", role: "admin" };

export interface ScrapeTokenRow {
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** Add a token named NAME; returns the token (the only time it is ever shown). */
export async function addScrapeToken(db: PrismaClient, rawName: string): Promise<string> {
  const name = rawName.trim().toLowerCase();
  const problem = tokenNameProblem(name);
  if (problem) throw new UserInputError(problem);
  const token = PREFIX + randomBytes(32).toString("base64url");
  await db.$transaction(async (tx) => {
    if (await tx.scrapeToken.findUnique({ where: { name } }))
      throw new UserInputError(`NAME: a scrape token named "${name}" already exists (revoked ones keep their name)`);
    await tx.scrapeToken.create({ data: { name, tokenHash: hashToken(token) } });
    await tx.auditEntry.create({
      data: {
        ...CLI_ACTOR,
        action: "scrape-token.add",
        entity: "scrape-token",
        entityKey: name,
        before: null,
        after: JSON.stringify({ name, scope: "metrics:read" }),
      },
    });
  });
  return token;
}

export async function listScrapeTokens(db: PrismaClient): Promise<ScrapeTokenRow[]> {
  return db.scrapeToken.findMany({
    orderBy: { name: "asc" },
    select: { name: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
}

export async function revokeScrapeToken(db: PrismaClient, rawName: string): Promise<void> {
  const name = rawName.trim().toLowerCase();
  await db.$transaction(async (tx) => {
    const row = await tx.scrapeToken.findUnique({ where: { name } });
    if (!row) throw new UserInputError(`NAME: no scrape token named "${name}"`);
    if (row.revokedAt) throw new UserInputError(`NAME: the scrape token "${name}" is already revoked`);
    await tx.scrapeToken.update({ where: { id: row.id }, data: { revokedAt: new Date() } });
    await tx.auditEntry.create({
      data: {
        ...CLI_ACTOR,
        action: "scrape-token.revoke",
        entity: "scrape-token",
        entityKey: name,
        before: JSON.stringify({ name, revoked: false }),
        after: JSON.stringify({ name, revoked: true }),
      },
    });
  });
}

/** The bearer token of an Authorization header, or null (no header, another scheme, empty). */
export function bearerToken(headers: Headers): string | null {
  const h = headers.get("authorization");
  const m = h ? /^Bearer[ ]+([A-Za-z0-9._~+/=-]{1,512})\s*$/i.exec(h) : null;
  return m ? m[1] : null;
}

/**
 * The name of the live token this request carries, or null. Looked up by
 * hash (an index), then compared in constant time; marks the token used
 * (at most once a minute, so scrapes do not write on every request).
 */
export async function scrapeTokenName(db: PrismaClient, headers: Headers): Promise<string | null> {
  const token = bearerToken(headers);
  if (!token) return null;
  const hash = hashToken(token);
  const row = await db.scrapeToken.findUnique({ where: { tokenHash: hash } });
  if (!row || row.revokedAt) return null;
  if (!timingSafeEqual(Buffer.from(row.tokenHash, "hex"), Buffer.from(hash, "hex"))) return null;
  const now = new Date();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000)
    await db.scrapeToken.update({ where: { id: row.id }, data: { lastUsedAt: now } }).catch(() => undefined);
  return row.name;
}
