import Link from "next/link";

/** Build "?a=1&b=2" from params, dropping empty values. */
export function queryString(params: Record<string, string | number | undefined | null>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") sp.set(k, String(v));
  const s = sp.toString();
  return s ? `?${s}` : "";
}

/** Previous / next page links that keep the other search params. */
export function Pager({
  basePath,
  params,
  page,
  pages,
  pageParam = "page",
  label = "Pages",
}: {
  basePath: string;
  params: Record<string, string | number | undefined | null>;
  page: number;
  pages: number;
  pageParam?: string;
  label?: string;
}) {
  if (pages <= 1) return null;
  const href = (p: number) => `${basePath}${queryString({ ...params, [pageParam]: p === 1 ? undefined : p })}`;
  const around = [1, page - 2, page - 1, page, page + 1, page + 2, pages]
    .filter((p, i, a) => p >= 1 && p <= pages && a.indexOf(p) === i)
    .sort((a, b) => a - b);
  return (
    <nav className="pager" aria-label={label}>
      {page > 1 ? (
        <Link href={href(page - 1)} rel="prev">
          ← Previous
        </Link>
      ) : (
        <span className="disabled" aria-disabled="true">
          ← Previous
        </span>
      )}
      <ul>
        {around.map((p, i) => (
          <li key={p}>
            {i > 0 && p - around[i - 1] > 1 ? <span className="gap">…</span> : null}
            {p === page ? (
              <span aria-current="page" className="current">
                {p}
              </span>
            ) : (
              <Link href={href(p)} aria-label={`Page ${p}`}>
                {p}
              </Link>
            )}
          </li>
        ))}
      </ul>
      {page < pages ? (
        <Link href={href(page + 1)} rel="next">
          Next →
        </Link>
      ) : (
        <span className="disabled" aria-disabled="true">
          Next →
        </span>
      )}
    </nav>
  );
}
