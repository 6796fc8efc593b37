/**
 * The layout's rules, read from the import statements of every source file:
 * no import cycle (type imports count: a reader follows them too), lib/'s
 * folders on declared floors, each importing only folders below it (the
 * scheduler imports nothing outside itself), components and lib/ never
 * import from app/, lib/ keeps its code in folders, one FieldErrors, and
 * pages read their search parameters through one parser.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
const SKIP = new Set(["node_modules", ".next", "generated", ".git", "test-results", "data", "playwright-report"]);
const SOURCE = /\.(ts|tsx|mjs)$/;
const SPEC = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|vi\.mock\(\s*)(["'])([^"'\n]+)\1/g;

function sources(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (SOURCE.test(e.name) && !e.name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

function resolve(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("@/")) base = path.join(ROOT, spec.slice(2));
  else if (spec.startsWith(".")) base = path.resolve(path.dirname(from), spec);
  else return null;
  for (const c of [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, path.join(base, "index.ts")]) {
    if (fs.existsSync(c) && fs.statSync(c).isFile()) return path.relative(ROOT, c);
  }
  return null;
}

/** Every source file (relative to the root) with the files and packages it imports. */
function importGraph(): Map<string, { files: string[]; packages: string[] }> {
  const graph = new Map<string, { files: string[]; packages: string[] }>();
  for (const dir of ["app", "components", "lib", "e2e", "bench", "prisma", "scripts"]) {
    for (const file of sources(path.join(ROOT, dir))) {
      const files: string[] = [];
      const packages: string[] = [];
      for (const m of fs.readFileSync(file, "utf8").matchAll(SPEC)) {
        const target = resolve(file, m[2]);
        if (target) files.push(target);
        else if (!m[2].startsWith(".") && !m[2].startsWith("@/")) packages.push(m[2]);
      }
      graph.set(path.relative(ROOT, file), { files, packages });
    }
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan). */
function cycles(graph: Map<string, { files: string[] }>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.files ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const graph = importGraph();
const isTest = (f: string) => /\.test\.tsx?$/.test(f) || f === "lib/scheduler/testing.ts";

/**
 * lib/'s folders, ground floor first: a folder imports only folders on
 * floors below its own (folders sharing a floor do not import each other).
 * Tests, and the command-line entry points (`*cli.ts`, run by npm scripts
 * as app/ is run by Next.js), stand above every floor.
 */
const FLOORS: readonly (readonly string[])[] = [
  ["scheduler", "generated"],
  ["core"],
  ["db"],
  ["catalog"],
  ["scenario"],
  ["cloud"],
  ["history"],
  ["auth"],
  ["audit"],
  ["actions"],
  ["api"],
  [
    "aggregates",
    "flavors",
    "hosts",
    "images",
    "server-groups",
    "profiles",
    "capacity",
    "maintenance",
    "openstack",
    "demo",
  ],
  // the outside systems' adapters: their wire formats stop here
  ["openstack-api", "nova-logs"],
  ["runs", "sync"],
  ["instances", "metrics"],
  ["whatif"],
  ["cloud-cli"],
  ["testing"],
];

const floorOf = (folder: string) => FLOORS.findIndex((f) => f.includes(folder));
/** The lib/ folder of a file, or null for a file at lib/'s top (those stand on the ground floor). */
const libFolder = (f: string) => (/^lib\/([^/]+)\//.exec(f) ?? [])[1] ?? null;
const isEntryPoint = (f: string) => /(^|\/|-)cli\.ts$/.test(f);

/** The imports of lib/'s files that reach a folder on their own floor or above. */
function upwardImports(g: ReadonlyMap<string, { files: readonly string[] }>): string[] {
  return [...g].flatMap(([f, { files }]) => {
    const from = libFolder(f);
    if (!from || isTest(f) || isEntryPoint(f)) return [];
    return files
      .filter((t) => {
        const to = libFolder(t);
        return to !== null && to !== from && floorOf(to) >= floorOf(from);
      })
      .map((t) => `${f} -> ${t}`);
  });
}

/** The files among `texts` that declare a type or interface named `name`. */
function declarationsOf(name: string, texts: Iterable<[file: string, text: string]>): string[] {
  const decl = new RegExp(`^\\s*(export\\s+)?(type|interface)\\s+${name}\\b`, "m");
  return [...texts].filter(([, text]) => decl.test(text)).map(([f]) => f);
}

const sourceTexts = (): Iterable<[string, string]> =>
  [...graph.keys()].map((f) => [f, fs.readFileSync(path.join(ROOT, f), "utf8")]);

const LAYERS: Array<{ rule: string; from: (f: string) => boolean; refused: (target: string) => boolean }> = [
  {
    rule: "the scheduler's modules import only the scheduler",
    from: (f) => f.startsWith("lib/scheduler/") && !isTest(f),
    refused: (t) => !t.startsWith("lib/scheduler/"),
  },
  {
    rule: "the scheduler's tests import the scheduler and test data only",
    from: (f) => f.startsWith("lib/scheduler/") && isTest(f),
    refused: (t) => !/^lib\/(scheduler|demo|testing)\//.test(t),
  },
  {
    rule: "components never import from app/",
    from: (f) => f.startsWith("components/"),
    refused: (t) => t.startsWith("app/"),
  },
  {
    rule: "lib/ never imports from app/ or components/",
    from: (f) => f.startsWith("lib/"),
    refused: (t) => t.startsWith("app/") || t.startsWith("components/"),
  },
  {
    rule: "the audit trail does not reach into runs",
    from: (f) => f.startsWith("lib/audit/"),
    refused: (t) => t.startsWith("lib/runs/"),
  },
];

describe("the layout", () => {
  it("has no import cycle", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("puts every folder of lib/ on a floor", () => {
    const folders = fs
      .readdirSync(path.join(ROOT, "lib"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((f) => floorOf(f) < 0)).toEqual([]);
  });

  it("has each folder of lib/ import only folders on floors below its own", () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it.each([
    ["a folder importing one above it", "lib/db/client.ts", "lib/runs/schedule.ts"],
    ["a folder importing one on its own floor", "lib/flavors/rules.ts", "lib/images/rules.ts"],
    ["the ground floor importing a feature", "lib/core/errors.ts", "lib/actions/mutation.ts"],
  ])("refuses %s", (_what, from, to) => {
    expect(upwardImports(new Map([[from, { files: [to] }]]))).toEqual([`${from} -> ${to}`]);
  });

  it("declares FieldErrors once (lib/core/errors.ts)", () => {
    expect(declarationsOf("FieldErrors", sourceTexts())).toEqual(["lib/core/errors.ts"]);
  });

  it("sees a second declaration of FieldErrors", () => {
    const texts: [string, string][] = [
      ["lib/core/errors.ts", "export type FieldErrors = Record<string, string[]>;"],
      ["lib/capacity/schemas.ts", "/** Field → messages */\n  type FieldErrors = Record<string, string[]>;"],
      ["lib/runs/view.ts", "import type { FieldErrors } from '@/lib/core/errors';"],
    ];
    expect(declarationsOf("FieldErrors", texts)).toEqual(["lib/core/errors.ts", "lib/capacity/schemas.ts"]);
  });

  it.each(LAYERS)("$rule", ({ from, refused }) => {
    const broken = [...graph].flatMap(([f, { files }]) =>
      from(f) ? files.filter(refused).map((t) => `${f} -> ${t}`) : [],
    );
    expect(broken).toEqual([]);
  });

  it("keeps the scheduler free of Next.js, React and Prisma", () => {
    const framework = /^(next|react|react-dom|@prisma\/|server-only|zod)(\/|$)/;
    const broken = [...graph].flatMap(([f, { packages }]) =>
      f.startsWith("lib/scheduler/") ? packages.filter((p) => framework.test(p)).map((p) => `${f} -> ${p}`) : [],
    );
    expect(broken).toEqual([]);
  });

  it("names every folder of lib/ in the README's layout table, and only folders that exist", () => {
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Code layout"));
    const table = section.slice(0, section.indexOf("\n\n", section.indexOf("| path")));
    const named = [...table.matchAll(/^\|([^|]+)\|/gm)].flatMap((m) =>
      [...m[1].matchAll(/`([^`]+)`/g)].map((c) => c[1].replace(/\/$/, "")),
    );
    expect(named.filter((p) => !fs.existsSync(path.join(ROOT, p)))).toEqual([]);
    const folders = fs
      .readdirSync(path.join(ROOT, "lib"), { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== "generated")
      .map((e) => `lib/${e.name}`);
    expect(folders.filter((f) => !named.includes(f))).toEqual([]);
  });

  it("keeps lib/'s code in folders (at most three files at its top)", () => {
    const top = fs.readdirSync(path.join(ROOT, "lib"), { withFileTypes: true }).filter((e) => e.isFile());
    expect(top.length).toBeLessThanOrEqual(3);
  });

  it("reads every page's search parameters through its shape (lib/api/page-params.ts)", () => {
    const pages = sources(path.join(ROOT, "app")).filter((f) => f.endsWith("page.tsx"));
    const adHoc = pages.filter((f) => {
      const text = fs.readFileSync(f, "utf8");
      return text.includes("searchParams") && !text.includes("readPageParams(");
    });
    expect(adHoc.map((f) => path.relative(ROOT, f))).toEqual([]);
  });
});
