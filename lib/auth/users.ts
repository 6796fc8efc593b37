/**
 * User management (the users CLI): add, list, set-role, remove. Each change
 * is written with its audit entry in one transaction; passwords are hashed
 * by better-auth (scrypt) and never stored, printed or logged in clear.
 */
import { getAuth } from "@/lib/auth/auth";
import { type Role, roleProblem } from "@/lib/core/roles";
import type { PrismaClient } from "@/lib/db/client";

export class UserInputError extends Error {}

/** better-auth's username rule: 3 to 30 letters, digits, '_' or '.'. */
const NAME_RULE = /^[a-zA-Z0-9_.]{3,30}$/;

export function nameProblem(name: string): string | null {
  if (NAME_RULE.test(name)) return null;
  return `NAME: must be 3 to 30 letters, digits, '_' or '.' (got ${JSON.stringify(name)})`;
}

export function passwordProblem(password: string): string | null {
  if (password.length < 8) return "password: must be at least 8 characters";
  if (password.length > 128) return "password: must be at most 128 characters";
  return null;
}

function checkRole(role: string): Role {
  const p = roleProblem(role);
  if (p) throw new UserInputError(p);
  return role as Role;
}

export interface UserRow {
  name: string;
  role: string;
  createdAt: Date;
  sessions: number;
}

const CLI_ACTOR = { userId: null, userName: "(users CLI)", role: "admin" };

async function auditUser(
  db: Pick<PrismaClient, "auditEntry">,
  action: string,
  name: string,
  before: object | null,
  after: object | null,
) {
  await db.auditEntry.create({
    data: {
      ...CLI_ACTOR,
      action,
      entity: "user",
      entityKey: name,
      before: before ? JSON.stringify(before) : null,
      after: after ? JSON.stringify(after) : null,
    },
  });
}

export async function addUser(db: PrismaClient, rawName: string, rawRole: string, password: string): Promise<void> {
  const name = rawName.trim();
  const problem = nameProblem(name);
  if (problem) throw new UserInputError(problem);
  const role = checkRole(rawRole);
  const pw = passwordProblem(password);
  if (pw) throw new UserInputError(pw);
  const username = name.toLowerCase();
  if (await db.user.findUnique({ where: { username } }))
    throw new UserInputError(`NAME: a user named "${username}" already exists`);
  const ctx = await (await getAuth(db)).$context;
  const hash = await ctx.password.hash(password);
  const id = ctx.generateId({ model: "user" }) || crypto.randomUUID();
  // User, credential Account and audit entry together, or nothing.
  await db.$transaction(async (tx) => {
    await tx.user.create({
      data: {
        id,
        name,
        username,
        displayUsername: name,
        email: `${username}@users.schedscope.invalid`,
        role,
      },
    });
    await tx.account.create({
      data: {
        id: ctx.generateId({ model: "account" }) || crypto.randomUUID(),
        accountId: id,
        providerId: "credential",
        userId: id,
        password: hash,
      },
    });
    await auditUser(tx, "user.add", username, null, { name: username, role });
  });
}

export async function listUsers(db: PrismaClient): Promise<UserRow[]> {
  const users = await db.user.findMany({
    orderBy: { username: "asc" },
    select: { name: true, username: true, role: true, createdAt: true, _count: { select: { sessions: true } } },
  });
  return users.map((u) => ({
    name: u.username ?? u.name,
    role: u.role,
    createdAt: u.createdAt,
    sessions: u._count.sessions,
  }));
}

async function userByName(db: Pick<PrismaClient, "user">, rawName: string) {
  const username = rawName.trim().toLowerCase();
  const u = await db.user.findUnique({ where: { username } });
  if (!u) throw new UserInputError(`NAME: no user named "${username}"`);
  return u;
}

export async function setRole(db: PrismaClient, rawName: string, rawRole: string): Promise<void> {
  const role = checkRole(rawRole);
  await db.$transaction(async (tx) => {
    const u = await userByName(tx, rawName);
    await tx.user.update({ where: { id: u.id }, data: { role } });
    await auditUser(tx, "user.role", u.username ?? u.name, { role: u.role }, { role });
  });
}

/** Removes the user and signs out all their sessions (cascade). Their audit history stays. */
export async function removeUser(db: PrismaClient, rawName: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const u = await userByName(tx, rawName);
    await tx.user.delete({ where: { id: u.id } });
    await auditUser(tx, "user.remove", u.username ?? u.name, { name: u.username, role: u.role }, null);
  });
}

export async function countUsers(db: PrismaClient): Promise<number> {
  return db.user.count();
}
