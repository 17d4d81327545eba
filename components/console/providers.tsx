"use client";
// The console's query clients: API errors are not retried (they are answers, not outages),
// network failures are retried twice. The signed-in shell keeps one client per workspace
// (WorkspaceQueries in shell.tsx); this one serves the pages outside it (sign-in, sign-up, invite).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { ToastProvider } from "@/components/ui/toast";
import { ApiRequestError } from "./api";

export function newConsoleQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        retry: (count, error) => !(error instanceof ApiRequestError) && count < 2,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
}

export function ConsoleProviders({ children }: { children: ReactNode }) {
  const [client] = useState(newConsoleQueryClient);
  return (
    <QueryClientProvider client={client}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  );
}
