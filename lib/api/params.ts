/**
 * The one reader of route and search parameters: a zod shape per page or
 * route, its fields built from the kinds below, read by parseParams. The
 * proxy refuses a page's query that does not parse (a 400 naming the
 * parameter and its rule), route handlers answer their own 400 the same
 * way, and pages read what the proxy let through with readParams. Pure: no
 * Next.js, no Prisma.
 */
import { z } from "zod";
import { MAX_DB_INT, wholeNumber } from "@/lib/core/input-limits";

/** Next's searchParams record, a URLSearchParams, or a route's params. */
export type RawParams = URLSearchParams | Readonly<Record<string, string | string[] | undefined>>;

/** Next's `searchParams` of a page, awaited. */
export type SearchParams = Record<string, string | string[] | undefined>;

/** Every value given for a name, in order (`?a=1&a=2`: two; absent: undefined). */
type Values = string[] | undefined;
const values = z.array(z.string()).optional();

/** A field kind: what one name's values read as. */
export type ParamField<T> = z.ZodType<T, Values>;

const first = (v: Values) => v?.[0];

/**
 * A whole number within [min, max]: every value given must be one (an empty
 * value is an absent one, as a form's empty field sends it); the first is
 * read, `fallback` when absent, or refused when `required`.
 */
function wholeNumberParam<F extends number | null>(
  min: number,
  max: number,
  fallback: F,
  required = false,
): ParamField<number | F> {
  return values
    .refine((v) => (!required || !!first(v)) && (v ?? []).every((s) => s === "" || wholeNumber(s, min, max) !== null), {
      error: `must be a whole number from ${min} to ${max}`,
    })
    .transform((v) => {
      const given = first(v);
      return given ? (wholeNumber(given, min, max) as number) : fallback;
    });
}

export const param = {
  /** Free text (a search box, a filter): the first value, trimmed; "" when absent. */
  text: (): ParamField<string> => values.transform((v) => (first(v) ?? "").trim()),
  /** The first value as given, or undefined when absent (a notice's name, a form's preset). */
  optional: (): ParamField<string | undefined> => values.transform(first),
  /** Given with a non-empty value (`?created=1`). */
  flag: (): ParamField<boolean> => values.transform((v) => Boolean(first(v))),
  wholeNumber: wholeNumberParam,
  /** A record id (a run, a cursor): 1 up to a database Int; null when absent. */
  recordId: (): ParamField<number | null> => wholeNumberParam(1, MAX_DB_INT, null),
  /** A record id a path names (/runs/ID): 1 up to a database Int, never absent. */
  pathId: (): ParamField<number> => wholeNumberParam(1, MAX_DB_INT, null, true) as ParamField<number>,
  /** A page number: 1 up to a database Int; 1 when absent. */
  page: (): ParamField<number> => wholeNumberParam(1, MAX_DB_INT, 1),
  /** One of `choices`, anything else reads as `fallback` (an old bookmark still opens the page). */
  oneOf: <const T extends string, F extends T | undefined>(choices: readonly T[], fallback: F): ParamField<T | F> =>
    values.transform((v) => {
      const given = first(v);
      return given !== undefined && (choices as readonly string[]).includes(given) ? (given as T) : fallback;
    }),
  /** One of `choices`, refused otherwise (an API's); `fallback` when absent or empty. */
  choice: <const T extends string>(choices: readonly T[], fallback: T): ParamField<T> =>
    values
      .refine((v) => !first(v) || (choices as readonly string[]).includes(first(v)!), {
        error: `must be ${choices.slice(0, -1).join(", ")} or ${choices[choices.length - 1]}`,
      })
      .transform((v) => (first(v) || fallback) as T),
};

export type ParamsShape = Record<string, ParamField<unknown>>;
export type ParamsOf<S extends ParamsShape> = { [K in keyof S]: z.output<S[K]> };

function valuesByName(raw: RawParams): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (raw instanceof URLSearchParams) {
    for (const [k, v] of raw) (out[k] ??= []).push(v);
    return out;
  }
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k] = Array.isArray(v) ? [...v] : [v];
  return out;
}

/** The parameters `shape` reads, or the first one refused, named with its rule ("page: must be a whole number from 1 to …"). */
export function parseParams<S extends ParamsShape>(
  shape: S,
  raw: RawParams,
): { ok: true; value: ParamsOf<S> } | { ok: false; error: string } {
  const parsed = z.object(shape).safeParse(valuesByName(raw));
  if (parsed.success) return { ok: true, value: parsed.data as ParamsOf<S> };
  const issue = parsed.error.issues[0];
  return { ok: false, error: `${issue.path.join(".")}: ${issue.message}` };
}

/**
 * A page's parameters, after the proxy refused what parseParams refuses: a
 * field that still does not parse (the page rendered without the proxy)
 * reads as absent.
 */
export function readParams<S extends ParamsShape>(shape: S, raw: RawParams): ParamsOf<S> {
  const given = valuesByName(raw);
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(shape)) {
    const read = field.safeParse(given[name]);
    out[name] = read.success ? read.data : field.parse(undefined);
  }
  return out as ParamsOf<S>;
}
