/**
 * Sign-in and sign-out against next-auth's endpoints, without next-auth's client bundle: fetch
 * the CSRF token, post the form, read next-auth's JSON answer (or our 429 from the rate limit).
 */
export type SignInResult = { ok: true } | { ok: false; message: string };

async function csrfToken(): Promise<string> {
  const res = await fetch("/api/auth/csrf", { credentials: "same-origin" });
  const body = (await res.json()) as { csrfToken: string };
  return body.csrfToken;
}

export async function signInWithPassword(email: string, password: string): Promise<SignInResult> {
  let res: Response;
  try {
    res = await fetch("/api/auth/callback/credentials", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password, csrfToken: await csrfToken(), json: "true" }),
    });
  } catch {
    return { ok: false, message: "The service could not be reached. Check your connection and try again." };
  }
  if (res.status === 429) {
    const body = (await res.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
    return { ok: false, message: body?.error?.message ?? "Too many attempts. Try again later." };
  }
  const body = (await res.json().catch(() => ({}))) as { url?: string };
  const error = body.url ? new URL(body.url, window.location.origin).searchParams.get("error") : "Unknown";
  if (!res.ok || error) {
    if (error === "RateLimited")
      return { ok: false, message: "Too many attempts. Try again in a few minutes." };
    return { ok: false, message: "Email or password is incorrect." };
  }
  return { ok: true };
}

export async function signOut(to = "/"): Promise<void> {
  await fetch("/api/auth/signout", {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: await csrfToken(), json: "true" }),
  }).catch(() => undefined);
  window.location.assign(to);
}
