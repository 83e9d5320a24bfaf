/**
 * A setup file: removes the temporary directories a test file made. Registered before the file's
 * own hooks, so (after-hooks running in reverse) it runs last, once hubs and sessions are stopped.
 */
import { afterAll } from "vitest";
import { removeTempDirs } from "./temp-dir.ts";

afterAll(removeTempDirs);
