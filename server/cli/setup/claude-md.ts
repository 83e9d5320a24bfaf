/**
 * The guide's block in a CLAUDE.md, between fixed markers: written once (replaced on re-runs)
 * and removed exactly, leaving the rest of the file as it was. A file that held nothing but the
 * block is removed with it.
 */
import fs from "node:fs";
import path from "node:path";
import { GUIDE_BEGIN, GUIDE_END, claudeMdBlock } from "../../../lib/guides.ts";

const BLOCK = new RegExp(`\\n?${GUIDE_BEGIN}[\\s\\S]*?${GUIDE_END}\\n?`);

export function writeGuide(file: string): "created" | "updated" | "added" {
  const existing = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (existing === null) {
    fs.writeFileSync(file, claudeMdBlock());
    return "created";
  }
  if (BLOCK.test(existing)) {
    fs.writeFileSync(
      file,
      existing.replace(BLOCK, (m) => `${m.startsWith("\n") ? "\n" : ""}${claudeMdBlock()}`),
    );
    return "updated";
  }
  fs.writeFileSync(file, `${existing}${existing.endsWith("\n") ? "" : "\n"}\n${claudeMdBlock()}`);
  return "added";
}

export function removeGuide(file: string): "removed" | "deleted" | "absent" {
  if (!fs.existsSync(file)) return "absent";
  const existing = fs.readFileSync(file, "utf8");
  if (!BLOCK.test(existing)) return "absent";
  const rest = existing.replace(BLOCK, "").replace(/\n+$/, "\n");
  if (rest.trim() === "") {
    fs.rmSync(file);
    return "deleted";
  }
  fs.writeFileSync(file, rest);
  return "removed";
}
