"use client";

/**
 * The scheduler profile editor (/config): the Nova release, Nova's Placement
 * path and its [scheduler] options, filters and weighers enabled and
 * ordered, the weighers' multipliers, every other option and the [pci]
 * aliases, each with Nova's default and meaning (OPTION_DOCS,
 * PLACEMENT_OPTION_DOCS). Saved through the saveProfile server action, which
 * validates with profileSaveSchema.
 */
import { type ReactNode, useState } from "react";
import { useUnsavedGuard } from "@/components/forms/unsaved-guard";
import { activateProfile, createProfile, deleteProfile, saveProfile } from "@/lib/profiles/actions";
import {
  ConfirmSubmit,
  Field,
  FormStatus,
  RowActionForm,
  SelectField,
  SubmitButton,
  TextAreaField,
  useServerForm,
  type ServerForm,
} from "@/components/forms/form-kit";
import { BOOL_OPTIONS, INT_OPTIONS, LIST_OPTIONS } from "@/lib/cloud/form-schemas";
import {
  NOVA_RELEASE_HELP,
  NOVA_RELEASES,
  FILTERS_ONLY,
  PLACEMENT_OPTION_DOCS,
  type ProfileOptionDoc,
} from "@/lib/catalog/placement-options";
import { PCI_DEVICE_TYPES, PCI_NUMA_POLICIES } from "@/lib/scenario/schema";
import type { OptionDoc } from "@/lib/scheduler/config";
import { releaseProvenance } from "@/lib/scheduler/releases";
import { DataTable } from "@/components/ui/table";
import { OrderedList, type Known } from "./ordered-list";

export interface ProfileData {
  id: number;
  name: string;
  description: string | null;
  active: boolean;
  config: Record<string, unknown>;
  version?: number;
}

export interface Catalogue {
  filters: Known[];
  weighers: (Known & { multiplier: string })[];
  options: OptionDoc[];
  defaultFilters: string[];
  allWeighers: string[];
}

const shownDefault = (v: unknown) =>
  v === null ? "none" : Array.isArray(v) ? (v.length ? v.join(", ") : "empty") : v === "" ? "empty" : String(v);

function optionText(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (Array.isArray(v)) return v.join(", ");
  return String(v);
}

/** A boolean option: true, false, or left out of the profile (Nova's default applies). */
function BoolOptionField({
  form,
  name,
  hint,
  novaDefault,
  value,
}: {
  form: ServerForm;
  name: string;
  hint: ReactNode;
  novaDefault: unknown;
  /** "true", "false" or "" (not set) */
  value: string;
}) {
  return (
    <SelectField form={form} name={name} label={name} hint={hint} defaultValue={value}>
      <option value="">Nova default ({String(novaDefault)})</option>
      <option value="true">true</option>
      <option value="false">false</option>
    </SelectField>
  );
}

function OptionField({ doc, form, value }: { doc: OptionDoc; form: ServerForm; value: unknown }) {
  const key = doc.key as string;
  const hint = (
    <>
      {doc.help} <span className="default">Nova default: {shownDefault(doc.default)}</span>
    </>
  );
  if (BOOL_OPTIONS.has(key)) {
    return (
      <BoolOptionField
        form={form}
        name={key}
        hint={hint}
        novaDefault={doc.default}
        value={value === undefined || value === null ? "" : String(value)}
      />
    );
  }
  return (
    <Field
      form={form}
      name={key}
      label={key}
      hint={hint}
      defaultValue={optionText(value)}
      placeholder={LIST_OPTIONS.has(key) ? "comma separated" : `default ${shownDefault(doc.default)}`}
      inputMode={INT_OPTIONS.has(key) ? "numeric" : typeof doc.default === "number" ? "decimal" : undefined}
      autoComplete="off"
      spellCheck={false}
    />
  );
}

function PlacementOptionField({ doc, form, value }: { doc: ProfileOptionDoc; form: ServerForm; value: unknown }) {
  const hint = (
    <>
      {doc.section} {doc.help} <span className="default">Nova default: {String(doc.default)}</span>
    </>
  );
  if (doc.key === "placement") {
    // Not a Nova option: Nova always asks Placement. The path without it is an explicit choice.
    return (
      <SelectField
        form={form}
        name="placement"
        label="placement"
        hint="Nova asks Placement before any filter (every release since Stein)."
        defaultValue={value === true ? "true" : "false"}
      >
        <option value="true">Placement (as Nova): resources, traits and aggregates checked first</option>
        <option value="false">{FILTERS_ONLY}</option>
      </SelectField>
    );
  }
  if (doc.kind === "bool") {
    return (
      <BoolOptionField
        form={form}
        name={doc.key}
        hint={hint}
        novaDefault={doc.default}
        value={typeof value === "boolean" ? String(value) : ""}
      />
    );
  }
  return (
    <Field
      form={form}
      name={doc.key}
      label={doc.key}
      hint={hint}
      defaultValue={optionText(value)}
      placeholder={`default ${doc.default}`}
      inputMode="numeric"
      autoComplete="off"
    />
  );
}

