/**
 * Worker processes released at the same moment: each runs a script under
 * tsx (with the react-server condition, as the app's server modules need),
 * says "ready" once connected, waits for "go" on standard input, and prints
 * its outcome as JSON on its last line. For tests of concurrent writes from
 * several processes, where the race must really happen.
 */
import { spawn } from "node:child_process";
import path from "node:path";

export async function releaseTogether<T>(workers: string[][]): Promise<T[]> {
  const tsx = path.resolve("node_modules/.bin/tsx");
  const started = workers.map((args) => {
    const child = spawn(tsx, ["--conditions=react-server", ...args], { stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (b: Buffer) => {
        out += b.toString();
        if (out.includes("ready\n")) resolve();
      });
      child.on("exit", (code) => reject(new Error(`${args[0]} exited (${code}) before it was ready: ${out}`)));
    });
    const done = new Promise<T>((resolve, reject) => {
      child.on("exit", () => {
        try {
          resolve(JSON.parse(out.trim().split("\n").pop() ?? "") as T);
        } catch {
          reject(new Error(`${args[0]} said: ${out}`));
        }
      });
    });
    return { child, ready, done };
  });
  await Promise.all(started.map((w) => w.ready));
  for (const w of started) w.child.stdin.end("go\n");
  return Promise.all(started.map((w) => w.done));
}
