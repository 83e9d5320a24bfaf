"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { makeQueryClient } from "@/lib/query-client.ts";
import { LiveProvider } from "@/components/shell/LiveProvider.tsx";
import { TeamProvider } from "@/components/shell/TeamProvider.tsx";
import { Shell } from "@/components/shell/Shell.tsx";

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={client}>
      <TeamProvider>
        <LiveProvider>
          <Shell>{children}</Shell>
        </LiveProvider>
      </TeamProvider>
    </QueryClientProvider>
  );
}
