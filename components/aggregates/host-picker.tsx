"use client";

/**
 * Add hosts to an aggregate: a server-side search (GET /api/hosts, React
 * Query) that stays fast with 10,000 hosts, checkboxes to pick several,
 * then one server action adds them all.
 */
import { getJson } from "@/components/data/api";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { addAggregateHosts } from "@/lib/aggregates/actions";
import { FormStatus, SubmitButton, useServerForm } from "@/components/forms/form-kit";
import { useDebounced } from "@/components/ui/use-debounced";
import type { HostSearchResult } from "@/lib/cloud/queries";

const LIMIT = 20;

export function HostPicker({
  aggregateId,
  aggregateName,
  version,
}: {
  aggregateId: number;
  aggregateName: string;
  /** the aggregate's version when the page was opened (a change since is refused) */
  version: number;
}) {
  const [q, setQ] = useState("");
  const [selected, setSelected] = useState<string[]>([]);
  const debounced = useDebounced(q.trim(), 200);
  const queryClient = useQueryClient();
  const searchId = useId();
  const resultsId = useId();
  const query = useQuery({
    queryKey: ["host-search", aggregateId, debounced],
    queryFn: ({ signal }) =>
      getJson<{ rows: HostSearchResult[]; total: number }>(
        `/api/hosts?${new URLSearchParams({ q: debounced, notIn: String(aggregateId), limit: String(LIMIT) })}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
  const form = useServerForm(addAggregateHosts, {
    onSuccess: () => {
      setSelected([]);
      void queryClient.invalidateQueries({ queryKey: ["host-search", aggregateId] });
    },
  });
  const toggle = (name: string, on: boolean) =>
    setSelected((s) => (on ? (s.includes(name) ? s : [...s, name]) : s.filter((n) => n !== name)));

  const rows = query.data?.rows ?? [];
  const total = query.data?.total ?? 0;
  return (
    <section className="panel picker" aria-labelledby={`${searchId}-h`}>
      <h3 id={`${searchId}-h`}>Add hosts</h3>
      <div className="field">
        <label htmlFor={searchId}>Search hosts to add</label>
        <input
          id={searchId}
          type="search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          placeholder="part of a host name, e.g. a1-01"
          aria-controls={resultsId}
          autoComplete="off"
        />
      </div>
      <p className="muted small" role="status" aria-live="polite">
        {query.isError
          ? "Search failed; try again."
          : query.isPending
            ? "Searching…"
            : total === 0
              ? "No host outside this aggregate matches."
              : `${total} host${total === 1 ? "" : "s"} outside this aggregate match${total === 1 ? "es" : ""}${total > rows.length ? `; showing the first ${rows.length}` : ""}.`}
      </p>
      <fieldset className="picker-results" id={resultsId} aria-busy={query.isFetching}>
        <legend className="visually-hidden">Search results</legend>
        <ul>
          {rows.map((h) => {
            const id = `${resultsId}-${h.id}`;
            return (
              <li key={h.id}>
                <input
                  type="checkbox"
                  id={id}
                  checked={selected.includes(h.name)}
                  onChange={(e) => toggle(h.name, e.target.checked)}
                  aria-describedby={`${id}-d`}
                />
                <label htmlFor={id}>{h.name}</label>
                <span id={`${id}-d`} className="muted small">
                  {h.cell} · {h.state}
                </span>
              </li>
            );
          })}
        </ul>
      </fieldset>
      <form ref={form.formRef} onSubmit={form.onSubmit} aria-label="Add selected hosts">
        <input type="hidden" name="id" value={aggregateId} />
        <input type="hidden" name="version" value={version} />
        <input type="hidden" name="aggregate_name" value={aggregateName} />
        {selected.map((h) => (
          <input key={h} type="hidden" name="hosts" value={h} />
        ))}
        {selected.length ? (
          <ul className="chips" aria-label="Selected hosts">
            {selected.map((h) => (
              <li key={h}>
                {h}{" "}
                <button type="button" className="chip-x" onClick={() => toggle(h, false)} aria-label={`Unselect ${h}`}>
                  ×
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <SubmitButton form={form} disabled={selected.length === 0} pendingText="Adding…">
          {selected.length
            ? `Add ${selected.length} selected host${selected.length === 1 ? "" : "s"}`
            : "Add selected hosts"}
        </SubmitButton>
        <FormStatus form={form} shownFields={[]} />
      </form>
    </section>
  );
}
