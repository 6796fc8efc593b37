"use client";

import { createFlavor, deleteFlavor, updateFlavor } from "@/lib/flavors/actions";
import {
  CheckboxField,
  CreateOrEditForm,
  DeleteForm,
  Field,
  FormStatus,
  String255Field,
  SubmitButton,
  TextAreaField,
  useServerForm,
} from "@/components/forms/form-kit";
import type { FlavorRow } from "@/lib/cloud/queries";

export type FlavorValues = Omit<FlavorRow, "extraSpecs" | "instanceCount">;

const FIELDS = [
  "name",
  "flavorid",
  "vcpus",
  "memory_mb",
  "root_gb",
  "ephemeral_gb",
  "swap",
  "is_public",
  "description",
];

/** Create (no `flavor`) or edit a flavor's sizes. */
export function FlavorForm({ flavor }: { flavor?: FlavorValues }) {
  const form = useServerForm(flavor ? updateFlavor : createFlavor);
  return (
    <CreateOrEditForm form={form} noun="flavor" record={flavor} className="form-grid">
      <String255Field form={form} name="name" label="Name" defaultValue={flavor?.name} required />
      <String255Field form={form} name="flavorid" label="Flavor ID (optional)" defaultValue={flavor?.flavorid ?? ""} />
      <Field form={form} name="vcpus" label="vCPUs" defaultValue={flavor?.vcpus} inputMode="numeric" required />
      <Field
        form={form}
        name="memory_mb"
        label="RAM (MB)"
        defaultValue={flavor?.memoryMb}
        inputMode="numeric"
        required
      />
      <Field form={form} name="root_gb" label="Root disk (GB)" defaultValue={flavor?.rootGb ?? 0} inputMode="numeric" />
      <Field
        form={form}
        name="ephemeral_gb"
        label="Ephemeral disk (GB)"
        defaultValue={flavor?.ephemeralGb ?? 0}
        inputMode="numeric"
      />
      <Field form={form} name="swap" label="Swap (MB)" defaultValue={flavor?.swap ?? 0} inputMode="numeric" />
      <CheckboxField form={form} name="is_public" label="Public" defaultChecked={flavor?.isPublic ?? true} />
      <TextAreaField
        form={form}
        name="description"
        label="Description"
        defaultValue={flavor?.description ?? ""}
        rows={2}
        className="span-all"
      />
      <div className="form-actions span-all">
        <SubmitButton form={form}>{flavor ? "Save flavor" : "Create flavor"}</SubmitButton>
        <FormStatus form={form} shownFields={FIELDS} />
      </div>
    </CreateOrEditForm>
  );
}

export function DeleteFlavorForm({
  id,
  version,
  name,
  instances,
}: {
  id: number;
  version: number;
  name: string;
  instances: number;
}) {
  return (
    <DeleteForm
      action={deleteFlavor}
      id={id}
      version={version}
      label="Delete flavor"
      question={`Delete flavor ${name}?${instances ? ` Its ${instances} instances keep running, with no flavor record.` : ""}`}
    />
  );
}
