// One OS process publishing versions of an artifact through the HTTP API, one request at a time.
// argv: url artifactId count [ackFile]. Each acknowledged version is appended to ackFile as it
// arrives (for the crash test); the summary goes to stdout as JSON.
import fs from "node:fs";

const [url, artifactId, count, ackFile] = process.argv.slice(2);
const versions = [];
const failures = [];
for (let i = 0; i < Number(count); i++) {
  try {
    const res = await fetch(`${url}/api/artifacts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        id: artifactId,
        type: "test-results",
        data: { total: 10, passed: i % 10, failed: 10 - (i % 10) },
        summary: `${process.pid}#${i}`,
      }),
    });
    const body = await res.json();
    if (!res.ok) {
      failures.push(body.error?.message ?? res.status);
      continue;
    }
    versions.push(body.version);
    if (ackFile) fs.appendFileSync(ackFile, `${artifactId} ${body.version} ${process.pid}#${i}\n`);
  } catch (e) {
    failures.push(String(e.cause?.code ?? e.message));
    if (ackFile) break; // the hub is gone: the crash test stops here
  }
}
process.stdout.write(JSON.stringify({ pid: process.pid, versions, failures }));