type AliasRow = Record<"name" | "vendor_id" | "product_id" | "device_type" | "numa_policy", string>;
const BLANK_ALIAS: AliasRow = { name: "", vendor_id: "", product_id: "", device_type: "", numa_policy: "" };

function aliasRows(value: unknown): AliasRow[] {
  if (!Array.isArray(value)) return [];
  return value.map((entry) => {
    let spec: unknown = entry;
    if (typeof entry === "string") {
      try {
        spec = JSON.parse(entry);
      } catch {
        spec = {};
      }
    }
    const o = (spec ?? {}) as Record<string, unknown>;
    return {
      name: String(o.name ?? ""),
      vendor_id: String(o.vendor_id ?? ""),
      product_id: String(o.product_id ?? ""),
      device_type: String(o.device_type ?? ""),
      numa_policy: String(o.numa_policy ?? ""),
    };
  });
}

/**
 * The [pci] alias fields Nova reads, one column each: a free-text input, or a
 * select whose empty choice is what Nova does when the field is left out.
 */
const ALIAS_COLUMNS: {
  field: keyof AliasRow;
  header: string;
  /** the input's accessible name after "Alias N" */
  label: string;
  input?: { placeholder?: string; size?: number; spellCheck?: boolean };
  choices?: { empty: string; values: readonly string[] };
}[] = [
  { field: "name", header: "Name", label: "name", input: { spellCheck: false } },
  { field: "vendor_id", header: "Vendor id", label: "vendor id", input: { placeholder: "10de", size: 6 } },
  { field: "product_id", header: "Product id", label: "product id", input: { placeholder: "any", size: 6 } },
  {
    field: "device_type",
    header: "Device type",
    label: "device type",
    choices: { empty: "any", values: PCI_DEVICE_TYPES },
  },
  {
    field: "numa_policy",
    header: "NUMA policy",
    label: "NUMA policy",
    choices: { empty: "legacy (default)", values: PCI_NUMA_POLICIES },
  },
];

