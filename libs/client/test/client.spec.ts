import { createBismarckClient } from '@bismarck/client';

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
