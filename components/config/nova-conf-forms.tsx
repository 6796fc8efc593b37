"use client";

/** nova.conf in and out of the /config page: import a file as a profile; export is a download link. */
import { Field, FormStatus, SubmitButton, useServerForm } from "@/components/forms/form-kit";
import { importNovaConfAction } from "@/lib/openstack/actions";

export function ImportNovaConfForm() {
  const form = useServerForm(importNovaConfAction);
  return (
    <form ref={form.formRef} onSubmit={form.onSubmit} className="form-grid" aria-labelledby="import-nova-conf">
      <h2 id="import-nova-conf">Import nova.conf</h2>
      <p className="muted small">
        Reads [filter_scheduler], [scheduler], [metrics] and [pci]; options Nova does not define there are listed.
      </p>
      <Field form={form} name="file" label="nova.conf file" type="file" accept=".conf,text/plain" required />
      <Field
        form={form}
        name="name"
        label="Profile name"
        required
        maxLength={100}
        hint="Created, or replaced if it exists."
      />
      <FormStatus form={form} shownFields={["file", "name"]} />
      <SubmitButton form={form} needs="operator" pendingText="Importing…">
        Import nova.conf
      </SubmitButton>
    </form>
  );
}

export function ExportNovaConfLink({ profile }: { profile: string }) {
  return (
    <a className="btn" href={`/api/profiles/${encodeURIComponent(profile)}/nova-conf`} download>
      Export as nova.conf
    </a>
  );
}
