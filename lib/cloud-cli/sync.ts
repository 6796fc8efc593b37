/** `cloud sync [--os-cloud NAME] [--connection NAME]`: one sync, progress and result as JSON lines. */
import os from "node:os";
import { findCloud } from "@/lib/openstack-api/clouds-yaml";
import type { CloudSettings } from "@/lib/openstack-api/keystone";
import { connectionSettings } from "@/lib/sync/connections";
import { runSync, SyncFailed } from "@/lib/sync/run";
import { SyncBusyError } from "@/lib/sync/lock";
import { type CloudCommand, UsageError } from "./command";

export const syncCommand: CloudCommand = {
  usage: "sync [--os-cloud NAME | --connection NAME] [--concurrency N] [--timeout SECONDS]",
  summary:
    "Read the cloud's APIs (GET only) and replace Schedscope's cloud with what they say, as a bundle import does. " +
    "The cloud is --os-cloud NAME (or OS_CLOUD) from clouds.yaml as the openstack client finds it, the OS_* " +
    "variables, or --connection NAME saved on /connections. Nothing is written when any read fails.",
  flags: ["os-cloud", "connection", "concurrency", "timeout"],
  async run({ positional, flags }, { prisma, emit, env }) {
    if (positional.length) throw new UsageError(`sync takes no positional arguments (got ${positional.join(" ")})`);
    const num = (name: string, min: number, max: number) => {
      const v = flags[name];
      if (v === undefined) return undefined;
      if (typeof v !== "string" || !/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
        throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got "${v}")`);
      return Number(v);
    };
    const concurrency = num("concurrency", 1, 64);
    const timeout = num("timeout", 1, 3600);
    let user = "unknown";
    try {
      user = os.userInfo().username;
    } catch {}
    const actor = { userId: null, userName: `(cloud CLI: ${user})`, role: "admin" };
    let name: string;
    let connectionId: number | null = null;
    let settings: CloudSettings;
    if (typeof flags.connection === "string") {
      const row = await prisma.cloudConnection.findUnique({ where: { name: flags.connection } });
      if (!row) throw new Error(`--connection: no saved connection "${flags.connection}"`);
      settings = await connectionSettings(prisma, row);
      name = row.name;
      connectionId = row.id;
    } else {
      const found = findCloud(typeof flags["os-cloud"] === "string" ? flags["os-cloud"] : undefined, env);
      settings = found.settings;
      name = found.source;
    }
    emit("start", { cloud: name, auth_url: settings.auth_url });
    try {
      const r = await runSync(prisma, {
        connectionName: name,
        connectionId,
        settings,
        actor,
        startedBy: `cli:${user}`,
        concurrency,
        timeoutMs: timeout !== undefined ? timeout * 1000 : undefined,
        onProgress: (p) => emit("progress", { ...p }),
      });
      emit("done", { ...r });
      return 0;
    } catch (e) {
      if (e instanceof SyncFailed) {
        emit("error", { kind: e.kind, message: e.message, details: e.details, run: e.runId });
        return 1;
      }
      if (e instanceof SyncBusyError) {
        emit("error", { kind: "busy", message: e.message });
        return 1;
      }
      throw e;
    }
  },
};
