/**
 * The few places where SQLite and PostgreSQL spell SQL differently, in one
 * module, so that each raw query (kept raw for speed: the snapshot, the hosts
 * page, capacity sums, the bulk import) is written once and renders for
 * either database. Values always go in as placeholders (Prisma.sql, which
 * numbers them `$1` for PostgreSQL and `?` for SQLite); these helpers only
 * build SQL text from column names and constants written in our own code.
 *
 * Both databases quote identifiers with "double quotes" and compare booleans
 * the same way in WHERE (`h."serviceUp"`, `NOT h."forcedDown"`): SQLite keeps
 * them as 0/1, PostgreSQL as boolean, and both read them as truth values.
 */

export type Dialect = "sqlite" | "postgresql";

const DIALECT = Symbol.for("schedscope.dialect");

/** Mark a client with the database it talks to (createPrismaClient does, for every client). */
export function tagDialect<T extends object>(client: T, dialect: Dialect): T {
  Object.defineProperty(client, DIALECT, { value: dialect });
  return client;
}

/**
 * Which database a Prisma client (or an interactive transaction of one, or
 * an extension: both read through to the client's own properties) talks to.
 */
export function dialectOf(db: unknown): Dialect {
  const dialect = (db as { [DIALECT]?: Dialect } | null)?.[DIALECT];
  if (!dialect) throw new Error("dialectOf: a client not made by createPrismaClient");
  return dialect;
}

/** `[key, SQL expression]`: one member of a JSON object built in SQL. */
export type JsonMember = readonly [key: string, expr: string];

const quoteKey = (key: string) => {
  // keys are our own identifiers; refuse anything that would need escaping
  if (!/^[A-Za-z0-9_]+$/.test(key)) throw new Error(`JSON key "${key}" is not a plain identifier`);
  return `'${key}'`;
};

export interface SqlDialect {
  readonly name: Dialect;
  /** A JSON object from members (keys in the order given). */
  object(members: readonly JsonMember[]): string;
  /**
   * `object(members)` followed by `optional` members that are left out when
   * their column is NULL: [key, JSON value expression, column tested].
   * Keeps the key order of `members` then `optional`.
   */
  objectOmittingNulls(members: readonly JsonMember[], optional: readonly [string, string, string][]): string;
  /** Aggregate: a JSON array of `expr` in `order` (`[]` over no rows). */
  arrayAgg(expr: string, order: string): string;
  /** Aggregate: a JSON object `key` -> `value` in `order` (`{}` over no rows). */
  objectAgg(key: string, value: string, order: string): string;
  /** A scalar subquery yielding JSON, as a JSON value inside object(). */
  sub(select: string): string;
  /** A text column that holds JSON, as a JSON value (not a string). */
  json(col: string): string;
  /** A boolean column as JSON true/false. */
  bool(col: string): string;
  /** A double column as JSON with every digit of the double (exact round trip). */
  real(col: string): string;
  /** A JSON expression as text (what the client parses). */
  text(expr: string): string;
  /** Aggregate: distinct non-null `expr` values in ascending order, comma joined. */
  distinctList(expr: string): string;
  /** Case-insensitive LIKE (SQLite's LIKE already is, for ASCII). */
  readonly ilike: string;
  /** ORDER BY direction with SQLite's placement of NULLs (first ascending, last descending) on both. */
  order(dir: "ASC" | "DESC"): string;
}

const sqlite: SqlDialect = {
  name: "sqlite",
  object: (members) => `json_object(${members.map(([k, e]) => `${quoteKey(k)}, ${e}`).join(", ")})`,
  objectOmittingNulls: (members, optional) =>
    // json_remove of a path that is not there ('$.none') is a no-op
    `json_remove(${sqlite.object([...members, ...optional.map(([k, e]) => [k, e] as const)])}, ${optional
      .map(([k, , col]) => `CASE WHEN ${col} IS NULL THEN '$.${k}' ELSE '$.none' END`)
      .join(", ")})`,
  arrayAgg: (expr, order) => `json_group_array(${expr} ORDER BY ${order})`,
  objectAgg: (key, value, order) => `json_group_object(${key}, ${value} ORDER BY ${order})`,
  sub: (select) => `json((${select}))`,
  json: (col) => `json(${col})`,
  bool: (col) => `json(CASE WHEN ${col} THEN 'true' ELSE 'false' END)`,
  // SQLite's JSON prints REALs with 15 significant digits (0.1+0.2 -> 0.3): print 17 and embed that literal
  real: (col) => `json(printf('%!.17g', ${col}))`,
  text: (expr) => expr,
  distinctList: (expr) => `group_concat(DISTINCT ${expr} ORDER BY ${expr})`,
  ilike: "LIKE",
  order: (dir) => dir,
};

const postgresql: SqlDialect = {
  name: "postgresql",
  object: (members) => `json_build_object(${members.map(([k, e]) => `${quoteKey(k)}, ${e}`).join(", ")})`,
  // json (not jsonb, which would reorder keys and nested objects) has no key
  // removal: the optional members are appended to the object's text
  objectOmittingNulls: (members, optional) =>
    `(left(${postgresql.object(members)}::text, -1) || ${optional
      .map(([k, e, col]) => `CASE WHEN ${col} IS NULL THEN '' ELSE ', "${k}" : ' || (${e})::text END`)
      .join(" || ")} || '}')::json`,
  arrayAgg: (expr, order) => `COALESCE(json_agg(${expr} ORDER BY ${order}), '[]'::json)`,
  objectAgg: (key, value, order) => `COALESCE(json_object_agg(${key}, ${value} ORDER BY ${order}), '{}'::json)`,
  sub: (select) => `(${select})`,
  json: (col) => `(${col})::json`,
  bool: (col) => col,
  // float8 -> json prints the shortest text that reads back as the same double
  real: (col) => col,
  text: (expr) => `(${expr})::text`,
  distinctList: (expr) => `string_agg(DISTINCT ${expr}, ',' ORDER BY ${expr})`,
  ilike: "ILIKE",
  order: (dir) => (dir === "ASC" ? "ASC NULLS FIRST" : "DESC NULLS LAST"),
};

export const DIALECTS: Record<Dialect, SqlDialect> = { sqlite, postgresql };

/** The SQL helpers for the database `db` talks to. */
export function sqlFor(db: unknown): SqlDialect {
  return DIALECTS[dialectOf(db)];
}

/**
 * A Prisma `contains` filter that ignores case on both databases: SQLite's
 * LIKE already does (ASCII), PostgreSQL's needs `mode: "insensitive"`, which
 * the SQLite client's types do not know.
 */
export function containsText(db: unknown, text: string): { contains: string } {
  return dialectOf(db) === "postgresql"
    ? ({ contains: text, mode: "insensitive" } as { contains: string })
    : { contains: text };
}
