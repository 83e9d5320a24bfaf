/**
 * An id made from a title, as forms suggest it until the person edits the id (docs/dashboard.md#tables-and-forms):
 * "Create User API" → "create-user-api". It keeps to the id rule (lib/ids.ts): lowercase letters, digits and '-',
 * starting with a letter or digit, at most 128 characters.
 */
export function slugOf(title: string, max = 128): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, max)
    .replace(/-+$/, "");
}
