/**
 * The settings page's webhooks (docs/notifications.md). Changes come back as `webhook.*` events over /ws, which refetch
 * the list; deliveries change without events (an attempt is not an event), so an open delivery log refetches on a timer.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/endpoints/index.ts";
import type { InputOf } from "../api/endpoint.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

export const useWebhooks = (team: string) =>
  useQuery({ queryKey: keys.webhooks(team), queryFn: () => apiCall(api.webhooks.list, { team }), retry: false, refetchInterval: 5000 });

export const useDeliveries = (team: string, id: string) =>
  useQuery({ queryKey: keys.webhookDeliveries(team, id), queryFn: () => apiCall(api.webhooks.deliveries, { team, id, limit: 20 }), refetchInterval: 3000 });

/** Each change refetches the list at once, besides the event that will. */
function useWebhookChange<I, O>(team: string, fn: (input: I) => Promise<O>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: keys.webhooks(team) }) });
}

export const useCreateWebhook = (team: string) =>
  useWebhookChange(team, (input: Omit<InputOf<typeof api.webhooks.create>, "team">) => apiCall(api.webhooks.create, { ...input, team }));

export const useUpdateWebhook = (team: string) =>
  useWebhookChange(team, (input: Omit<InputOf<typeof api.webhooks.update>, "team">) => apiCall(api.webhooks.update, { ...input, team }));

export const useDeleteWebhook = (team: string) => useWebhookChange(team, (id: string) => apiCall(api.webhooks.delete, { team, id }));

export const useTestWebhook = (team: string) => useWebhookChange(team, (id: string) => apiCall(api.webhooks.test, { team, id }));
