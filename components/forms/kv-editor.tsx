"use client";

import { DataTable } from "@/components/ui/table";
/**
 * In-place key/value editor: aggregate metadata, flavor extra specs, image
 * properties. Each row is its own small form (change key or value → Save,
 * or Remove); the last row adds a key. Next to every row: which filter or
 * weigher reads the key and what the value means, live as the operator
 * types, from the same modules the server-side schemas use.
 */
import { useId, useState, type ReactNode } from "react";
import { describeHwImageProperty } from "@/lib/catalog/hw-specs";
import {
  describeMetadataKey,
  metadataKeyError,
  metadataValueError,
  SUGGESTED_METADATA_KEYS,
} from "@/lib/catalog/metadata-keys";
import {
  describeExtraSpec,
  describeRequirement,
  EXTRA_SPEC_OPERATORS,
  extraSpecKeyError,
  extraSpecValueError,
  NAMESPACE_HELP,
} from "@/lib/catalog/extra-specs";
import { RememberedDetails } from "@/components/ui/density";
import { IMAGE_META_FIELDS } from "@/lib/scheduler/image-meta-fields";
import { KNOWLEDGE } from "@/lib/scheduler/knowledge";
import { Field, FormStatus, SubmitButton, useServerForm, type FormAction, type ServerForm } from "./form-kit";

export type KvKind = "aggregate" | "flavor" | "image";

export interface KvEntry {
  key: string;
  value: string;
  json?: boolean;
}

interface Described {
  readers: string;
  meaning: ReactNode;
  keyError: string | null;
  valueError: string | null;
}

const SUGGESTED_EXTRA_SPECS = [
  "aggregate_instance_extra_specs:",
  "capabilities:hypervisor_type",
  "capabilities:cpu_info:vendor",
  "trait:",
  "hw:cpu_policy",
  "hw:mem_page_size",
  "hw:numa_nodes",
  "pci_passthrough:alias",
];

const SUGGESTED_IMAGE_PROPS = [
  "hw_architecture",
  "img_hv_type",
  "hw_vm_mode",
  "img_hv_requested_version",
  "os_distro",
  "os_type",
  "hw_machine_type",
  "traits_required",
];

function describe(kind: KvKind, key: string, value: string, json = false): Described {
  const k = key.trim();
  if (kind === "aggregate") {
    if (!k) return { readers: "", meaning: null, keyError: null, valueError: null };
    const info = describeMetadataKey(k);
    const keyError = metadataKeyError(k);
    return {
      readers: info.reader,
      meaning: info.meaning,
      keyError,
      valueError: !keyError && value.trim() ? metadataValueError(k, value) : null,
    };
  }
  if (kind === "flavor") {
    if (!k) return { readers: "", meaning: null, keyError: null, valueError: null };
    const info = describeExtraSpec(k, value);
    const keyError = extraSpecKeyError(k);
    return {
      readers: info.readers.length ? info.readers.join(" + ") : "not read by the scheduler",
      meaning: (
        <>
          {info.meaning ? (
            <>
              Matches {info.target}: <q>{info.meaning}</q>
            </>
          ) : (
            <>Matches {info.target}.</>
          )}
          {info.novaHelp ? <span className="muted"> Nova: {info.novaHelp}</span> : null}
          {info.warning && value ? (
            <span className="warn-text">
              {" "}
              nova-api stores it, but {info.warning}: the filter will not match it as you may expect.
            </span>
          ) : null}
        </>
      ),
      keyError,
      valueError: value && !keyError ? extraSpecValueError(k, value) : null,
    };
  }
  // image properties
  if (!k) return { readers: "", meaning: null, keyError: null, valueError: null };
  const hw = describeHwImageProperty(k, value);
  if (hw) {
    return {
      readers: "NUMATopologyFilter + virt driver",
      meaning: hw.meaning ? `${hw.help} (${hw.values}): ${hw.meaning}` : `${hw.help} (${hw.values})`,
      keyError: null,
      valueError: value ? hw.error : null,
    };
  }
  const field = Object.hasOwn(IMAGE_META_FIELDS, k) ? IMAGE_META_FIELDS[k] : undefined;
  let valueError: string | null = null;
  if (json && value) {
    try {
      const v = JSON.parse(value);
      if (!(typeof v === "number" || typeof v === "boolean" || Array.isArray(v)))
        valueError = "value: with JSON checked, must be a number, true/false or a list";
    } catch {
      valueError = "value: with JSON checked, must be valid JSON";
    }
  }
  const filters = KNOWLEDGE.imagePropertyReaders.get(k);
  const readers = !field
    ? "not a Nova image property"
    : filters
      ? filters.join(" + ")
      : k === "traits_required"
        ? "traits prefilter"
        : "AggregateImagePropertiesIsolation";
  return {
    readers,
    meaning: field
      ? `${field.values ? `${field.kind}: ${field.values.slice(0, 8).join(", ")}${field.values.length > 8 ? ", …" : ""}` : `Nova image property (${field.kind})`}; also matched by AggregateImagePropertiesIsolation when an aggregate sets ${k}`
      : "kept as is; the scheduler's filters ignore it",
    keyError: k && !/^[\w.:-]{1,255}$/.test(k) ? "key: may only contain letters, digits, '_', '-', '.' and ':'" : null,
    valueError,
  };
}

