import { json, otherMethods, withApi } from "@/lib/http/api";
import * as endpoints from "@/lib/operators/endpoints";
import { checkTlsHostForOperator } from "@/lib/operators/custom-domains";

export const GET = withApi(endpoints.checkTlsHostForOperator, async ({ db, query }) =>
  json(200, await checkTlsHostForOperator(db, query.host)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
