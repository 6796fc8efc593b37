"use client";

import { createImage, deleteImage, updateImage } from "@/lib/images/actions";
import {
  CreateOrEditForm,
  DeleteForm,
  FormStatus,
  String255Field,
  SubmitButton,
  UuidField,
  useServerForm,
} from "@/components/forms/form-kit";

export function ImageForm({ image }: { image?: { id: number; uuid: string; name: string | null; version?: number } }) {
  const form = useServerForm(image ? updateImage : createImage, { resetOnSuccess: !image });
  return (
    <CreateOrEditForm form={form} noun="image" record={image} className="inline-form">
      <String255Field form={form} name="name" label="Name" defaultValue={image?.name ?? ""} />
      <UuidField
        form={form}
        name="uuid"
        label="Image ID (UUID)"
        creating={!image}
        defaultValue={image?.uuid ?? ""}
        className="wide"
      />
      <SubmitButton form={form}>{image ? "Save image" : "Create image"}</SubmitButton>
      <FormStatus form={form} shownFields={["name", "uuid"]} />
    </CreateOrEditForm>
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
