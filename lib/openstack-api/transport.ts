/**
 * fetch over node:http/https, so a connection can name its own CA file
 * (clouds.yaml `cacert`) or turn verification off (`verify: false`) for one
 * cloud without touching the process' global TLS settings. Answers are
 * read whole (OpenStack answers are JSON documents) and bounded in size.
 */
import http from "node:http";
import https from "node:https";
import type { FetchLike } from "./http";

/** No answer of the APIs Schedscope reads comes near this; a larger one is not an answer. */
const MAX_ANSWER_BYTES = 512 * 1024 * 1024;

export interface TlsOptions {
  /** PEM text of the CA bundle to trust (read from clouds.yaml's cacert). */
  ca?: string;
  /** false: do not verify the server's certificate (clouds.yaml `verify: false`). */
  verify?: boolean;
}

export function nodeFetch(tls: TlsOptions = {}): FetchLike {
  const agents = {
    "http:": new http.Agent({ keepAlive: true, maxSockets: 64 }),
    "https:": new https.Agent({
      keepAlive: true,
      maxSockets: 64,
      ca: tls.ca,
      rejectUnauthorized: tls.verify !== false,
    }),
  };
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const u = new URL(url);
      const mod = u.protocol === "https:" ? https : u.protocol === "http:" ? http : null;
      if (!mod) {
        reject(new Error(`unsupported protocol ${u.protocol}`));
        return;
      }
      // the adapter passes plain objects: no Headers round trip per request
      const headers: Record<string, string> =
        init.headers && !(init.headers instanceof Headers) && !Array.isArray(init.headers)
          ? { ...(init.headers as Record<string, string>) }
          : Object.fromEntries(new Headers(init.headers).entries());
      const body = typeof init.body === "string" ? init.body : undefined;
      if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
      const req = mod.request(
        u,
        { method: init.method ?? "GET", headers, agent: agents[u.protocol as "http:" | "https:"] },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (c: Buffer) => {
            size += c.length;
            if (size > MAX_ANSWER_BYTES) {
              req.destroy(new Error(`answer larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MB`));
              return;
            }
            chunks.push(c);
          });
          res.on("error", reject);
          res.on("end", () => {
            const h = new Headers();
            for (const [k, v] of Object.entries(res.headers)) {
              if (v === undefined) continue;
              for (const one of Array.isArray(v) ? v : [v]) h.append(k, one);
            }
            const status = res.statusCode ?? 0;
            // Response refuses a body on these statuses
            const noBody = status === 204 || status === 304;
            resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, headers: h }));
          });
        },
      );
      req.on("error", reject);
      const signal = init.signal;
      if (signal) {
        if (signal.aborted) req.destroy(new Error("aborted"));
        else signal.addEventListener("abort", () => req.destroy(new Error("aborted")), { once: true });
      }
      req.end(body);
    });
}
