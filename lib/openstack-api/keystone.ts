/**
 * Keystone v3: one token request (the only request Schedscope sends that is
 * not a GET), then endpoints from the token's service catalog. Password and
 * application-credential auth, as clouds.yaml's `auth_type` says.
 */
import { ApiError, type FetchLike, reasonOf } from "./http";

/** A cloud as a clouds.yaml entry describes it, flattened (OpenStack's key names). */
export interface CloudSettings {
  auth_url: string;
  /** password (default, also v3password) or v3applicationcredential (also application_credential) */
  auth_type?: string;
  username?: string;
  user_id?: string;
  password?: string;
  user_domain_name?: string;
  user_domain_id?: string;
  project_name?: string;
  project_id?: string;
  project_domain_name?: string;
  project_domain_id?: string;
  /** applies to user and project when their own domain is not given (as keystoneauth does) */
  domain_name?: string;
  domain_id?: string;
  application_credential_id?: string;
  application_credential_name?: string;
  application_credential_secret?: string;
  region_name?: string;
  /** public (default), internal or admin */
  interface?: string;
  /** path of a CA bundle (PEM) */
  cacert?: string;
  verify?: boolean;
  compute_api_version?: string;
  placement_api_version?: string;
}

/** Keys whose values are secrets: encrypted at rest, never shown, never logged. */
export const SECRET_KEYS = ["password", "application_credential_secret"] as const;

export function isApplicationCredential(s: CloudSettings): boolean {
  return /application.?credential/i.test(s.auth_type ?? "");
}

/** Keystone's v3 root from an auth_url with or without its version. */
export function identityRoot(authUrl: string): string {
  const u = authUrl.replace(/\/+$/, "");
  if (/\/v3$/.test(u)) return u;
  if (/\/v2\.0$/.test(u)) return `${u.slice(0, -5)}/v3`;
  return `${u}/v3`;
}

function domainOf(name?: string, id?: string): Record<string, string> | undefined {
  if (id) return { id };
  if (name) return { name };
  return undefined;
}

/** The body of POST /v3/auth/tokens; throws naming what is missing. */
export function tokenRequest(s: CloudSettings): Record<string, unknown> {
  if (isApplicationCredential(s)) {
    if (!s.application_credential_secret) throw new Error("application_credential_secret: is required");
    let cred: Record<string, unknown>;
    if (s.application_credential_id)
      cred = { id: s.application_credential_id, secret: s.application_credential_secret };
    else if (s.application_credential_name) {
      const user: Record<string, unknown> = s.user_id
        ? { id: s.user_id }
        : { name: s.username, domain: domainOf(s.user_domain_name ?? s.domain_name, s.user_domain_id ?? s.domain_id) };
      if (!s.user_id && !s.username)
        throw new Error("username: is required with application_credential_name (or give application_credential_id)");
      cred = { name: s.application_credential_name, secret: s.application_credential_secret, user };
    } else throw new Error("application_credential_id: is required (or application_credential_name with username)");
    return { auth: { identity: { methods: ["application_credential"], application_credential: cred } } };
  }
  if (!s.password) throw new Error("password: is required");
  if (!s.username && !s.user_id) throw new Error("username: is required");
  const user: Record<string, unknown> = s.user_id
    ? { id: s.user_id, password: s.password }
    : {
        name: s.username,
        password: s.password,
        domain: domainOf(s.user_domain_name ?? s.domain_name, s.user_domain_id ?? s.domain_id) ?? { id: "default" },
      };
  const auth: Record<string, unknown> = { identity: { methods: ["password"], password: { user } } };
  if (s.project_id) auth.scope = { project: { id: s.project_id } };
  else if (s.project_name)
    auth.scope = {
      project: {
        name: s.project_name,
        domain: domainOf(s.project_domain_name ?? s.domain_name, s.project_domain_id ?? s.domain_id) ?? {
          id: "default",
        },
      },
    };
  return { auth };
}

export interface CatalogEndpoint {
  url: string;
  interface: string;
  region?: string;
  region_id?: string;
}
export interface CatalogService {
  type: string;
  name?: string;
  endpoints: CatalogEndpoint[];
}

export interface Session {
  token: string;
  expiresAt?: string;
  catalog: CatalogService[];
  /** roles of the token, to say early when the user is not an admin */
  roles: string[];
}

export async function authenticate(fetchImpl: FetchLike, s: CloudSettings, timeoutMs: number): Promise<Session> {
  const url = `${identityRoot(s.auth_url)}/auth/tokens`;
  const what = "Keystone token";
  const body = JSON.stringify(tokenRequest(s));
  const signal = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await fetchImpl(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body,
      signal,
      redirect: "error",
    });
  } catch (e) {
    if (signal.aborted) throw new ApiError("timeout", url, what, null, `after ${timeoutMs / 1000} s`, "POST");
    const err = e as { cause?: { code?: string }; message?: string };
    throw new ApiError("unreachable", url, what, null, err.cause?.code ?? err.message ?? String(e), "POST");
  }
  const text = await res.text().catch(() => "");
  if (!res.ok) {
    // keystone's 401 says only "The request you have made requires authentication."
    const hint = res.status === 401 ? "wrong user, password, domain or project?" : reasonOf(text);
    throw new ApiError("status", url, what, res.status, hint, "POST");
  }
  const token = res.headers.get("x-subject-token");
  let parsed: { token?: { catalog?: CatalogService[]; expires_at?: string; roles?: { name: string }[] } };
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new ApiError("malformed", url, what, res.status, (e as Error).message.slice(0, 120), "POST");
  }
  if (!token) throw new ApiError("malformed", url, what, res.status, "no X-Subject-Token header", "POST");
  const catalog = parsed.token?.catalog;
  if (!Array.isArray(catalog))
    throw new ApiError(
      "malformed",
      url,
      what,
      res.status,
      "the token has no service catalog (is it scoped to a project?)",
      "POST",
    );
  return {
    token,
    expiresAt: parsed.token?.expires_at,
    catalog,
    roles: (parsed.token?.roles ?? []).map((r) => r.name),
  };
}

/** The endpoint of a service type for the connection's interface and region, or an error naming what is there. */
export function endpointFor(session: Session, type: string, s: CloudSettings): string {
  const iface = (s.interface ?? "public").replace(/URL$/, "");
  const svc = session.catalog.find((c) => c.type === type);
  if (!svc) throw new Error(`the service catalog has no "${type}" service`);
  const fits = svc.endpoints.filter(
    (e) => e.interface === iface && (!s.region_name || e.region_id === s.region_name || e.region === s.region_name),
  );
  if (!fits.length) {
    const have = svc.endpoints.map((e) => `${e.interface}@${e.region_id ?? e.region ?? "?"}`).join(", ");
    throw new Error(
      `the "${type}" service has no ${iface} endpoint${s.region_name ? ` in region ${s.region_name}` : ""} (it has: ${have || "none"})`,
    );
  }
  return fits[0].url.replace(/\/+$/, "");
}
