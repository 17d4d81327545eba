// Any path under the REST base that no route serves: a 404 in the error envelope, not an HTML page.
import { routeNotFound } from "@/lib/http/api";
import { pipeline } from "@/lib/http/pipeline";
import { REST } from "@/lib/http/surfaces";

const notFound = pipeline(REST, async (request: Request) => routeNotFound(request));
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
export const OPTIONS = notFound;
