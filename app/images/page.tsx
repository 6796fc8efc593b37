import { PageFrame } from "@/components/ui/page-frame";
import type { SearchParams } from "@/lib/api/params";
import { readPageParams } from "@/lib/api/page-params";
import type { Metadata } from "next";
import { HistoryLink } from "@/components/audit/history-link";
import { removeImageProperty, saveImageProperty } from "@/lib/images/actions";
import { KvEditor } from "@/components/forms/kv-editor";
import { DeleteImageForm, ImageForm } from "@/components/images/image-forms";
import { KeyValueChips } from "@/components/ui/chips";
import { EditLink, EditPanel, NewPanel } from "@/components/ui/edit-panel";
import { Notice } from "@/components/ui/notice";
import { DataTable } from "@/components/ui/table";
import { fmtInt } from "@/components/ui/format";
import { listImages } from "@/lib/cloud/queries";
import { prisma } from "@/lib/db";

export const metadata: Metadata = { title: "Images" };
export const dynamic = "force-dynamic";

export default async function ImagesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = readPageParams("/images", await searchParams);
  const editUuid = sp.edit ?? null;
  const images = await listImages(prisma);
  const editing = editUuid ? (images.find((im) => im.uuid === editUuid) ?? null) : null;
  return (
    <PageFrame
      title="Images"
      lead={
        <>
          Glance images as the scheduler sees them: an id, a name and properties (hw_architecture, img_hv_type,
          hw_vm_mode, img_hv_requested_version… read by ImagePropertiesFilter and AggregateImagePropertiesIsolation).
        </>
      }
      notice={sp.deleted ? <>Image {sp.deleted} deleted.</> : null}
    >
      <DataTable
        caption={<>Images ({images.length})</>}
        columns={["Name", "ID", "Properties", { label: "Instances", num: true }, { label: "Actions", hidden: true }]}
      >
        {images.map((im) => (
          <tr key={im.id} aria-current={editing?.id === im.id ? "true" : undefined}>
            <th scope="row">{im.name ?? <span className="muted">(no name)</span>}</th>
            <td>
              <code className="small">{im.uuid}</code>
            </td>
            <td>
              <KeyValueChips chips={im.properties} />
            </td>
            <td className="num">{fmtInt(im.instanceCount)}</td>
            <td>
              <EditLink list="/images" uuid={im.uuid} name={im.name ?? im.uuid} />
            </td>
          </tr>
        ))}
      </DataTable>

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
        <Notice tone="bad">No image has id {editUuid} (deleted?).</Notice>
      ) : null}

      <NewPanel id="new-image" title="New image">
        <ImageForm />
      </NewPanel>
    </PageFrame>
  );
}
