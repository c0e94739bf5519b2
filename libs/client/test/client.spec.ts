import { ApiError, createBismarckClient, streamMatchEvents, unwrap } from '@bismarck/client';

// The typed client against a stubbed fetch: what each kind of answer gives a caller.
function clientAnswering(body: string, init: ResponseInit) {
  const seen: Request[] = [];
  const fetch = async (input: Request): Promise<Response> => {
    seen.push(input);
    return new Response(body, init);
  };
  return { api: createBismarckClient('http://bismarck.test', { token: 'bsk_t', fetch }), seen };
}

describe('createBismarckClient', () => {
  it('gives a text/plain answer (the notation) as the string its type says, without parseAs', async () => {
    const text = '# Bismarck match m\nBismarck notation 1\n';
    const { api, seen } = clientAnswering(text, { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    const result = await api.GET('/api/matches/{id}/notation', { params: { path: { id: 'm' } } });
    const data: string | undefined = result.data;
    expect(data).toBe(text);
    expect(result.response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(seen[0].headers.get('authorization')).toBe('Bearer bsk_t');
  });

  it('leaves an explicit parseAs alone', async () => {
    const { api } = clientAnswering('# HELP x\n', { status: 200, headers: { 'content-type': 'text/plain; version=0.0.4' } });
    expect((await api.GET('/metrics', { parseAs: 'text' })).data).toBe('# HELP x\n');
    const again = clientAnswering('# HELP x\n', { status: 200, headers: { 'content-type': 'text/plain; version=0.0.4' } });
    expect((await again.api.GET('/metrics')).data).toBe('# HELP x\n');
  });

  it('still parses JSON answers and problem+json errors as JSON', async () => {
    const ok = clientAnswering('{"status":"ok","database":"up"}', { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect((await ok.api.GET('/health')).data).toEqual({ status: 'ok', database: 'up' });
    const problem = { type: 't', title: 'x', status: 404, detail: 'There is no match m.', code: 'MATCH_NOT_FOUND' };
    const missing = clientAnswering(JSON.stringify(problem), { status: 404, headers: { 'content-type': 'application/problem+json' } });
    const result = await missing.api.GET('/api/matches/{id}/notation', { params: { path: { id: 'm' } } });
    expect(result.error).toEqual(problem);
  });
});

describe('unwrap', () => {
  it('throws an ApiError that keeps the whole problem (a 412 its currentVersion)', async () => {
    const problem = { type: 't', title: 'x', status: 412, detail: 'The match is at version 13, not 12.', code: 'VERSION_MISMATCH', currentVersion: 13 };
    const { api } = clientAnswering(JSON.stringify(problem), { status: 412, headers: { 'content-type': 'application/problem+json' } });
    const error = await api.POST('/api/matches/{id}/deal', { params: { path: { id: 'm' }, header: { 'If-Match': '"12"' } } }).then(unwrap).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 412, code: 'VERSION_MISMATCH', detail: problem.detail, problem });
    expect((error as ApiError).problem?.currentVersion).toBe(13);
  });

  it('has no problem for an answer that is not problem+json', async () => {
    const { api } = clientAnswering('Bad Gateway', { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/plain' } });
    const error = await api.GET('/health').then(unwrap).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: 'UNKNOWN', detail: 'Bad Gateway', problem: undefined });
  });
});

describe('streamMatchEvents', () => {
  const event = { version: 1, type: 'MatchFinished', at: '2026-01-01T12:00:00.000Z', data: { totals: [0, 0, 0], winners: [0] } };
  const finished = `retry: 2000\n\nid: 1\ndata: ${JSON.stringify(event)}\n\nevent: end\ndata: {"version":1,"status":"finished"}\n\n`;

  it('reconnects after a 429 TOO_MANY_STREAMS no sooner than its Retry-After says', async () => {
    const at: number[] = [];
    const fetch = async (): Promise<Response> => {
      at.push(Date.now());
      if (at.length === 1) {
        const problem = { type: 't', title: 'x', status: 429, detail: 'close one first', code: 'TOO_MANY_STREAMS', retryAfter: 1 };
        return new Response(JSON.stringify(problem), { status: 429, headers: { 'content-type': 'application/problem+json', 'retry-after': '1' } });
      }
      return new Response(finished, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    };
    const seen = [];
    for await (const e of streamMatchEvents('http://bismarck.test', 'm', { fetch: fetch as typeof globalThis.fetch, retryMs: 10 })) seen.push(e.type);
    expect(seen).toEqual(['MatchFinished']);
    expect(at).toHaveLength(2);
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(950);
  });

  it('throws a 4xx other than 429 at once, with its status and body', async () => {
    const fetch = async (): Promise<Response> => new Response('{"code":"MATCH_NOT_FOUND"}', { status: 404 });
    const stream = streamMatchEvents('http://bismarck.test', 'm', { fetch: fetch as typeof globalThis.fetch });
    await expect(stream.next()).rejects.toMatchObject({ status: 404, body: '{"code":"MATCH_NOT_FOUND"}', retryAfterMs: undefined });
  });
});
