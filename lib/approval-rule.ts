/**
 * The allowed-tool rule that allows exactly one call again (docs/sessions.md#allow-for-this-session): `Bash(npm test)`,
 * `Write(/w/notes.md)`. Shared by the hub, which adds it, and the dashboard, which offers "Allow for this session"
 * only where it exists. A rule's `*` and `?` are wildcards and it is one line, so a call with those would be allowed
 * more widely than the person saw; a call with neither command nor file (WebFetch, an MCP tool) could only be allowed
 * as the whole tool. None of those has a rule.
 */
const PATH_FIELDS = ["file_path", "path", "notebook_path"];

/** What a rule names in parentheses: a Bash command, or the file a file tool acts on (as the supervisor's policy reads it). */
export const ruleSubject = (input: Record<string, unknown>): string | undefined =>
  typeof input.command === "string" ? input.command : (PATH_FIELDS.map((f) => input[f]).find((v) => typeof v === "string") as string | undefined);

export function sessionRule(toolName: string, input: Record<string, unknown>): { rule: string } | { why: string } {
  const subject = ruleSubject(input);
  if (subject === undefined) return { why: `${toolName} has no command or file to name, and the whole tool is more than was asked` };
  if (/[*?]/.test(subject)) return { why: "it contains * or ?, which a rule reads as a wildcard" };
  if (/[\r\n]/.test(subject)) return { why: "it spans several lines, and a rule holds one" };
  if (/[()]/.test(toolName)) return { why: `the tool name ${toolName} cannot be written in a rule` };
  return { rule: `${toolName}(${subject})` };
}
