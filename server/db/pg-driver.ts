/**
 * The `pg` driver, loaded when a PostgreSQL database is first opened: a hub on SQLite, the embedded default, does not
 * pay the 50 ms of CPU that loading it costs at every start.
 */
import { createRequire } from "node:module";
import type Pg from "pg";

const require = createRequire(import.meta.url);
let driver: typeof Pg | undefined;

export const pgDriver = (): typeof Pg => (driver ??= require("pg") as typeof Pg);