function AliasCell({
  column: c,
  row,
  value,
  onChange,
}: {
  column: (typeof ALIAS_COLUMNS)[number];
  row: number;
  value: string;
  onChange: (value: string) => void;
}) {
  const common = { name: `pci_alias_${c.field}`, "aria-label": `Alias ${row} ${c.label}`, value };
  if (c.choices) {
    return (
      <select {...common} onChange={(e) => onChange(e.target.value)}>
        <option value="">{c.choices.empty}</option>
        {c.choices.values.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
    );
  }
  return <input {...common} onChange={(e) => onChange(e.target.value)} autoComplete="off" {...c.input} />;
}

/** [pci] alias rows: what pci_passthrough:alias names in flavors. */
function PciAliasEditor({ form, initial }: { form: ServerForm; initial: AliasRow[] }) {
  const [rows, setRows] = useState<(AliasRow & { key: number })[]>(() => initial.map((r, i) => ({ ...r, key: i })));
  const [next, setNext] = useState(initial.length);
  const edit = (key: number, field: keyof AliasRow, value: string) =>
    setRows((rs) => rs.map((x) => (x.key === key ? { ...x, [field]: value } : x)));
  const errors = form.errors("pci_alias") ?? [];
  return (
    <>
      <DataTable
        caption={<>PCI aliases ({rows.length})</>}
        className="compact-table"
        columns={[...ALIAS_COLUMNS.map((c) => c.header), { label: "Remove", hidden: true }]}
      >
        {rows.map((r, i) => (
          <tr key={r.key}>
            {ALIAS_COLUMNS.map((c) => (
              <td key={c.field}>
                <AliasCell column={c} row={i + 1} value={r[c.field]} onChange={(v) => edit(r.key, c.field, v)} />
              </td>
            ))}
            <td>
              <button
                type="button"
                className="btn small"
                aria-label={`Remove alias ${i + 1}${r.name ? ` (${r.name})` : ""}`}
                onClick={() => setRows(rows.filter((x) => x.key !== r.key))}
              >
                Remove
              </button>
            </td>
          </tr>
        ))}
      </DataTable>
      <button
        type="button"
        className="btn small"
        onClick={() => {
          setRows([...rows, { ...BLANK_ALIAS, key: next }]);
          setNext(next + 1);
        }}
      >
        Add PCI alias
      </button>
      {errors.length ? (
        <ul className="plain" role="alert" aria-label="PCI alias errors">
          {errors.map((e) => (
            <li key={e} className="field-error">
              {e}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

export function ProfileEditor({ profile, catalogue }: { profile: ProfileData; catalogue: Catalogue }) {
  const form = useServerForm(saveProfile);
  const { dirty } = useUnsavedGuard(form.formRef, form.state?.ok ? form.state : null, `Profile ${profile.name}`);
  const cfg = profile.config;
  const [filters, setFilters] = useState<string[]>(
    Array.isArray(cfg.enabled_filters) ? (cfg.enabled_filters as string[]) : catalogue.defaultFilters,
  );
  const [weighersMode, setWeighersMode] = useState<"all" | "list">(Array.isArray(cfg.weighers) ? "list" : "all");
  const [weighers, setWeighers] = useState<string[]>(
    Array.isArray(cfg.weighers) ? (cfg.weighers as string[]) : catalogue.allWeighers,
  );

  const multiplierKeys = new Set(catalogue.weighers.map((w) => w.multiplier));
  const optionByKey = new Map(catalogue.options.map((o) => [o.key as string, o]));
  const metricsKeys = ["metrics_weight_setting", "metrics_required", "metrics_weight_of_unavailable"];
  const selectionKeys = ["host_subset_size", "shuffle_best_same_weighed_hosts", "max_attempts"];
  // the conductor's options, read around the scheduler for moves
  const moveKeys = ["migrate_max_retries"];
  const filterKeys = catalogue.options
    .map((o) => o.key as string)
    .filter(
      (k) =>
        !multiplierKeys.has(k) &&
        !metricsKeys.includes(k) &&
        !selectionKeys.includes(k) &&
        !moveKeys.includes(k) &&
        !PLACEMENT_OPTION_DOCS.some((o) => o.key === k),
    );
  const shownFields = [
    "description",
    "enabled_filters",
    "nova_release",
    "pci_alias",
    ...PLACEMENT_OPTION_DOCS.map((o) => o.key),
    "weighers",
    "weighers_mode",
    ...catalogue.options.map((o) => o.key as string),
  ];
  const activeWeighers = weighersMode === "all" ? catalogue.allWeighers : weighers;

  return (
    <form
      ref={form.formRef}
      onSubmit={form.onSubmit}
      className="profile-editor"
      aria-label={`Edit profile ${profile.name}`}
    >
      <input type="hidden" name="id" value={profile.id} />
      {profile.version ? <input type="hidden" name="version" value={profile.version} /> : null}
      <input type="hidden" name="weighers_mode" value={weighersMode} />
      <TextAreaField
        form={form}
        name="description"
        label="Description"
        defaultValue={profile.description ?? ""}
        rows={2}
      />

      <fieldset className="panel">
        <legend>Nova release</legend>
        <SelectField
          form={form}
          name="nova_release"
          label="nova_release"
          hint="Whose behaviour the engine reproduces; every result shows it."
          defaultValue={typeof cfg.nova_release === "string" ? cfg.nova_release : ""}
        >
          <option value="">default (zed)</option>
          {NOVA_RELEASES.map((r) => (
            <option key={r} value={r}>
              {r} — {NOVA_RELEASE_HELP[r]} ({releaseProvenance(r)})
            </option>
          ))}
        </SelectField>
      </fieldset>

      <fieldset className="panel">
        <legend>Placement</legend>
        <p className="muted small">
          Nova&apos;s request filters and GET /allocation_candidates before the filters; hosts Placement does not return
          are never considered.
        </p>
        <div className="option-grid">
          {PLACEMENT_OPTION_DOCS.map((doc) => (
            <PlacementOptionField key={doc.key} doc={doc} form={form} value={cfg[doc.key]} />
          ))}
        </div>
      </fieldset>

      <fieldset className="panel">
        <legend>Filters</legend>
        <p className="muted small">
          [filter_scheduler] enabled_filters: every host must pass each, in this order (cheap, selective filters first).
        </p>
        <OrderedList
          name="enabled_filters"
          label="Enabled filters, in order"
          noun="filter"
          items={filters}
          onChange={setFilters}
          known={catalogue.filters}
          errors={form.errors("enabled_filters")}
          notSimulated={{ field: "not_simulated", effect: "passes every host" }}
        />
      </fieldset>

      <fieldset className="panel">
        <legend>Weighers and multipliers</legend>
        <div className="radio-row" role="radiogroup" aria-label="Weighers">
          <label>
            <input
              type="radio"
              name="_weighers_choice"
              checked={weighersMode === "all"}
              onChange={() => setWeighersMode("all")}
            />{" "}
            all (Nova Zed&apos;s {catalogue.allWeighers.length} weighers)
          </label>
          <label>
            <input
              type="radio"
              name="_weighers_choice"
              checked={weighersMode === "list"}
              onChange={() => setWeighersMode("list")}
            />{" "}
            these weighers, in order
          </label>
        </div>
        {weighersMode === "list" ? (
          <OrderedList
            name="weighers"
            label="Enabled weighers, in order"
            noun="weigher"
            items={weighers}
            onChange={setWeighers}
            known={catalogue.weighers}
            errors={form.errors("weighers")}
            notSimulated={{ field: "not_simulated", effect: "weighs 0" }}
          />
        ) : null}
        <div className="option-grid">
          {catalogue.weighers.map((w) => {
            const doc = optionByKey.get(w.multiplier);
            if (!doc) return null;
            return (
              <div key={w.name} className={activeWeighers.includes(w.name) ? "" : "inactive"}>
                <OptionField doc={doc} form={form} value={cfg[w.multiplier]} />
                {!activeWeighers.includes(w.name) ? (
                  <span className="muted small">{w.name} is not enabled.</span>
                ) : null}
              </div>
            );
          })}
          {metricsKeys.map((k) => {
            const doc = optionByKey.get(k);
            return doc ? <OptionField key={k} doc={doc} form={form} value={cfg[k]} /> : null;
          })}
        </div>
      </fieldset>

      <fieldset className="panel">
        <legend>Host selection</legend>
        <div className="option-grid">
          {selectionKeys.map((k) => {
            const doc = optionByKey.get(k);
            return doc ? <OptionField key={k} doc={doc} form={form} value={cfg[k]} /> : null;
          })}
        </div>
      </fieldset>

      <fieldset className="panel">
        <legend>Moves (nova-conductor)</legend>
        <div className="option-grid">
          {moveKeys.map((k) => {
            const doc = optionByKey.get(k);
            return doc ? <OptionField key={k} doc={doc} form={form} value={cfg[k]} /> : null;
          })}
        </div>
      </fieldset>

      <fieldset className="panel">
        <legend>Filter options</legend>
        <div className="option-grid">
          {filterKeys.map((k) => (
            <OptionField key={k} doc={optionByKey.get(k)!} form={form} value={cfg[k]} />
          ))}
        </div>
      </fieldset>

      <fieldset className="panel">
        <legend>PCI aliases ([pci] alias)</legend>
        <p className="muted small">
          The names flavors use in pci_passthrough:alias (e.g. a40:2). Each needs a vendor id (4 hex digits); a missing
          product id matches any product of that vendor.
        </p>
        <PciAliasEditor form={form} initial={aliasRows(cfg.pci_alias)} />
      </fieldset>

      <div className="form-actions sticky-actions">
        <SubmitButton form={form} needs="operator">
          Save profile
        </SubmitButton>
        {dirty ? <span className="warn-text">Unsaved changes</span> : null}
        <FormStatus form={form} shownFields={shownFields} success={`Profile ${profile.name} saved.`} />
      </div>
    </form>
  );
}

export function CreateProfileForm({ profiles }: { profiles: string[] }) {
  const form = useServerForm(createProfile);
  return (
    <form ref={form.formRef} onSubmit={form.onSubmit} className="stack" aria-label="Create profile">
      <Field form={form} name="name" label="Name" required maxLength={100} autoComplete="off" />
      <SelectField form={form} name="copy_from" label="Start from" defaultValue="">
        <option value="">Nova&apos;s defaults</option>
        {profiles.map((p) => (
          <option key={p} value={p}>
            a copy of {p}
          </option>
        ))}
      </SelectField>
      <Field form={form} name="description" label="Description (optional)" maxLength={1000} autoComplete="off" />
      <SubmitButton form={form} needs="operator">
        Create profile
      </SubmitButton>
      <FormStatus form={form} shownFields={["name", "copy_from", "description"]} />
    </form>
  );
}

/** `version`: the profile's when the page was opened (activating a profile changed since is refused, like a save). */
export function ActivateProfileButton({ id, version, name }: { id: number; version: number; name: string }) {
  return (
    <RowActionForm action={activateProfile} hidden={{ id, version }}>
      {(form) => (
        <SubmitButton
          form={form}
          needs="operator"
          className="btn small"
          pendingText="Activating…"
          aria-label={`Activate ${name}`}
        >
          Activate
        </SubmitButton>
      )}
    </RowActionForm>
  );
}

export function DeleteProfileButton({ id, version, name }: { id: number; version: number; name: string }) {
  return (
    <RowActionForm action={deleteProfile} hidden={{ id, version }}>
      {(form) => (
        <ConfirmSubmit
          form={form}
          needs="operator"
          question={`Delete profile ${name}?`}
          className="btn small danger"
          aria-label={`Delete ${name}`}
        >
          Delete
        </ConfirmSubmit>
      )}
    </RowActionForm>
  );
}
