"use client";

import {
  createAggregate,
  deleteAggregate,
  removeAggregateHost,
  renameAggregate,
  setAggregateZone,
} from "@/lib/aggregates/actions";
import {
  DeleteForm,
  FormStatus,
  RecordRef,
  RowActionForm,
  String255Field,
  SubmitButton,
  useServerForm,
} from "@/components/forms/form-kit";

export function CreateAggregateForm() {
  const form = useServerForm(createAggregate);
  return (
    <form ref={form.formRef} onSubmit={form.onSubmit} className="inline-form" aria-label="Create aggregate">
      <String255Field form={form} name="name" label="Name" required />
      <String255Field
        form={form}
        name="availability_zone"
        label="Availability zone (optional)"
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
      <RecordRef id={id} version={version} />
      <String255Field form={form} name="name" label="Name" defaultValue={name} required />
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
      <RecordRef id={id} version={version} />
      <input type="hidden" name="aggregate_name" value={name} />
      <String255Field
        form={form}
        name="availability_zone"
        label="Availability zone"
        defaultValue={zone ?? ""}
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

export function RemoveHostButton({
  id,
  aggregateName,
  host,
  version,
}: {
  id: number;
  aggregateName: string;
  host: string;
  version: number;
}) {
  return (
    <RowActionForm action={removeAggregateHost} hidden={{ id, aggregate_name: aggregateName, host, version }}>
      {(form) => (
        <SubmitButton
          form={form}
          className="btn small"
          pendingText="Removing…"
          aria-label={`Remove ${host} from the aggregate`}
        >
          Remove
        </SubmitButton>
      )}
    </RowActionForm>
  );
}
