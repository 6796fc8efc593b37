/** What a `cloud` subcommand is (lib/cloud-cli/index.ts dispatches to COMMANDS). */
import type { PrismaClient } from "@/lib/db/client";
import type { Env } from "@/lib/openstack-api/clouds-yaml";

/** A bad command line: exit 2 and the usage. */
export class UsageError extends Error {}

export interface CommandContext {
  prisma: PrismaClient;
  /** one JSON line on stdout */
  emit: (event: string, data?: Record<string, unknown>) => void;
  env: Env;
}

export interface CloudCommand {
  /** one usage line: "sync [--os-cloud NAME]" */
  usage: string;
  summary: string;
  /** flags it takes (without --), and which of them take no value */
  flags: string[];
  booleans?: string[];
  run: (args: { positional: string[]; flags: Record<string, string | true> }, ctx: CommandContext) => Promise<number>;
}