/** "s== QEMU: string equal to QEMU" → "string equal to QEMU" next to the example itself. */
function stripExample(meaning: string, example: string): string {
  return meaning.startsWith(`${example}: `) ? meaning.slice(example.length + 2) : meaning;
}

type Hidden = Record<string, string | number>;

function HiddenInputs({ fields }: { fields: Hidden }) {
  return (
    <>
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={String(v)} />
      ))}
    </>
  );
}

/** What the operator is typing in one row (key, value, the image's JSON flag). */
function useDraft(entry?: KvEntry) {
  const [key, setKey] = useState(entry?.key ?? "");
  const [value, setValue] = useState(entry?.value ?? "");
  const [json, setJson] = useState(Boolean(entry?.json));
  return { key, setKey, value, setValue, json, setJson };
}

/**
 * The key and value inputs of a row (with who reads the key, live) and, for
 * images, the JSON checkbox. `rowKey`: the key of the existing row they
 * edit; none = the add row (visible labels, key suggestions).
 */
function KvInputs({
  kind,
  form,
  draft,
  rowKey,
}: {
  kind: KvKind;
  form: ServerForm;
  draft: ReturnType<typeof useDraft>;
  rowKey?: string;
}) {
  const adding = rowKey === undefined;
  const d = describe(kind, draft.key, draft.value, draft.json);
  const listId = useId();
  const jsonId = useId();
  const suggestions =
    kind === "aggregate" ? SUGGESTED_METADATA_KEYS : kind === "flavor" ? SUGGESTED_EXTRA_SPECS : SUGGESTED_IMAGE_PROPS;
  return (
    <>
      <Field
        form={form}
        name="key"
        label={adding ? "New key" : `Key of ${rowKey}`}
        visuallyHiddenLabel={!adding}
        value={draft.key}
        onChange={(e) => {
          draft.setKey(e.target.value);
          form.clear();
        }}
        clientError={d.keyError}
        className="kv-key"
        list={adding ? listId : undefined}
        autoComplete="off"
        spellCheck={false}
        required={adding}
      />
      {adding ? (
        <datalist id={listId}>
          {suggestions.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      ) : null}
      <Field
        form={form}
        name="value"
        label={adding ? "New value" : `Value of ${rowKey}`}
        visuallyHiddenLabel={!adding}
        value={draft.value}
        onChange={(e) => {
          draft.setValue(e.target.value);
          form.clear();
        }}
        clientError={d.valueError}
        className="kv-value"
        autoComplete="off"
        spellCheck={false}
        live={
          adding && !draft.key.trim() ? (
            <span className="muted">Type a key to see which filter or weigher reads it.</span>
          ) : (
            <span className="reader">
              {d.readers ? <strong>{d.readers}</strong> : null} {d.meaning}
            </span>
          )
        }
      />
      {kind === "image" ? (
        <span className="kv-json">
          <input
            id={jsonId}
            type="checkbox"
            name="json"
            checked={draft.json}
            onChange={(e) => draft.setJson(e.target.checked)}
            aria-label={adding ? undefined : `${rowKey} is JSON`}
          />
          <label htmlFor={jsonId}>JSON</label>
        </span>
      ) : null}
    </>
  );
}

function Row({
  kind,
  entry,
  hidden,
  saveAction,
  removeAction,
  onRemoving,
}: {
  kind: KvKind;
  entry: KvEntry;
  hidden: Hidden;
  saveAction: FormAction;
  removeAction: FormAction;
  onRemoving: (key: string) => void;
}) {
  const save = useServerForm(saveAction);
  const remove = useServerForm(removeAction);
  const draft = useDraft(entry);
  const changed = draft.key !== entry.key || draft.value !== entry.value || draft.json !== Boolean(entry.json);
  return (
    <li className="kv-row">
      <form ref={save.formRef} onSubmit={save.onSubmit} className="kv-form" aria-label={`Edit ${entry.key}`}>
        <HiddenInputs fields={{ ...hidden, original_key: entry.key }} />
        <KvInputs kind={kind} form={save} draft={draft} rowKey={entry.key} />
        <SubmitButton form={save} className="btn small primary" disabled={!changed} aria-label={`Save ${entry.key}`}>
          Save
        </SubmitButton>
      </form>
      <form
        ref={remove.formRef}
        onSubmit={(e) => {
          if (
            !window.confirm(`Remove ${entry.key} (${entry.value})? Requests scheduled after this no longer see it.`)
          ) {
            e.preventDefault();
            return;
          }
          onRemoving(entry.key);
          remove.onSubmit(e);
        }}
        className="kv-remove"
      >
        <HiddenInputs fields={{ ...hidden, key: entry.key }} />
        <SubmitButton form={remove} className="btn small" pendingText="Removing…" aria-label={`Remove ${entry.key}`}>
          Remove
        </SubmitButton>
      </form>
      <FormStatus form={save} shownFields={["key", "value"]} className="kv-status" />
      <FormStatus form={remove} shownFields={[]} className="kv-status" />
    </li>
  );
}

function AddRow({
  kind,
  hidden,
  saveAction,
  noun,
}: {
  kind: KvKind;
  hidden: Hidden;
  saveAction: FormAction;
  noun: string;
}) {
  const draft = useDraft();
  const add = useServerForm(saveAction, {
    onSuccess: () => {
      draft.setKey("");
      draft.setValue("");
      draft.setJson(false);
    },
  });
  return (
    <div className="kv-add kv-row">
      <form ref={add.formRef} onSubmit={add.onSubmit} className="kv-form" aria-label={`Add ${noun}`}>
        <HiddenInputs fields={hidden} />
        <KvInputs kind={kind} form={add} draft={draft} />
        <SubmitButton form={add} className="btn small primary" pendingText="Adding…">
          Add
        </SubmitButton>
      </form>
      <FormStatus form={add} shownFields={["key", "value"]} className="kv-status" />
    </div>
  );
}

export function KvEditor({
  kind,
  title,
  entries,
  hidden,
  saveAction,
  removeAction,
  noun,
  emptyText,
}: {
  kind: KvKind;
  title: string;
  entries: KvEntry[];
  /** Hidden inputs of every row's form (record id, name for revalidation). */
  hidden: Hidden;
  saveAction: FormAction;
  removeAction: FormAction;
  noun: string;
  emptyText: string;
}) {
  const headingId = useId();
  // the row goes away with its key, so the editor itself reports the removal
  const [removing, setRemoving] = useState<string | null>(null);
  const removed = removing !== null && !entries.some((e) => e.key === removing) ? removing : null;
  return (
    <section className={`kv-editor kind-${kind}`} aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {removed ? (
        <p className="form-status ok" role="status" aria-label="Removed key">
          Removed {removed}.
        </p>
      ) : null}
      {kind === "flavor" ? (
        <RememberedDetails id="extra-spec-help" summary="Namespaces and operators">
          <ul>
            {Object.entries(NAMESPACE_HELP).map(([ns, text]) => (
              <li key={ns}>{text}</li>
            ))}
          </ul>
          <p>
            Values of aggregate_instance_extra_specs:, capabilities: and unscoped keys may start with an operator (no
            operator: exact string equality):
          </p>
          <DataTable
            className="compact-table operators"
            caption={<>Extra spec operators</>}
            captionClassName="visually-hidden"
            columns={["Operator", "Example and meaning"]}
          >
            {EXTRA_SPEC_OPERATORS.map((op) => {
              const example =
                op === "<or>"
                  ? "<or> kvm <or> qemu"
                  : op === "<all-in>"
                    ? "<all-in> avx aes"
                    : op.startsWith("s") || op === "<in>"
                      ? `${op} QEMU`
                      : `${op} 4`;
              return (
                <tr key={op}>
                  <th scope="row">
                    <code>{op}</code>
                  </th>
                  <td>
                    <code>{example}</code> — {stripExample(describeRequirement(example).meaning, example)}
                  </td>
                </tr>
              );
            })}
          </DataTable>
        </RememberedDetails>
      ) : null}
      {entries.length ? (
        <>
          <div className="kv-head" aria-hidden="true">
            <div className="kv-head-cols">
              <span>Key</span>
              <span>Value · read by</span>
            </div>
          </div>
          <ul className="kv-list">
            {entries.map((e) => (
              <Row
                key={e.key}
                kind={kind}
                entry={e}
                hidden={hidden}
                saveAction={saveAction}
                removeAction={removeAction}
                onRemoving={setRemoving}
              />
            ))}
          </ul>
        </>
      ) : (
        <p className="muted">{emptyText}</p>
      )}
      <AddRow kind={kind} hidden={hidden} saveAction={saveAction} noun={noun} />
    </section>
  );
}
