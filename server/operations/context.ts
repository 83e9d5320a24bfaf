/** What every definition's domain call may use besides its caller and input: the hub's dependencies and what it was started with. */
import type { DomainDeps } from "../domain/deps.ts";
import type { SpawnDefaults } from "../domain/sessions/spawn-authority.ts";
import type { HubInfo } from "../services.ts";

export type ServiceContext = {
  deps: DomainDeps;
  info: HubInfo;
  /** Where and how a new session runs unless its request says otherwise. */
  defaults: SpawnDefaults;
  /**
   * Runs fn after what only the hub process can check before a session is written: the binary of each runtime the
   * request names (undefined: the default runtime).
   */
  preflight: <T>(runtimes: Array<string | undefined>, fn: () => Promise<T>) => Promise<T>;
};
