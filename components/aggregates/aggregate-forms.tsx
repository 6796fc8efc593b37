"use client";

import {
  createAggregate,
  deleteAggregate,
  removeAggregateHost,
  renameAggregate,
  setAggregateZone,
} from "@/lib/aggregates/actions";
import { DeleteForm, Field, FormStatus, SubmitButton, useServerForm } from "@/components/forms/form-kit";

export function CreateAggregateForm() {
  const form = useServerForm(createAggregate);
  return (
    <form ref={form.formRef} onSubmit={form.onSubmit} className="inline-form" aria-label="Create aggregate">
      <Field form={form} name="name" label="Name" required maxLength={255} autoComplete="off" />
      <Field
        form={form}
        name="availability_zone"
        label="Availability zone (optional)"
        maxLength={255}
        autoComplete="off"
        hint="Sets the zone of every host in it."
      />
      <SubmitButton form={form}>Create aggregate</SubmitButton>
      <FormStatus form={form} shownFields={["name", "availability_zone"]} />
    </form>
  );
}

export function RenameAggregateForm({ id, name, version }: { id: number; name: string; version: number }) {
  const form = useServerForm(renameAggregate);
  return (
    <form ref={form.formRef} onSubmit={form.onSubmit} className="inline-form" aria-label="Rename aggregate">
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="version" value={version} />
      <Field form={form} name="name" label="Name" defaultValue={name} required maxLength={255} autoComplete="off" />
      <SubmitButton form={form}>Rename</SubmitButton>
      <FormStatus form={form} shownFields={["name"]} />
    </form>
  );
}

export function AggregateZoneForm({
  id,
  name,
  zone,
  version,
}: {
  id: number;
  name: string;
  zone: string | null;
  version: number;
}) {
  const form = useServerForm(setAggregateZone);
  return (
    <form ref={form.formRef} onSubmit={form.onSubmit} className="inline-form" aria-label="Availability zone">
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="aggregate_name" value={name} />
      <input type="hidden" name="version" value={version} />
      <Field
        form={form}
        name="availability_zone"
        label="Availability zone"
        defaultValue={zone ?? ""}
        maxLength={255}
        autoComplete="off"
        hint="AvailabilityZoneFilter. Empty: the hosts fall back to the default zone."
      />
      <SubmitButton form={form}>Set zone</SubmitButton>
      <FormStatus form={form} shownFields={["availability_zone"]} />
    </form>
  );
}

export function DeleteAggregateForm({
  id,
  version,
  name,
  hosts,
}: {
  id: number;
  version: number;
  name: string;
  hosts: number;
}) {
  return (
    <DeleteForm
      action={deleteAggregate}
      id={id}
      version={version}
      label="Delete aggregate"
      question={`Delete aggregate ${name}${hosts ? ` (its ${hosts} hosts stay, outside it)` : ""}?`}
    />
  );
}

export function RemoveHostButton({ id, aggregateName, host }: { id: number; aggregateName: string; host: string }) {
  const form = useServerForm(removeAggregateHost);
  return (
    <form ref={form.formRef} onSubmit={form.onSubmit} className="row-action">
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="aggregate_name" value={aggregateName} />
      <input type="hidden" name="host" value={host} />
      <SubmitButton
        form={form}
        className="btn small"
        pendingText="Removing…"
        aria-label={`Remove ${host} from the aggregate`}
      >
        Remove
      </SubmitButton>
      <FormStatus form={form} shownFields={[]} className="inline-status" />
    </form>
  );
}
