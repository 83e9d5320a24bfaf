import { QueryClient } from "@tanstack/react-query";

/**
 * Data changes arrive over /ws and invalidate the affected queries, so there is no need to
 * refetch on a timer or on window focus.
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { staleTime: 60_000, refetchOnWindowFocus: false, retry: 1 } },
  });
}
