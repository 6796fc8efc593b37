"use client";

/**
 * An ordered, editable list of names (filters, prefilters, weighers):
 * reorder with Move up / Move down buttons, Alt+ArrowUp / Alt+ArrowDown on a
 * focused row, or HTML5 drag and drop; remove; add from the known names.
 * The order is submitted as repeated hidden inputs named `name`.
 * With `notSimulated`, a name Schedscope does not know (an out-of-tree class
 * a real nova.conf enables) may be added by typing it; such a row says what
 * the engine does with it and is submitted marked in `notSimulated.field`.
 */
import { useEffect, useId, useRef, useState } from "react";

export interface Known {
  name: string;
  doc: string;
}

export function move<T>(list: T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return list;
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

export function OrderedList({
  name,
  label,
  noun,
  items,
  onChange,
  known,
  errors,
  notSimulated,
}: {
  /** form field name of the hidden inputs */
  name: string;
  /** accessible name of the list */
  label: string;
  /** "filter", "weigher", ... */
  noun: string;
  items: string[];
  onChange: (items: string[]) => void;
  known: Known[];
  errors?: string[];
  /** accept names outside `known`: the marking field and what the engine does with them ("passes every host") */
  notSimulated?: { field: string; effect: string };
}) {
  const base = useId();
  const [announce, setAnnounce] = useState("");
  const [dragIndex, setDragIndex] = useState<number | null>(null);
  const [overIndex, setOverIndex] = useState<number | null>(null);
  const [toAdd, setToAdd] = useState("");
  const [typed, setTyped] = useState("");
  const focusAfter = useRef<{ name: string; part: "row" | "up" | "down" } | null>(null);
  const rowRefs = useRef(new Map<string, HTMLLIElement>());
  const docs = new Map(known.map((k) => [k.name, k.doc]));
  const available = known.filter((k) => !items.includes(k.name));

  useEffect(() => {
    const f = focusAfter.current;
    if (!f) return;
    focusAfter.current = null;
    const row = rowRefs.current.get(f.name);
    if (!row) return;
    const target =
      f.part === "row"
        ? row
        : ((row.querySelector(`[data-move="${f.part}"]:not(:disabled)`) as HTMLElement | null) ?? row);
    target.focus();
  });

  const doMove = (from: number, to: number, part: "row" | "up" | "down") => {
    if (to < 0 || to >= items.length) return;
    const item = items[from];
    focusAfter.current = { name: item, part };
    onChange(move(items, from, to));
    setAnnounce(`${item} moved to position ${to + 1} of ${items.length}.`);
  };

  const errId = `${base}-err`;
  return (
    <div className="ordered">
      <ol
        className="ordered-list"
        aria-label={label}
        aria-describedby={errors?.length ? errId : `${base}-help`}
        aria-invalid={errors?.length ? true : undefined}
      >
        {items.map((item, i) => {
          const doc = docs.get(item);
          return (
            <li
              key={item}
              ref={(el) => {
                if (el) rowRefs.current.set(item, el);
                else rowRefs.current.delete(item);
              }}
              tabIndex={0}
              draggable
              aria-label={`${i + 1}. ${item}`}
              className={[
                "ordered-item",
                dragIndex === i ? "dragging" : "",
                overIndex === i && dragIndex !== null && dragIndex !== i ? "drop-target" : "",
                doc === undefined ? "unknown" : "",
              ].join(" ")}
              onKeyDown={(e) => {
                if (!e.altKey) return;
                if (e.key === "ArrowUp") {
                  e.preventDefault();
                  doMove(i, i - 1, "row");
                } else if (e.key === "ArrowDown") {
                  e.preventDefault();
                  doMove(i, i + 1, "row");
                }
              }}
              onDragStart={(e) => {
                setDragIndex(i);
                e.dataTransfer.effectAllowed = "move";
                e.dataTransfer.setData("text/plain", String(i));
              }}
              onDragOver={(e) => {
                e.preventDefault();
                e.dataTransfer.dropEffect = "move";
                if (overIndex !== i) setOverIndex(i);
              }}
              onDragLeave={() => setOverIndex((o) => (o === i ? null : o))}
              onDrop={(e) => {
                e.preventDefault();
                const from = dragIndex ?? Number(e.dataTransfer.getData("text/plain"));
                setDragIndex(null);
                setOverIndex(null);
                if (Number.isInteger(from)) doMove(from, i, "row");
              }}
              onDragEnd={() => {
                setDragIndex(null);
                setOverIndex(null);
              }}
            >
              <input type="hidden" name={name} value={item} />
              {doc === undefined && notSimulated ? (
                <input type="hidden" name={notSimulated.field} value={item} />
              ) : null}
              <span className="grip" aria-hidden="true">
                ⠿
              </span>
              <span className="pos" aria-hidden="true">
                {i + 1}
              </span>
              <span className="ordered-text">
                <code>{item}</code>
                {doc === undefined && notSimulated ? (
                  <span className="tag warn">not simulated: {notSimulated.effect}</span>
                ) : doc === undefined ? (
                  <span className="tag bad">unknown {noun}: remove it</span>
                ) : (
                  <span className="muted small"> {doc}</span>
                )}
              </span>
              <span className="ordered-actions">
                <button
                  type="button"
                  className="btn small icon"
                  data-move="up"
                  disabled={i === 0}
                  aria-label={`Move ${item} up`}
                  title="Move up (Alt+↑)"
                  onClick={() => doMove(i, i - 1, "up")}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="btn small icon"
                  data-move="down"
                  disabled={i === items.length - 1}
                  aria-label={`Move ${item} down`}
                  title="Move down (Alt+↓)"
                  onClick={() => doMove(i, i + 1, "down")}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="btn small"
                  aria-label={`Remove ${item}`}
                  onClick={() => {
                    onChange(items.filter((x) => x !== item));
                    setAnnounce(`${item} removed.`);
                  }}
                >
                  Remove
                </button>
              </span>
            </li>
          );
        })}
      </ol>
      {items.length === 0 ? <p className="muted small">None enabled.</p> : null}
      <p id={`${base}-help`} className="muted small">
        Reorder with the arrows, Alt+↑ / Alt+↓ on a focused row, or drag and drop.
      </p>
      {errors?.length ? (
        <p className="field-error" id={errId}>
          {errors.join(" ")}
        </p>
      ) : null}
      {available.length ? (
        <div className="ordered-add">
          <label htmlFor={`${base}-add`}>Add a {noun}</label>
          <select id={`${base}-add`} value={toAdd} onChange={(e) => setToAdd(e.target.value)}>
            <option value="">choose…</option>
            {available.map((k) => (
              <option key={k.name} value={k.name}>
                {k.name}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="btn small"
            disabled={!toAdd}
            onClick={() => {
              if (!toAdd) return;
              onChange([...items, toAdd]);
              setAnnounce(`${toAdd} added at position ${items.length + 1}.`);
              setToAdd("");
            }}
          >
            Add {noun}
          </button>
        </div>
      ) : null}
      {notSimulated ? (
        <div className="ordered-add">
          <label htmlFor={`${base}-other`}>Out-of-tree {noun} (not simulated)</label>
          <input
            id={`${base}-other`}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder="class name"
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${base}-other-help`}
          />
          <button
            type="button"
            className="btn small"
            disabled={!typed.trim() || items.includes(typed.trim())}
            onClick={() => {
              const added = typed.trim();
              if (!added || items.includes(added)) return;
              onChange([...items, added]);
              setAnnounce(
                `${added} added at position ${items.length + 1}${docs.has(added) ? "" : `, not simulated: ${notSimulated.effect}`}.`,
              );
              setTyped("");
            }}
          >
            Add as not simulated
          </button>
          <p id={`${base}-other-help`} className="muted small">
            An out-of-tree class your nova.conf enables: kept in the profile, {notSimulated.effect}, and named on every
            result.
          </p>
        </div>
      ) : null}
      <p className="visually-hidden" aria-live="polite">
        {announce}
      </p>
    </div>
  );
}
