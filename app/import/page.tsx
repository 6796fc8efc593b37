import type { Metadata } from "next";
import { BundleUpload } from "@/components/import/bundle-upload";

export const metadata: Metadata = { title: "Import" };

export default function ImportPage() {
  return (
    <section>
      <h1>Import your cloud</h1>
      <p className="lead">
        On a machine that can reach the cloud, with admin credentials, the <code>openstack</code> client and{" "}
        <code>osc-placement</code>, run <code>scripts/collect-openstack.sh</code>. Upload the <code>.tar.gz</code> it
        writes: everything is checked and you see what changes before the cloud is replaced. From a shell:{" "}
        <code>npm run -s scenario -- import-openstack BUNDLE.tar.gz --dry-run</code>.
      </p>
      <BundleUpload />
    </section>
  );
}
