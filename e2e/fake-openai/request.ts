import { z } from "zod";

/** The parts of a Responses API request the fake reads; anything else codex sends is let through. */
const InputItem = z.union([
  z
    .object({
      type: z.literal("message"),
      role: z.string(),
      content: z.union([z.string(), z.array(z.object({ type: z.string(), text: z.string().optional() }).loose())]),
    })
    .loose(),
  z.object({ type: z.literal("function_call_output"), call_id: z.string(), output: z.unknown() }).loose(),
  z.object({ type: z.string() }).loose(),
]);

export const ResponsesRequest = z
  .object({
    model: z.string(),
    input: z.array(InputItem),
    stream: z.boolean().optional(),
  })
  .loose();
export type ResponsesRequest = z.infer<typeof ResponsesRequest>;

function textOf(item: z.infer<typeof InputItem>): string | undefined {
  if (item.type !== "message" || !("role" in item) || item.role !== "user") return undefined;
  const content = (item as { content: string | Array<{ text?: string }> }).content;
  return typeof content === "string" ? content : content.map((c) => c.text ?? "").join("");
}

/** The user's last typed message: codex also sends its own context as user messages, which start with "<". */
export function prompt(req: ResponsesRequest): string {
  for (let i = req.input.length - 1; i >= 0; i--) {
    const text = textOf(req.input[i]);
    if (text !== undefined && !text.trimStart().startsWith("<")) return text;
  }
  return "";
}

/** How many tool outputs have come back since that message: the directive to act on next. */
export function roundsSincePrompt(req: ResponsesRequest): number {
  let rounds = 0;
  for (let i = req.input.length - 1; i >= 0; i--) {
    const item = req.input[i];
    if (item.type === "function_call_output") rounds++;
    const text = textOf(item);
    if (text !== undefined && !text.trimStart().startsWith("<")) break;
  }
  return rounds;
}

/** The outputs of the tool calls this turn, in order, as text. */
export function toolOutputs(req: ResponsesRequest): string[] {
  const outputs: string[] = [];
  for (let i = req.input.length - 1; i >= 0; i--) {
    const item = req.input[i];
    if (item.type === "function_call_output" && "output" in item) outputs.unshift(typeof item.output === "string" ? item.output : JSON.stringify(item.output));
    const text = textOf(item);
    if (text !== undefined && !text.trimStart().startsWith("<")) break;
  }
  return outputs;
}
