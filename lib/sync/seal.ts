/**
 * Cloud credentials at rest: AES-256-GCM with a key from
 * SCHEDSCOPE_CREDENTIALS_KEY (any text; its SHA-256 is the key) or, without
 * it, a random key generated once and kept in the database (AppSetting
 * "sync.credentials-key"), as the sign-in secret is: every instance on one
 * database can read what another sealed. With the variable set, a copy of
 * the database alone does not reveal the passwords.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { Db } from "@/lib/db/client";

const KEY_SETTING = "sync.credentials-key";

export async function credentialsKey(db: Db): Promise<Buffer> {
  const fromEnv = process.env.SCHEDSCOPE_CREDENTIALS_KEY?.trim();
  if (fromEnv) return createHash("sha256").update(fromEnv).digest();
  const row = await db.appSetting.findUnique({ where: { key: KEY_SETTING } });
  if (row) return Buffer.from(row.value, "base64url");
  try {
    await db.appSetting.create({ data: { key: KEY_SETTING, value: randomBytes(32).toString("base64url") } });
  } catch {
    // another instance created it first: use theirs
  }
  return Buffer.from((await db.appSetting.findUniqueOrThrow({ where: { key: KEY_SETTING } })).value, "base64url");
}

export class UnsealError extends Error {}

/** "v1:" + base64url(iv | tag | ciphertext); `context` (the connection's name) is bound as associated data. */
export function seal(key: Buffer, plain: string, context: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", key, iv);
  c.setAAD(Buffer.from(context));
  const body = Buffer.concat([c.update(plain, "utf8"), c.final()]);
  return `v1:${Buffer.concat([iv, c.getAuthTag(), body]).toString("base64url")}`;
}

export function unseal(key: Buffer, sealed: string, context: string): string {
  if (!sealed.startsWith("v1:")) throw new UnsealError("the stored secret is not in a known format");
  const raw = Buffer.from(sealed.slice(3), "base64url");
  if (raw.length < 28) throw new UnsealError("the stored secret is truncated");
  const d = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
  d.setAAD(Buffer.from(context));
  d.setAuthTag(raw.subarray(12, 28));
  try {
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString("utf8");
  } catch {
    throw new UnsealError(
      "the stored secret cannot be opened with this key (was SCHEDSCOPE_CREDENTIALS_KEY changed?): enter the password again",
    );
  }
}
