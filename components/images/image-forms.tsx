"use client";

import { createImage, deleteImage, updateImage } from "@/lib/images/actions";
import { DeleteForm, Field, FormStatus, SubmitButton, useServerForm } from "@/components/forms/form-kit";

export function ImageForm({ image }: { image?: { id: number; uuid: string; name: string | null; version?: number } }) {
  const form = useServerForm(image ? updateImage : createImage, { resetOnSuccess: !image });
  return (
    <form
      ref={form.formRef}
      onSubmit={form.onSubmit}
      className="inline-form"
      aria-label={image ? "Edit image" : "Create image"}
    >
      {image ? <input type="hidden" name="id" value={image.id} /> : null}
      {image?.version ? <input type="hidden" name="version" value={image.version} /> : null}
      <Field form={form} name="name" label="Name" defaultValue={image?.name ?? ""} maxLength={255} autoComplete="off" />
      <Field
        form={form}
        name="uuid"
        label="Image ID (UUID)"
        defaultValue={image?.uuid ?? ""}
        placeholder={image ? undefined : "empty: generate one"}
        maxLength={36}
        autoComplete="off"
        className="wide"
      />
      <SubmitButton form={form}>{image ? "Save image" : "Create image"}</SubmitButton>
      <FormStatus form={form} shownFields={["name", "uuid"]} />
    </form>
  );
}

export function DeleteImageForm({
  id,
  version,
  label,
  instances,
}: {
  id: number;
  version: number;
  label: string;
  instances: number;
}) {
  return (
    <DeleteForm
      action={deleteImage}
      id={id}
      version={version}
      label="Delete image"
      question={`Delete image ${label}?${instances ? ` Its ${instances} instances keep running, with no image record.` : ""}`}
    />
  );
}
