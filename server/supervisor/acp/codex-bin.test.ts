import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../testing/temp-dir.ts";
import { resolveCodexBin } from "./codex-bin.ts";

describe("resolveCodexBin", () => {
  it("finds the native binary of the pinned platform package, not the npm wrapper", () => {
    const bin = resolveCodexBin({});
    expect(bin).toMatch(new RegExp(`@zed-industries/codex-acp-${process.platform}-${process.arch}/bin/codex-acp$`));
    expect(fs.statSync(bin).isFile()).toBe(true);
  });

  it("takes CODEX_ACP_BIN when it is an executable file, and says so when it is not", () => {
    const dir = tempDir("codex-bin");
    const bin = path.join(dir, "codex-acp");
    fs.writeFileSync(bin, "#!/bin/sh\n", { mode: 0o755 });
    expect(resolveCodexBin({ CODEX_ACP_BIN: bin })).toBe(bin);
    expect(() => resolveCodexBin({ CODEX_ACP_BIN: path.join(dir, "missing") })).toThrow(/CODEX_ACP_BIN is '.*missing', which is not an executable file/);
  });
});
