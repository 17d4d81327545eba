/** TanStack Query keys of the hosted pages (one factory per domain, DESIGN.md §3). */
export const hostedKeys = {
  all: ["hosted"] as const,
  status: (verificationId: string) => [...hostedKeys.all, "status", verificationId] as const,
};
