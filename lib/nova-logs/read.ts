/**
 * Streams log files (plain or gzip, several at once) into scheduling calls
 * with bounded memory: bytes are split into lines as they arrive, a line
 * longer than the limit is skipped without being held, binary lines and
 * lines in no known format are counted and skipped. A truncated gzip keeps
 * what it gave and is reported.
 */
import { createGunzip } from "node:zlib";
import { CallAssembler, readsLogger } from "./calls";
import { parseLogLine } from "./line";
import type { ReadStats, SchedulingCall } from "./types";

export const MAX_LINE_BYTES = 1 << 20;

/** oslo.log's time, process and level, then the logger and its context's opening bracket. */
const OSLO_HEAD =
  /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d{1,6})? \d+ (?:DEBUG|INFO|WARNING|ERROR|CRITICAL|TRACE|AUDIT) (\S+) \[/;

export interface LogInput {
  /** Shown in reports and call sources; never used as a path here. */
  name: string;
  /** The file's bytes as they come (a Node stream or a web stream's reader). */
  chunks: AsyncIterable<Uint8Array>;
  /** Bytes of the input as stored (compressed when gzip), for progress. */
  size?: number;
}

export interface ReadOptions {
  onCall: (call: SchedulingCall) => void;
  /** Called every few MB with the input bytes read so far and the total when known. */
  onProgress?: (read: number, total: number | null) => void;
  maxLineBytes?: number;
  /** At the end: Nova request id -> Placement's allocation-candidates query, from placement-api's log. */
  onQueries?: (queries: Map<string, string>) => void;
}

const GZIP_MAGIC = [0x1f, 0x8b];

/** Decompress when the first bytes say gzip, counting the stored bytes for progress. */
async function* decoded(input: LogInput, counted: (n: number) => void): AsyncGenerator<Buffer, void, undefined> {
  const it = input.chunks[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return;
  const head = Buffer.from(first.value);
  const gzip = head.length >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  async function* raw(): AsyncGenerator<Buffer> {
    counted(head.length);
    yield head;
    for (;;) {
      const n = await it.next();
      if (n.done) return;
      counted(n.value.length);
      yield Buffer.from(n.value.buffer, n.value.byteOffset, n.value.byteLength);
    }
  }
  if (!gzip) {
    yield* raw();
    return;
  }
  const gunzip = createGunzip();
  const source = raw();
  // Feed the decompressor as it asks, so memory stays at one chunk in flight.
  const pump = (async () => {
    try {
      for await (const c of source) {
        if (!gunzip.write(c)) await new Promise<void>((r) => gunzip.once("drain", r));
      }
      gunzip.end();
    } catch (e) {
      gunzip.destroy(e as Error);
    }
  })();
  for await (const c of gunzip as AsyncIterable<Buffer>) yield c;
  await pump;
}

function looksBinary(buf: Buffer): boolean {
  const n = Math.min(buf.length, 4096);
  let zeros = 0;
  for (let i = 0; i < n; i++) if (buf[i] === 0) zeros++;
  return zeros > n / 100;
}

export function emptyStats(): ReadStats {
  return { files: 0, bytes: 0, lines: 0, unparsed: 0, tooLong: 0, binary: 0, refused: [], calls: 0 };
}

/**
 * Read every input in turn; calls are handed to `onCall` as they finish (a
 * request's lines in several files are joined, as they are when nova-scheduler
 * rotates its log).
 */
export async function readLogs(inputs: LogInput[], options: ReadOptions): Promise<ReadStats> {
  const maxLine = options.maxLineBytes ?? MAX_LINE_BYTES;
  const stats = emptyStats();
  const total = inputs.every((i) => i.size !== undefined) ? inputs.reduce((s, i) => s + (i.size ?? 0), 0) : null;
  let read = 0;
  let reported = 0;
  const counted = (n: number) => {
    read += n;
    stats.bytes += n;
    if (options.onProgress && read - reported >= 4 << 20) {
      reported = read;
      options.onProgress(read, total);
    }
  };
  const assembler = new CallAssembler({
    onCall: (c) => {
      stats.calls++;
      options.onCall(c);
    },
  });

  for (const input of inputs) {
    stats.files++;
    let lineNo = 0;
    let carry: Buffer[] = [];
    let carryLen = 0;
    let skipping = false; // inside a line longer than the limit
    let first = true;
    let nulInChunk = true;
    const take = (buf: Buffer, start: number, end: number) => {
      lineNo++;
      stats.lines++;
      if (end - start === 0) return;
      // (a search bounded to the line: indexOf from `start` would scan to the chunk's end for every line)
      if (nulInChunk && buf.subarray(start, end).indexOf(0) !== -1) {
        stats.binary++;
        return;
      }
      // An oslo line of a logger no call is made of is counted as read from its first bytes alone,
      // without decoding the rest (most of a scheduler's DEBUG log: host states, locks).
      const first = buf[start];
      if (first >= 48 && first <= 57) {
        const head = OSLO_HEAD.exec(buf.toString("latin1", start, Math.min(end, start + 200)));
        if (head && !readsLogger(head[1])) return;
      }
      const text = buf.toString("utf8", start, end);
      if (text.includes("\uFFFD")) {
        stats.binary++;
        return;
      }
      const line = parseLogLine(text, readsLogger);
      if (!line) {
        stats.unparsed++;
        return;
      }
      assembler.push(line, input.name, lineNo);
    };
    try {
      for await (const chunk of decoded(input, counted)) {
        if (first) {
          first = false;
          if (looksBinary(chunk)) {
            stats.refused.push({ file: input.name, reason: "not a text log (binary data)" });
            break;
          }
        }
        nulInChunk = chunk.indexOf(0) !== -1 || carryLen > 0;
        let pos = 0;
        for (;;) {
          const nl = chunk.indexOf(10, pos);
          if (nl === -1) break;
          if (skipping) {
            skipping = false;
            lineNo++;
            stats.lines++;
          } else if (carryLen) {
            if (carryLen + nl - pos > maxLine) {
              stats.tooLong++;
              lineNo++;
              stats.lines++;
            } else {
              carry.push(chunk.subarray(pos, nl));
              const whole = Buffer.concat(carry);
              take(whole, 0, whole.length);
            }
            carry = [];
            carryLen = 0;
          } else if (nl - pos > maxLine) {
            stats.tooLong++;
            lineNo++;
            stats.lines++;
          } else take(chunk, pos, nl);
          pos = nl + 1;
        }
        if (pos < chunk.length && !skipping) {
          const rest = chunk.length - pos;
          if (carryLen + rest > maxLine) {
            // Too long already: drop what we hold and skip to the next newline.
            stats.tooLong++;
            carry = [];
            carryLen = 0;
            skipping = true;
          } else {
            // Copy: the chunk's buffer may be reused by the stream.
            carry.push(Buffer.from(chunk.subarray(pos)));
            carryLen += rest;
          }
        }
      }
      if (carryLen && !skipping) {
        const whole = Buffer.concat(carry);
        take(whole, 0, whole.length);
      } else if (skipping) {
        lineNo++;
        stats.lines++;
      }
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const reason =
        code === "Z_BUF_ERROR" || /unexpected end/i.test(String((e as Error).message))
          ? `truncated gzip: kept the ${lineNo} lines before the end`
          : code?.startsWith("Z_")
            ? `not a valid gzip file: kept the ${lineNo} lines before the damage`
            : `could not be read to the end: kept the ${lineNo} lines before`;
      stats.refused.push({ file: input.name, reason });
    }
  }
  assembler.finish();
  options.onQueries?.(assembler.queries);
  options.onProgress?.(read, total);
  return stats;
}

/** Every call of the inputs, in the order they finish (small inputs: tests, the CLI). */
export async function readAllCalls(inputs: LogInput[]): Promise<{ calls: SchedulingCall[]; stats: ReadStats }> {
  const calls: SchedulingCall[] = [];
  let queries: Map<string, string> | null = null;
  const stats = await readLogs(inputs, { onCall: (c) => calls.push(c), onQueries: (q) => (queries = q) });
  // placement-api's log may come after the scheduler's: join its queries once all is read.
  for (const c of calls) c.placementQuery ??= (queries as Map<string, string> | null)?.get(c.requestId) ?? null;
  return { calls, stats };
}
