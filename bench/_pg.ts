import postgres from "./postgres.bench.ts";
await postgres();
