"use client";

import { useState } from "react";
import { createServerGroup, deleteServerGroup, updateServerGroup } from "@/lib/server-groups/actions";
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

const POLICIES = [
  ["affinity", "affinity — all members on one host (ServerGroupAffinityFilter)"],
  ["anti-affinity", "anti-affinity — members on different hosts (ServerGroupAntiAffinityFilter)"],
  ["soft-affinity", "soft-affinity — prefer one host (ServerGroupSoftAffinityWeigher)"],
  ["soft-anti-affinity", "soft-anti-affinity — prefer different hosts (ServerGroupSoftAntiAffinityWeigher)"],
] as const;

export interface GroupValues {
  id: number;
  uuid: string;
  name: string;
  policy: string;
  projectId: string | null;
  maxServerPerHost: number | null;
  version?: number;
}

const FIELDS = ["name", "policy", "max_server_per_host", "project_id", "uuid"];

export function ServerGroupForm({ group }: { group?: GroupValues }) {
  const form = useServerForm(group ? updateServerGroup : createServerGroup, { resetOnSuccess: !group });
  const [policy, setPolicy] = useState(group?.policy ?? "anti-affinity");
  return (
    <CreateOrEditForm form={form} noun="server group" record={group} className="form-grid">
      <String255Field form={form} name="name" label="Name" defaultValue={group?.name} required />
      <SelectField form={form} name="policy" label="Policy" value={policy} onChange={(e) => setPolicy(e.target.value)}>
        {POLICIES.map(([v, label]) => (
          <option key={v} value={v}>
            {label}
          </option>
        ))}
      </SelectField>
      <Field
        form={form}
        name="max_server_per_host"
        label="Rule max_server_per_host"
        defaultValue={group?.maxServerPerHost ?? ""}
        inputMode="numeric"
        hint={
          policy === "anti-affinity"
            ? "anti-affinity only: members allowed per host (empty = 1)"
            : "only for the anti-affinity policy"
        }
      />
      <String255Field form={form} name="project_id" label="Project ID" defaultValue={group?.projectId ?? ""} />
      <UuidField form={form} name="uuid" creating={!group} defaultValue={group?.uuid ?? ""} className="span-2" />
      <div className="form-actions span-all">
        <SubmitButton form={form}>{group ? "Save server group" : "Create server group"}</SubmitButton>
        <FormStatus form={form} shownFields={FIELDS} />
      </div>
    </CreateOrEditForm>
  );
}

export function DeleteServerGroupForm({
  id,
  version,
  name,
  members,
}: {
  id: number;
  version: number;
  name: string;
  members: number;
}) {
  return (
    <DeleteForm
      action={deleteServerGroup}
      id={id}
      version={version}
      label="Delete server group"
      question={`Delete server group ${name}?${members ? ` Its ${members} members stay, in no group.` : ""}`}
    />
  );
}
