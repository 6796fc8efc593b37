/**
 * The history subcommands (lib/history/cli.ts) as `cloud` commands: one
 * dispatcher for sync, history, diff and predictions. Their lines are the
 * history's own JSON objects; a refusal ends with {"event":"error",...}.
 */
import { CliUsageError, diff, history, predictions } from "@/lib/history/cli";
import { SnapshotNotFoundError } from "@/lib/history/store";
import { type CloudCommand, UsageError } from "./command";

type Handler = typeof history;

function historyCommand(handler: Handler, usage: string, summary: string, flags: string[]): CloudCommand {
  return {
    usage,
    summary,
    flags,
    run: async ({ positional, flags: given }, ctx) => {
      // the history's handlers read their own argument list
      const args = [...positional, ...Object.entries(given).flatMap(([k, v]) => [`--${k}`, String(v)])];
      try {
        return await handler(ctx.prisma, args, (line) => process.stdout.write(`${JSON.stringify(line)}\n`));
      } catch (e) {
        if (e instanceof CliUsageError) throw new UsageError(e.message);
        if (e instanceof SnapshotNotFoundError) {
          ctx.emit("error", { kind: "not_found", message: e.message });
          return 1;
        }
        throw e;
      }
    },
  };
}

export const historyCommands: Record<string, CloudCommand> = {
  history: historyCommand(
    history,
    "history [--limit N] [--max-snapshots N] [--max-age-days N|none]",
    "one line per snapshot, newest first, then the retention rule (the two --max options change it)",
    ["limit", "max-snapshots", "max-age-days"],
  ),
  diff: historyCommand(
    diff,
    "diff A B",
    'what changed from snapshot A to B (ids, "latest", "previous"), one line per change, then a summary',
    [],
  ),
  predictions: historyCommand(
    predictions,
    "predictions [SNAPSHOT]",
    "where Schedscope would have put each server new in SNAPSHOT (default: the newest), beside Nova's choice",
    [],
  ),
};
