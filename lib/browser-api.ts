/** The dashboard's calls to its hub: same origin, the token from settings if one is set, answers checked. */
import { callEndpoint, HubError } from "./api/call.ts";
import type { Endpoint, InputOf, OutputOf } from "./api/endpoint.ts";

export { HubError as ApiError };

export const TOKEN_KEY = "teamhub.token";

/** One endpoint of lib/api/endpoints, its answer checked by the endpoint's schema. */
export const apiCall = <E extends Endpoint>(endpoint: E, input: InputOf<E>): Promise<OutputOf<E>> =>
  callEndpoint({ baseUrl: "", token: typeof window === "undefined" ? null : window.localStorage.getItem(TOKEN_KEY) }, endpoint, input);
