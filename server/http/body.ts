/** Reading a request body with a size cap, shared by /api (handle.ts) and /mcp. */

// A 1 MiB artifact can grow when its strings are escaped; the domain gives the precise error.
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The body as UTF-8 text, read up to `max` bytes whatever Content-Length says (a chunked body has none); null past it. */
export async function readCapped(src: AsyncIterable<Uint8Array>, max = MAX_BODY_BYTES): Promise<string | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of src) {
    size += chunk.byteLength;
    if (size > max) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
