/** The import preview as text (the CLI prints it; the /import page shows the same figures as a table). */
import type { ImportPreview } from "./import";
import { formatNovaConfReport } from "./nova-conf";

export function formatPreview(p: ImportPreview): string {
  const lines: string[] = [];
  const w = Math.max(...p.changes.map((c) => c.kind.length));
  lines.push(`${"".padEnd(w)}  ${["added", "changed", "removed", "unchanged"].map((h) => h.padStart(10)).join("")}`);
  for (const c of p.changes) {
    lines.push(
      `${c.kind.padEnd(w)}  ${[c.added, c.changed, c.removed, c.unchanged].map((n) => String(n).padStart(10)).join("")}`,
    );
  }
  for (const c of p.changes) {
    const some = (what: string, names: string[], n: number) => {
      if (n) lines.push(`  ${c.kind} ${what}: ${names.join(", ")}${n > names.length ? `, ... (${n} in all)` : ""}`);
    };
    some("added", c.addedNames, c.added);
    some("changed", c.changedNames, c.changed);
    some("removed", c.removedNames, c.removed);
  }
  if (p.profile) {
    lines.push(
      `scheduler profile "${p.profile.name}" (from nova.conf): ${p.profile.exists ? (p.profile.changed ? "changed" : "unchanged") : "new"}, made the active one`,
    );
  }
  if (p.novaConf) {
    lines.push("nova.conf, option by option:");
    for (const l of formatNovaConfReport(p.novaConf.report)) lines.push(`  ${l}`);
  }
  for (const n of p.neutral) lines.push(`neutral: ${n}`);
  return `${lines.join("\n")}\n`;
}
