// @bismarck/client: a typed client for the Bismarck api, generated from its OpenAPI document.
//   const api = createBismarckClient('http://localhost:3000', { token });
//   const { data, error } = await api.GET('/api/matches/{id}/view', { params: { path: { id } } });
//   for await (const event of streamMatchEvents('http://localhost:3000', id, { token })) …
import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { paths, components, operations } from './schema';
export { streamMatchEvents, StreamError, type MatchEvent, type MatchEventOf, type StreamOptions } from './events';
export { parseSse, type SseMessage } from './sse';

export type BismarckClient = Client<paths>;
export type Schemas = components['schemas'];
export type SeatView = Schemas['SeatViewDto'];
export type PublicState = Schemas['PublicStateDto'];
export type LegalAction = NonNullable<SeatView['legal']>;
export type Scorecard = Schemas['ScorecardDto'];
export type Problem = Schemas['ProblemDto'];

export interface BismarckClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** A seat token: sent as `Authorization: Bearer …` on every request. */
  readonly token?: string;
}

/** A typed client: `GET`, `POST`, … take the OpenAPI paths and check params, bodies and answers. */
export function createBismarckClient(baseUrl: string, options: BismarckClientOptions = {}): BismarckClient {
  const { token, headers, ...rest } = options;
  const client = createClient<paths>({
    baseUrl: baseUrl.replace(/\/$/, ''),
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(headers as Record<string, string> | undefined) },
    ...rest,
  });
  client.use(plainTextAsString);
  return client;
}

/**
 * The document types a `text/plain` answer (`GET …/notation`, `GET /metrics`) as a string, but
 * openapi-fetch parses every answer as JSON unless told `parseAs: 'text'`, and would throw a
 * SyntaxError on it. Such an answer, when the caller left `parseAs` as JSON, becomes that string.
 */
const plainTextAsString: Middleware = {
  async onResponse({ response, options }) {
    if (options.parseAs !== 'json' || !response.ok || response.status === 204) return undefined;
    if (!/^text\/plain\b/i.test(response.headers.get('content-type') ?? '')) return undefined;
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    const asJson = new Response(JSON.stringify(await response.text()), { status: response.status, statusText: response.statusText, headers });
    Object.defineProperty(asJson, 'url', { value: response.url });
    return asJson;
  },
};

/** Throws the problem+json of a failed call; returns the data of a successful one. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || result.data === undefined) {
    const problem = typeof result.error === 'object' && result.error !== null ? (result.error as Partial<Problem>) : undefined;
    throw new ApiError(result.response.status, problem?.code ?? 'UNKNOWN', problem?.detail ?? result.response.statusText, problem);
  }
  return result.data;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    /** The whole problem+json body, when there was one: `errors`, `retryAfter`, `currentVersion`, … */
    readonly problem?: Partial<Problem>,
  ) {
    super(`${status} ${code}: ${detail}`);
  }
}
