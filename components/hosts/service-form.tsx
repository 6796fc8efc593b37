"use client";

import { setHostService } from "@/lib/hosts/actions";
import { Field, FormStatus, SubmitButton, useServerForm } from "@/components/forms/form-kit";

/** Enable / disable the nova-compute service of one host (with a reason when disabling). */
export function ServiceForm({ host, disabled, reason }: { host: string; disabled: boolean; reason: string | null }) {
  const form = useServerForm(setHostService);
  return (
    <form ref={form.formRef} onSubmit={form.onSubmit} className="stack" aria-label="Compute service">
      <input type="hidden" name="host" value={host} />
      <p>
        The compute service is <strong>{disabled ? "disabled" : "enabled"}</strong>
        {disabled && reason ? <> — reason: “{reason}”</> : null}. A disabled host is rejected by ComputeFilter (and the
        compute_status prefilter) but keeps its instances.
      </p>
      {disabled ? (
        <>
          <input type="hidden" name="disabled" value="false" />
          <SubmitButton form={form}>Enable service</SubmitButton>
        </>
      ) : (
        <>
          <input type="hidden" name="disabled" value="true" />
          <Field
            form={form}
            name="reason"
            label="Reason for disabling"
            hint="Shown to other operators, e.g. “maintenance: firmware upgrade”."
            maxLength={255}
            className="wide"
          />
          <SubmitButton form={form} className="btn danger">
            Disable service
          </SubmitButton>
        </>
      )}
      <FormStatus form={form} shownFields={["reason"]} />
    </form>
  );
}
