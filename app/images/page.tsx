import type { Metadata } from "next";
import { HistoryLink } from "@/components/audit/history-link";
import Link from "next/link";
import { removeImageProperty, saveImageProperty } from "@/lib/images/actions";
import { KvEditor } from "@/components/forms/kv-editor";
import { DeleteImageForm, ImageForm } from "@/components/images/image-forms";
import { EditPanel } from "@/components/ui/edit-panel";
import { fmtInt } from "@/components/ui/format";
import { listImages } from "@/lib/cloud/queries";
import { prisma } from "@/lib/db";

export const metadata: Metadata = { title: "Images" };
export const dynamic = "force-dynamic";

type SP = Record<string, string | string[] | undefined>;

export default async function ImagesPage({ searchParams }: { searchParams: Promise<SP> }) {
  const sp = await searchParams;
  const editUuid = typeof sp.edit === "string" ? sp.edit : null;
  const images = await listImages(prisma);
  const editing = editUuid ? (images.find((im) => im.uuid === editUuid) ?? null) : null;
  return (
    <section>
      <h1>Images</h1>
      <p className="lead">
        Glance images as the scheduler sees them: an id, a name and properties (hw_architecture, img_hv_type,
        hw_vm_mode, img_hv_requested_version… read by ImagePropertiesFilter and AggregateImagePropertiesIsolation).
      </p>
      {typeof sp.deleted === "string" ? (
        <p className="notice ok" role="status">
          Image {sp.deleted} deleted.
        </p>
      ) : null}
      <table className="data-table">
        <caption>Images ({images.length})</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">ID</th>
            <th scope="col">Properties</th>
            <th scope="col" className="num">
              Instances
            </th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {images.map((im) => (
            <tr key={im.id} aria-current={editing?.id === im.id ? "true" : undefined}>
              <th scope="row">{im.name ?? <span className="muted">(no name)</span>}</th>
              <td>
                <code className="small">{im.uuid}</code>
              </td>
              <td>
                {im.properties.length ? (
                  <ul className="chips">
                    {im.properties.map((p) => (
                      <li key={p.key}>
                        <code>
                          {p.key}={p.value}
                        </code>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <span className="muted">none</span>
                )}
              </td>
              <td className="num">{fmtInt(im.instanceCount)}</td>
              <td>
                <Link
                  href={`/images?edit=${encodeURIComponent(im.uuid)}#edit`}
                  className="btn small"
                  aria-label={`Edit ${im.name ?? im.uuid}`}
                >
                  Edit
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      {editing ? (
        <EditPanel title={`Edit image ${editing.name ?? editing.uuid}`} closeHref="/images">
          <HistoryLink entity="image" entityKey={editing.uuid} />
          <ImageForm key={editing.id} image={editing} />
          <KvEditor
            key={`props-${editing.id}`}
            kind="image"
            title="Properties"
            noun="property"
            entries={editing.properties}
            hidden={{ id: editing.id, version: editing.version }}
            saveAction={saveImageProperty}
            removeAction={removeImageProperty}
            emptyText="No properties."
          />
          <DeleteImageForm
            id={editing.id}
            version={editing.version}
            label={editing.name ?? editing.uuid}
            instances={editing.instanceCount}
          />
        </EditPanel>
      ) : editUuid ? (
        <p className="notice bad" role="alert">
          No image has id {editUuid} (deleted?).
        </p>
      ) : null}

      <section className="panel" aria-labelledby="new-image">
        <h2 id="new-image">New image</h2>
        <ImageForm />
      </section>
    </section>
  );
}
