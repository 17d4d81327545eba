/** Unit-test helper for code that refuses input by throwing an ApiError. */
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
