/** Test helpers for code that refuses input by throwing an ApiError. */
import { ApiError } from "../errors";

/** The ApiError `fn` throws. Any other error is thrown on; returning normally fails the test. */
export function apiErrorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

/**
 * The ApiError `promise` rejects with (integration tests of a service function). Any other
 * error is thrown on; resolving fails the test.
 */
export async function apiRejectionOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

/** The refusal `promise` rejects with as the client sees it: status, code, message. */
export async function refusalOf(
  promise: Promise<unknown>,
): Promise<[status: number, code: string, message: string]> {
  const error = await apiRejectionOf(promise);
  return [error.status, error.code, error.message];
}
