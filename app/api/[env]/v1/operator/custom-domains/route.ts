import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/operators/endpoints";
import { listCustomDomainsForOperator } from "@/lib/operators/custom-domains";

export const GET = withApi(endpoints.listCustomDomainsForOperator, async ({ db, env, query }) =>
  json(200, await listCustomDomainsForOperator(db, env, query)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
