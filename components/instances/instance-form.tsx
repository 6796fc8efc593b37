"use client";

import { getJson } from "@/components/data/api";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { createInstance, deleteInstance, updateInstance } from "@/lib/instances/actions";
import {
  CreateOrEditForm,
  DeleteForm,
  Field,
  FormStatus,
  SelectField,
  String255Field,
  SubmitButton,
  UuidField,
  useServerForm,
} from "@/components/forms/form-kit";
import { useDebounced } from "@/components/ui/use-debounced";
import type { HostSearchResult, InstanceRow } from "@/lib/cloud/queries";

/** What the form edits: a row of the instances list. */
export type InstanceValues = Omit<InstanceRow, "serverGroupPolicy">;

export interface Choices {
  flavors: string[];
  images: { uuid: string; name: string | null }[];
  groups: { uuid: string; name: string; policy: string }[];
}

const FIELDS = ["name", "uuid", "host", "flavor", "image", "project_id", "server_group"];

/** Host name input with server-side suggestions (works with 10,000 hosts). */
function useHostSuggestions(text: string) {
  const q = useDebounced(text.trim(), 200);
  return useQuery({
    queryKey: ["host-suggest", q],
    queryFn: ({ signal }) =>
      getJson<{ rows: HostSearchResult[]; total: number }>(`/api/hosts?${new URLSearchParams({ q, limit: "15" })}`, {
        signal,
      }),
    enabled: q.length >= 2,
    placeholderData: keepPreviousData,
  });
}

export function InstanceForm({ instance, choices }: { instance?: InstanceValues; choices: Choices }) {
  const form = useServerForm(instance ? updateInstance : createInstance, { resetOnSuccess: !instance });
  const [host, setHost] = useState(instance?.host ?? "");
  const suggestions = useHostSuggestions(host);
  const listId = useId();
  return (
    <CreateOrEditForm form={form} noun="instance" record={instance} className="form-grid">
      <String255Field form={form} name="name" label="Name" defaultValue={instance?.name ?? ""} />
      <Field
        form={form}
        name="host"
        label="Host"
        value={host}
        onChange={(e) => setHost(e.target.value)}
        list={listId}
        autoComplete="off"
        hint="Empty: on no host. Type 2+ characters for suggestions."
      />
      <datalist id={listId}>
        {(suggestions.data?.rows ?? []).map((h) => (
          <option key={h.id} value={h.name}>
            {h.cell} · {h.state}
          </option>
        ))}
      </datalist>
      <SelectField form={form} name="flavor" label="Flavor" defaultValue={instance?.flavor ?? ""}>
        <option value="">(none)</option>
        {choices.flavors.map((f) => (
          <option key={f} value={f}>
            {f}
          </option>
        ))}
      </SelectField>
      <SelectField form={form} name="image" label="Image" defaultValue={instance?.image ?? ""}>
        <option value="">(none)</option>
        {choices.images.map((im) => (
          <option key={im.uuid} value={im.uuid}>
            {im.name ?? im.uuid}
          </option>
        ))}
      </SelectField>
      <String255Field form={form} name="project_id" label="Project ID" defaultValue={instance?.projectId ?? ""} />
      <SelectField form={form} name="server_group" label="Server group" defaultValue={instance?.serverGroup ?? ""}>
        <option value="">(none)</option>
        {choices.groups.map((g) => (
          <option key={g.uuid} value={g.uuid}>
            {g.name} ({g.policy})
          </option>
        ))}
      </SelectField>
      <UuidField form={form} name="uuid" creating={!instance} defaultValue={instance?.uuid ?? ""} className="span-2" />
      <div className="form-actions span-all">
        <SubmitButton form={form}>{instance ? "Save instance" : "Create instance"}</SubmitButton>
        <FormStatus form={form} shownFields={FIELDS} />
      </div>
      <p className="muted small span-all">
        A host&apos;s usage figures (vcpus_used, memory_mb_used, num_instances) are its compute node&apos;s own report
        and do not change with these records; server group members and same_host/different_host hints do.
      </p>
    </CreateOrEditForm>
  );
}

export function DeleteInstanceForm({ id, version, label }: { id: number; version: number; label: string }) {
  return (
    <DeleteForm
      action={deleteInstance}
      id={id}
      version={version}
      label="Delete instance"
      question={`Delete instance ${label}?`}
    />
  );
}
