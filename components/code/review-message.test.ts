import { describe, expect, it } from "vitest";
import type { LineRef } from "./FileDiff.tsx";
import { commentMessage, quoteLine, reviewMessage } from "./review-message.ts";

const added: LineRef = { path: "src/api.ts", side: "new", line: 12, marker: "+", text: "app.post('/login')", key: "I12" };
const removed: LineRef = { path: "src/db.ts", side: "old", line: 3, marker: "-", text: "const pool = 1;", key: "D3" };

describe("review messages", () => {
  it("names the file, the line and quotes it with its marker", () => {
    expect(commentMessage({ ref: added, text: "  check the password first \n" })).toBe(
      "Review comment on src/api.ts line 12 (`+ app.post('/login')`):\ncheck the password first",
    );
  });

  it("says a removed line is the base version's", () => {
    expect(commentMessage({ ref: removed, text: "why?" })).toBe(
      "Review comment on src/db.ts line 3 of the base version (a removed line) (`- const pool = 1;`):\nwhy?",
    );
  });

  it("fences a line that has backticks with a longer run, and cuts a very long one", () => {
    expect(quoteLine({ marker: "+", text: "const s = `a`;" })).toBe("`` + const s = `a`; ``");
    expect(quoteLine({ marker: "-", text: "x``y" })).toBe("``` - x``y ```");
    expect(quoteLine({ marker: "+", text: "a".repeat(500) })).toBe("`+ " + "a".repeat(200) + "…`");
  });

  it("numbers several comments in one review", () => {
    expect(
      reviewMessage([
        { ref: added, text: "one" },
        { ref: removed, text: "two" },
      ]),
    ).toBe(
      "Review of your changes, 2 comments:\n\n1. On src/api.ts line 12 (`+ app.post('/login')`):\none\n\n2. On src/db.ts line 3 of the base version (a removed line) (`- const pool = 1;`):\ntwo",
    );
    expect(reviewMessage([{ ref: added, text: "alone" }])).toBe(commentMessage({ ref: added, text: "alone" }));
  });
});
