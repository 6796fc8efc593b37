/**
 * The timed half of bench/logs.ts, in a process of its own: parse one log
 * file into scheduling calls, print MB, seconds, calls and the peak RSS.
 */
import { createReadStream, statSync } from "node:fs";
import { readLogs } from "../lib/nova-logs/read";

async function parse(file: string): Promise<void> {
  const size = statSync(file).size;
  let calls = 0;
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  const stats = await readLogs([{ name: file, chunks: createReadStream(file, { highWaterMark: 1 << 20 }), size }], {
    onCall: () => calls++,
  });
  const s = (performance.now() - t) / 1000;
  const used = process.cpuUsage(cpu0);
  const cpuSeconds = (used.user + used.system) / 1e6;
  const peak = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(
    `${JSON.stringify({ mb: size / 1048576, seconds: s, calls, lines: stats.lines, unparsed: stats.unparsed, peakRssMb: peak, cpuSeconds })}\n`,
  );
}

parse(process.argv[2]).catch((e) => {
  console.error(e);
  process.exit(1);
});
