/** Reading what the CLI asked, so a test's script can decide the reply from the request itself. */
export type Block = { type: string; text?: string; id?: string; name?: string; input?: unknown; tool_use_id?: string; content?: unknown; is_error?: boolean };
export type Message = { role: string; content: string | Block[] };
export type MessagesRequest = { model: string; stream?: boolean; messages: Message[]; tools?: Array<{ name: string }>; system?: unknown };

const blocks = (m: Message | undefined): Block[] => (!m ? [] : typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content);

/** The last user turn (the CLI may append role:"system" entries after it). */
export function lastUser(req: MessagesRequest): Block[] {
  return blocks([...req.messages].reverse().find((m) => m.role === "user"));
}

/** The text the user typed in the last user turn (after any <system-reminder> blocks). */
export function prompt(req: MessagesRequest): string {
  return lastUser(req)
    .filter((b) => b.type === "text" && !b.text?.startsWith("<system-reminder>"))
    .map((b) => b.text ?? "")
    .join("\n");
}

/** Tool results in the last user turn, with the name of the tool each answers. */
export function toolResults(req: MessagesRequest): Array<{ name: string; text: string; isError: boolean }> {
  const uses = new Map<string, string>();
  for (const m of req.messages) for (const b of blocks(m)) if (b.type === "tool_use" && b.id && b.name) uses.set(b.id, b.name);
  return lastUser(req)
    .filter((b) => b.type === "tool_result")
    .map((b) => ({
      name: uses.get(b.tool_use_id ?? "") ?? "?",
      isError: b.is_error === true,
      text: typeof b.content === "string" ? b.content : ((b.content as Block[] | undefined)?.map((c) => c.text ?? "").join("") ?? ""),
    }));
}

export const toolNames = (req: MessagesRequest) => (req.tools ?? []).map((t) => t.name);

/** Every user-typed text of the conversation so far, for scripts that follow a whole dialogue. */
export const allPrompts = (req: MessagesRequest) =>
  req.messages
    .filter((m) => m.role === "user")
    .flatMap((m) =>
      blocks(m)
        .filter((b) => b.type === "text" && !b.text?.startsWith("<system-reminder>"))
        .map((b) => b.text ?? ""),
    );
