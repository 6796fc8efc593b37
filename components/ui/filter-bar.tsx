import Form from "next/form";
import Link from "next/link";
import type { ReactNode } from "react";

/**
 * A list's filters: a GET form (a search landmark) that reloads the list
 * with its fields in the URL; Clear, once something is filtered, goes back
 * to the unfiltered list.
 */
export function FilterBar({
  action,
  label,
  filtered,
  submit = "Search",
  submitClassName = "btn primary",
  children,
}: {
  action: string;
  label: string;
  filtered: boolean;
  submit?: string;
  submitClassName?: string;
  children: ReactNode;
}) {
  return (
    <Form action={action} className="filter-bar" role="search" aria-label={label}>
      {children}
      <button type="submit" className={submitClassName}>
        {submit}
      </button>
      {filtered ? (
        <Link href={action} className="btn">
          Clear
        </Link>
      ) : null}
    </Form>
  );
}

/** A labelled search box of a FilterBar. */
export function SearchField({
  id,
  name,
  label,
  defaultValue,
  placeholder,
}: {
  id: string;
  name: string;
  label: ReactNode;
  defaultValue: string;
  placeholder: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} type="search" defaultValue={defaultValue} placeholder={placeholder} />
    </div>
  );
}

/** A labelled drop-down of a FilterBar; `any`, when given, is the first option and means no filter. */
export function FilterSelect({
  id,
  name,
  label,
  defaultValue,
  any,
  options,
}: {
  id: string;
  name: string;
  label: ReactNode;
  defaultValue: string;
  any?: string;
  options: readonly (string | { value: string; label: ReactNode })[];
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={defaultValue}>
        {any !== undefined ? <option value="">{any}</option> : null}
        {options.map((o) => {
          const { value, label: text } = typeof o === "string" ? { value: o, label: o } : o;
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
    </div>
  );
}
