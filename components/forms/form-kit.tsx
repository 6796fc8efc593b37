"use client";

/**
 * The small kit every edit form uses: useServerForm (React 19 useActionState
 * around a server action that returns an ActionResult), Field (label + input
 * + hint + error, wired with aria-invalid / aria-describedby), FormStatus
 * (role=status on success, role=alert on failure) and SubmitButton
 * (disabled with "Saving…" while pending).
 */
import {
  startTransition,
  useActionState,
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { useReadOnlyForViewer, useRoleAllows } from "@/components/auth/role-context";
import type { ActionResult } from "@/lib/actions/mutation";
import type { Role } from "@/lib/core/roles";

export type FormAction = (prev: ActionResult | null, form: FormData) => Promise<ActionResult>;

export interface ServerForm {
  state: ActionResult | null;
  pending: boolean;
  /** Stop showing the last answer (the operator changed what it was about). */
  clear: () => void;
  formRef: React.RefObject<HTMLFormElement | null>;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  /** Messages on one field (from the last submission). */
  errors: (field: string) => string[] | undefined;
}

/**
 * Submits through useActionState without React's automatic form reset, so a
 * rejected submission keeps what the operator typed; `resetOnSuccess` clears
 * the form after a successful one (e.g. an "add" row). The clicked submit
 * button's name/value is part of the data (intent buttons).
 */
export function useServerForm(
  action: FormAction,
  opts: { resetOnSuccess?: boolean; onSuccess?: () => void } = {},
): ServerForm {
  const [answer, dispatch, pending] = useActionState<ActionResult | null, FormData>(action, null);
  // an answer the operator has moved on from (typed again) is no longer shown
  const [cleared, setCleared] = useState<ActionResult | null>(null);
  const state = answer === cleared ? null : answer;
  const formRef = useRef<HTMLFormElement>(null);
  const { resetOnSuccess, onSuccess } = opts;
  // biome-ignore lint/correctness/useExhaustiveDependencies: fires once per server answer; the callbacks are read, not tracked
  useEffect(() => {
    if (answer?.ok) {
      if (resetOnSuccess) formRef.current?.reset();
      onSuccess?.();
    }
  }, [answer]);
  return {
    state,
    pending,
    formRef,
    clear() {
      if (answer && answer !== cleared) setCleared(answer);
    },
    onSubmit(e) {
      e.preventDefault();
      const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLElement | null;
      const data = new FormData(e.currentTarget, submitter?.getAttribute("name") ? submitter : undefined);
      startTransition(() => dispatch(data));
    },
    errors(field) {
      return state && !state.ok ? state.fieldErrors[field] : undefined;
    },
  };
}

/** Field errors not attached to a visible field (e.g. "id", "_form"). */
export function otherErrors(state: ActionResult | null, shown: string[]): string[] {
  if (!state || state.ok) return [];
  return Object.entries(state.fieldErrors)
    .filter(([k]) => !shown.includes(k))
    .flatMap(([, v]) => v);
}

export function FormStatus({
  form,
  shownFields,
  success,
  className,
}: {
  form: ServerForm;
  /** Fields that show their own errors; the others are listed here. */
  shownFields: string[];
  success?: string;
  className?: string;
}) {
  const { state, pending } = form;
  if (pending) {
    return (
      <p className={`form-status pending ${className ?? ""}`} role="status">
        Saving changes…
      </p>
    );
  }
  if (!state) return <p className={`form-status ${className ?? ""}`} role="status" aria-live="polite" />;
  if (state.ok) {
    return (
      <p className={`form-status ok ${className ?? ""}`} role="status">
        {state.message ?? success ?? "Saved."}
      </p>
    );
  }
  const others = otherErrors(state, shownFields);
  const fieldCount = Object.keys(state.fieldErrors).length - others.length;
  return (
    <div className={`form-status bad ${className ?? ""}`} role="alert">
      {state.formError ? <p>{state.formError}</p> : null}
      {state.conflict ? <ConflictDetails conflict={state.conflict} /> : null}
      {others.map((m) => (
        <p key={m}>{m}</p>
      ))}
      {!state.formError && fieldCount > 0 ? <p>Not saved: fix the marked field{fieldCount > 1 ? "s" : ""}.</p> : null}
      {!state.formError && fieldCount === 0 && others.length === 0 ? <p>Not saved.</p> : null}
    </div>
  );
}

/** A stale save: what this form sent beside what the other person saved. */
function ConflictDetails({ conflict }: { conflict: NonNullable<Extract<ActionResult, { ok: false }>["conflict"]> }) {
  if (!conflict.fields.length) return null;
  return (
    <div className="conflict">
      <table>
        <caption className="visually-hidden">Your value and {conflict.by}'s value</caption>
        <thead>
          <tr>
            <th scope="col">field</th>
            <th scope="col">yours (not saved)</th>
            <th scope="col">
              now ({conflict.by}, <time dateTime={conflict.at}>{conflict.at.slice(0, 16).replace("T", " ")} UTC</time>)
            </th>
          </tr>
        </thead>
        <tbody>
          {conflict.fields.map((f) => (
            <tr key={f.field}>
              <th scope="row">
                <code>{f.field}</code>
              </th>
              <td>{f.yours}</td>
              <td>{f.theirs}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function SubmitButton({
  form,
  children,
  pendingText = "Saving…",
  className,
  name,
  value,
  disabled,
  needs = "admin",
  title,
  ...rest
}: {
  form: Pick<ServerForm, "pending">;
  children: ReactNode;
  pendingText?: string;
  className?: string;
  name?: string;
  value?: string;
  disabled?: boolean;
  /** the least role whose write this button sends (lib/core/roles.ts); others see it disabled, saying so */
  needs?: Role;
  "aria-label"?: string;
  title?: string;
}) {
  const role = useRoleAllows(needs);
  const whyId = useId();
  const off = form.pending || disabled || !role.allowed;
  const button = (
    <button
      type="submit"
      className={className ?? "btn primary"}
      disabled={off}
      aria-disabled={off}
      name={name}
      value={value}
      title={role.why ?? title}
      aria-describedby={role.allowed ? undefined : whyId}
      {...rest}
    >
      {form.pending ? pendingText : children}
    </button>
  );
  if (role.allowed) return button;
  return (
    <>
      {button}
      <span className="why-disabled" id={whyId}>
        needs {needs}
      </span>
    </>
  );
}

type FieldBase = {
  label: ReactNode;
  name: string;
  form: Pick<ServerForm, "errors">;
  hint?: ReactNode;
  /** Extra live text under the field (e.g. what a value means). */
  live?: ReactNode;
  /** Client-side message shown before submitting. */
  clientError?: string | null;
  className?: string;
  visuallyHiddenLabel?: boolean;
  /** A form a viewer may send (a trial, nothing stored in the cloud): its fields stay editable for viewers. */
  viewerMayEdit?: boolean;
};

function useFieldIds(name: string) {
  const base = useId();
  return {
    id: `${base}-${name}`,
    hintId: `${base}-${name}-hint`,
    errId: `${base}-${name}-err`,
    liveId: `${base}-${name}-live`,
  };
}

function FieldShell({
  ids,
  label,
  hint,
  live,
  messages,
  className,
  visuallyHiddenLabel,
  checkbox,
  children,
}: {
  ids: ReturnType<typeof useFieldIds>;
  label: ReactNode;
  hint?: ReactNode;
  live?: ReactNode;
  messages: string[];
  className?: string;
  visuallyHiddenLabel?: boolean;
  /** the control before its label (a checkbox) */
  checkbox?: boolean;
  children: ReactNode;
}) {
  const labelEl = (
    <label htmlFor={ids.id} className={visuallyHiddenLabel ? "visually-hidden" : undefined}>
      {label}
    </label>
  );
  return (
    <div className={`field ${checkbox ? "checkbox " : ""}${messages.length ? "has-error" : ""} ${className ?? ""}`}>
      {checkbox ? children : labelEl}
      {checkbox ? labelEl : children}
      {hint ? (
        <span className="hint" id={ids.hintId}>
          {hint}
        </span>
      ) : null}
      {live ? (
        <span className="live" id={ids.liveId} aria-live="polite">
          {live}
        </span>
      ) : null}
      {messages.length ? (
        <span className="field-error" id={ids.errId}>
          {messages.join(" ")}
        </span>
      ) : null}
    </div>
  );
}

/**
 * aria-invalid and aria-describedby of a control a client-side form wires
 * itself: its help text, and its error message while one is shown.
 */
export function controlAria(error: unknown, errorId?: string, helpId?: string) {
  return {
    "aria-invalid": error ? (true as const) : undefined,
    "aria-describedby": [helpId, error ? errorId : undefined].filter(Boolean).join(" ") || undefined,
  };
}

function describedBy(ids: ReturnType<typeof useFieldIds>, hint: unknown, live: unknown, messages: string[]) {
  return (
    [hint ? ids.hintId : null, live ? ids.liveId : null, messages.length ? ids.errId : null]
      .filter(Boolean)
      .join(" ") || undefined
  );
}

function fieldMessages(form: Pick<ServerForm, "errors">, name: string, clientError?: string | null): string[] {
  const server = form.errors(name) ?? [];
  return clientError ? [clientError, ...server.filter((m) => m !== clientError)] : server;
}

/**
 * One field's parts: the shell's props, the control's id / name / aria
 * attributes (wired to the hint, live text and errors), and the rest of the
 * props, which go to the control.
 */
function useField<P extends FieldBase>({
  label,
  name,
  form,
  hint,
  live,
  clientError,
  className,
  visuallyHiddenLabel,
  ...rest
}: P) {
  const ids = useFieldIds(name);
  const messages = fieldMessages(form, name, clientError);
  const { viewerMayEdit, ...controlProps } = rest as typeof rest & { viewerMayEdit?: boolean };
  const readOnly = useReadOnlyForViewer() && !viewerMayEdit;
  return {
    shell: { ids, label, hint, live, messages, className, visuallyHiddenLabel },
    control: {
      id: ids.id,
      name,
      "aria-invalid": messages.length ? true : undefined,
      "aria-describedby": describedBy(ids, hint, live, messages),
    },
    rest: controlProps,
    readOnly,
  };
}

export function Field(props: FieldBase & Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "form">) {
  const { shell, control, rest, readOnly } = useField(props);
  return (
    <FieldShell {...shell}>
      <input {...control} {...rest} {...(readOnly ? { readOnly: true } : {})} />
    </FieldShell>
  );
}

export function SelectField(props: FieldBase & Omit<SelectHTMLAttributes<HTMLSelectElement>, "name" | "form">) {
  const { shell, control, rest, readOnly } = useField(props);
  return (
    <FieldShell {...shell}>
      <select {...control} {...rest} {...(readOnly ? { disabled: true, "aria-readonly": true } : {})} />
    </FieldShell>
  );
}

export function TextAreaField(props: FieldBase & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "form">) {
  const { shell, control, rest, readOnly } = useField(props);
  return (
    <FieldShell {...shell}>
      <textarea {...control} {...rest} {...(readOnly ? { readOnly: true } : {})} />
    </FieldShell>
  );
}

export function CheckboxField(
  props: Omit<FieldBase, "live" | "clientError" | "visuallyHiddenLabel"> &
    Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "form" | "type">,
) {
  const { shell, control, rest, readOnly } = useField(props);
  return (
    <FieldShell {...shell} checkbox>
      <input type="checkbox" {...control} {...rest} {...(readOnly ? { disabled: true, "aria-readonly": true } : {})} />
    </FieldShell>
  );
}

/**
 * A free-text field of a Nova String(255) column (names, project ids, zones):
 * the browser stops at the column's length and offers no autofill.
 */
export function String255Field(props: FieldBase & Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "form">) {
  return <Field maxLength={255} autoComplete="off" {...props} />;
}

/** A record's UUID: empty on create lets the server generate one, as Nova does. */
export function UuidField({
  creating,
  label = "UUID",
  ...props
}: Omit<FieldBase, "label"> & { label?: ReactNode; creating: boolean } & Omit<
    InputHTMLAttributes<HTMLInputElement>,
    "name" | "form" | "placeholder"
  >) {
  return (
    <Field
      label={label}
      placeholder={creating ? "empty: generate one" : undefined}
      maxLength={36}
      autoComplete="off"
      {...props}
    />
  );
}

/**
 * The hidden id and version of the record a form changes; the version is the
 * one the page was opened at, so a write over someone else's change is refused.
 */
export function RecordRef({ id, version }: { id: number; version?: number }) {
  return (
    <>
      <input type="hidden" name="id" value={id} />
      {version ? <input type="hidden" name="version" value={version} /> : null}
    </>
  );
}

/** A form that creates a record ("Create {noun}") or, given `record`, edits it ("Edit {noun}"). */
export function CreateOrEditForm({
  form,
  noun,
  record,
  className,
  children,
}: {
  form: ServerForm;
  noun: string;
  record?: { id: number; version?: number };
  className: string;
  children: ReactNode;
}) {
  return (
    <form
      ref={form.formRef}
      onSubmit={form.onSubmit}
      className={className}
      aria-label={record ? `Edit ${noun}` : `Create ${noun}`}
    >
      {record ? <RecordRef id={record.id} version={record.version} /> : null}
      {children}
    </form>
  );
}

/**
 * A one-button form in a table row (activate, remove): `hidden` says which
 * record, the status shows beside the button.
 */
export function RowActionForm({
  action,
  hidden,
  children,
}: {
  action: FormAction;
  hidden: Record<string, string | number>;
  children: (form: ServerForm) => ReactNode;
}) {
  const form = useServerForm(action);
  return (
    <form ref={form.formRef} onSubmit={form.onSubmit} className="row-action">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children(form)}
      <FormStatus form={form} shownFields={[]} className="inline-status" />
    </form>
  );
}

/** A button that asks before submitting (delete). */
export function ConfirmSubmit({
  form,
  children,
  question,
  className = "btn danger",
  name,
  value,
  needs = "admin",
  "aria-label": ariaLabel,
}: {
  form: Pick<ServerForm, "pending">;
  children: ReactNode;
  question: string;
  className?: string;
  name?: string;
  value?: string;
  /** the least role allowed to delete (lib/core/roles.ts); others see it disabled, saying so */
  needs?: Role;
  "aria-label"?: string;
}) {
  const role = useRoleAllows(needs);
  return (
    <button
      type="submit"
      className={className}
      disabled={form.pending || !role.allowed}
      title={role.why}
      name={name}
      value={value}
      aria-label={ariaLabel}
      onClick={(e) => {
        if (!window.confirm(question)) e.preventDefault();
      }}
    >
      {form.pending ? "Deleting…" : children}
    </button>
  );
}

/**
 * A form that deletes one record (hidden `id`) after asking `question`;
 * `label` names the form and its button. `version`: the record's version when
 * the page was opened, so that deleting what someone changed since is
 * refused like a save ("changed by alice at 10:42 since you opened it").
 */
export function DeleteForm({
  action,
  id,
  version,
  label,
  question,
}: {
  action: FormAction;
  id: number;
  version?: number;
  label: string;
  question: string;
}) {
  const form = useServerForm(action);
  return (
    <form ref={form.formRef} onSubmit={form.onSubmit} aria-label={label}>
      <RecordRef id={id} version={version} />
      <ConfirmSubmit form={form} question={question}>
        {label}
      </ConfirmSubmit>
      <FormStatus form={form} shownFields={[]} />
    </form>
  );
}
