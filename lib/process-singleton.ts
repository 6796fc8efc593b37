/**
 * One value per server process. Next.js bundles a module once per server
 * entry (instrumentation.ts, each page with its actions, each route
 * handler), so a module-level `const` exists once per entry; what must be
 * shared by all of them (the database client, the snapshot and run caches,
 * the warmed engine) lives in one registry on globalThis under a
 * process-wide symbol, by name.
 */
const REGISTRY = Symbol.for("schedscope.process-singletons");

function registry(): Map<string, unknown> {
  const g = globalThis as { [REGISTRY]?: Map<string, unknown> };
  g[REGISTRY] ??= new Map();
  return g[REGISTRY];
}

/** The process's value for `name`, made by `create` the first time any entry asks. */
export function processSingleton<T>(name: string, create: () => T): T {
  const r = registry();
  if (!r.has(name)) r.set(name, create());
  return r.get(name) as T;
}

/** Put (or with undefined, remove) the process's value for `name`: tests and the process's own start-up. */
export function setProcessSingleton<T>(name: string, value: T | undefined): void {
  if (value === undefined) registry().delete(name);
  else registry().set(name, value);
}

/** The value registered for `name`, if any, without creating it. */
export function peekProcessSingleton<T>(name: string): T | undefined {
  return registry().get(name) as T | undefined;
}
