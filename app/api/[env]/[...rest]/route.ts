// Any path under the REST base that no route serves: a 404 in the error envelope, not an HTML page.
import { routeNotFound } from "@/lib/http/api";

const notFound = async (request: Request) => routeNotFound(request);
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
