/** Workflows use the service-wide claim names of the provider catalog (one list, one truth). */
export * from "../providers/claims";
