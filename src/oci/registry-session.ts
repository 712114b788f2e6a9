import { requestSignal, throwIfAborted } from '../abort.js';
import { KustomizeError } from '../errors.js';
import type { CredentialLookup } from './credentials.js';
import { registryBaseUrl, type OciReference } from './reference.js';

/** Limits on what one registry request may cost. */
export interface RequestLimits {
  /** seconds per request (headers and body) */
  timeoutSeconds: number;
  /** stops every request when it aborts */
  signal: AbortSignal | undefined;
}

/**
 * Requests to one repository of one registry, answering its authentication challenges:
 * anonymous first; on a 401 with `Bearer realm=…` a token is fetched (with the user's
 * credentials if there are any) for the repository scope, on `Basic` the credentials are sent.
 * The authorization is kept for the session's later requests.
 */
export class RegistrySession {
  readonly baseUrl: string;
  private authorization: string | undefined;

  constructor(
    readonly ref: OciReference,
    private readonly credentials: CredentialLookup | undefined,
    private readonly limits: RequestLimits,
    /** `pull` or `pull,push` */
    private readonly actions: string,
  ) {
    this.baseUrl = registryBaseUrl(ref.registry);
  }

  /** `path` under `/v2/<repository>/`; an absolute URL (an upload location) is used as it is. */
  url(path: string): string {
    return /^https?:\/\//.test(path) ? path : new URL(path, `${this.baseUrl}/v2/${this.ref.repository}/`).toString();
  }

  /** The response, after at most one authentication round; errors only for network failures. */
  async request(method: string, path: string, init: { headers?: Record<string, string>; body?: Uint8Array } = {}): Promise<Response> {
    const url = this.url(path);
    let res = await this.send(method, url, init);
    if (res.status === 401) {
      await res.body?.cancel();
      await this.authenticate(res.headers.get('www-authenticate') ?? '', url);
      res = await this.send(method, url, init);
    }
    return res;
  }

  /** A REMOTE_FAILED error for an unexpected answer, with the registry's own error message. */
  async failure(res: Response, method: string, path: string): Promise<KustomizeError> {
    let detail = '';
    try {
      const body = (await res.text()).slice(0, 2000);
      const parsed = JSON.parse(body) as { errors?: { code?: string; message?: string }[] };
      detail = (parsed.errors ?? []).map((e) => `${e.code ?? ''} ${e.message ?? ''}`.trim()).join('; ');
    } catch {
      // not the distribution spec's error JSON: the status says enough
    }
    const hint = res.status === 401 || res.status === 403 ? ` (credentials for ${this.ref.registry} are read from the container auth file)` : '';
    return new KustomizeError('REMOTE_FAILED', `${this.ref.raw}: ${method} ${this.url(path)}: ${res.status} ${res.statusText}${detail ? `: ${detail}` : ''}${hint}`, {
      remote: this.ref.raw,
    });
  }

  private async send(method: string, url: string, init: { headers?: Record<string, string>; body?: Uint8Array }): Promise<Response> {
    const headers: Record<string, string> = { ...init.headers };
    if (this.authorization) headers['Authorization'] = this.authorization;
    try {
      return await fetch(url, { method, headers, ...(init.body && { body: init.body as Uint8Array<ArrayBuffer> }), signal: this.requestSignal() });
    } catch (e) {
      throwIfAborted(this.limits.signal);
      throw new KustomizeError('REMOTE_FAILED', `${this.ref.raw}: ${method} ${url}: ${causeMessage(e)}`, { remote: this.ref.raw, cause: e });
    }
  }

  private async authenticate(challenge: string, url: string): Promise<void> {
    const scheme = challenge.trim().split(/\s+/, 1)[0]?.toLowerCase();
    const credentials = this.credentials?.(this.ref.registry, this.ref.repository);
    const basic = credentials && `Basic ${btoa(`${credentials.username}:${credentials.password}`)}`;
    if (scheme === 'basic') {
      if (!basic) throw this.unauthorized(url, 'the registry asks for a user name and password');
      this.authorization = basic;
      return;
    }
    if (scheme !== 'bearer') throw this.unauthorized(url, `unsupported authentication challenge '${challenge}'`);
    const params = challengeParams(challenge);
    const realm = params.get('realm');
    if (!realm) throw this.unauthorized(url, 'the Bearer challenge names no realm');
    const tokenUrl = new URL(realm);
    if (params.has('service')) tokenUrl.searchParams.set('service', params.get('service')!);
    tokenUrl.searchParams.set('scope', `repository:${this.ref.repository}:${this.actions}`);
    let res: Response;
    try {
      res = await fetch(tokenUrl, { headers: basic ? { Authorization: basic } : {}, signal: this.requestSignal() });
    } catch (e) {
      throwIfAborted(this.limits.signal);
      throw this.unauthorized(url, `GET ${tokenUrl}: ${causeMessage(e)}`);
    }
    if (!res.ok) throw this.unauthorized(url, `the token service answered ${res.status} ${res.statusText}`);
    const body = (await res.json()) as { token?: string; access_token?: string };
    const token = body.token ?? body.access_token;
    if (!token) throw this.unauthorized(url, 'the token service returned no token');
    this.authorization = `Bearer ${token}`;
  }

  /** The body of an answer, refusing to read more than `max` bytes. */
  async readBody(res: Response, max: number, what: string): Promise<Uint8Array> {
    const tooBig = () => new KustomizeError('REMOTE_FAILED', `${what}: larger than the limit of ${max} bytes`, { remote: what });
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (declared > max) {
      await res.body?.cancel();
      throw tooBig();
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      if (res.body) {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          total += chunk.byteLength;
          if (total > max) throw tooBig();
          chunks.push(chunk);
        }
      }
    } catch (e) {
      throwIfAborted(this.limits.signal);
      throw e;
    }
    return concatBytes(chunks, total);
  }

  private requestSignal(): AbortSignal {
    return requestSignal(this.limits.timeoutSeconds, this.limits.signal);
  }

  private unauthorized(url: string, why: string): KustomizeError {
    const which = this.credentials?.(this.ref.registry, this.ref.repository) ? 'with the credentials from the auth file' : 'anonymously (no credentials in the container auth files)';
    return new KustomizeError('REMOTE_FAILED', `${this.ref.raw}: ${url}: unauthorized ${which}: ${why}`, { remote: this.ref.raw });
  }
}

/** `realm="https://auth.example/token",service="registry.example"` → its parameters. */
function challengeParams(challenge: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const m of challenge.replace(/^\S+\s+/, '').matchAll(/([a-zA-Z_]+)="([^"]*)"/g)) params.set(m[1]!.toLowerCase(), m[2]!);
  return params;
}

/** undici's "fetch failed" hides the reason in `cause`. */
function causeMessage(e: unknown): string {
  const err = e as Error & { cause?: Error };
  return err.cause?.message ? `${err.message}: ${err.cause.message}` : err.message;
}

export function concatBytes(chunks: Uint8Array[], total = chunks.reduce((n, c) => n + c.byteLength, 0)): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
