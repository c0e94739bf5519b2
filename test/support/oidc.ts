import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** A real OpenID Provider in a process of its own (test/support/oidc-provider.mjs), asked over IPC. */
export interface TestIdentityProvider {
  /** Its issuer identifier: `http://127.0.0.1:<port>`. */
  issuer: string;
  /** An ID token for `sub` (claims such as `name`) from a real authorization code flow, for client `clientId` (default `bismarck`). */
  idToken(sub: string, claims?: Record<string, unknown>, clientId?: string): Promise<string>;
  /** A JWT signed with the provider's current key: `payload` over iss, aud `bismarck`, iat now and exp now + `expiresIn` seconds. */
  sign(payload: Record<string, unknown>, expiresIn: number): Promise<string>;
  /** A new signing key; the old one leaves the JWKS at once. Answers the new key's id. */
  rotate(): Promise<string>;
  /** How many times the discovery document and the key set (JWKS) were asked for since the start. */
  fetches(): Promise<{ discovery: number; jwks: number }>;
  /** While on, the provider holds every request unanswered (a dead issuer); off: it answers again. */
  hang(on: boolean): Promise<boolean>;
  stop(): Promise<void>;
}

export async function startIdentityProvider(): Promise<TestIdentityProvider> {
  const child: ChildProcess = fork(join(__dirname, 'oidc-provider.mjs'), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: { ...process.env, NODE_ENV: 'test' } });
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let next = 0;
  const issuer = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the identity provider exited (${code})`)));
    child.on('message', (m: { ready?: string; id?: number; result?: unknown; error?: string }) => {
      if (m.ready) return resolve(m.ready);
      const w = waiting.get(m.id!);
      waiting.delete(m.id!);
      if (m.error) w?.reject(new Error(m.error));
      else w?.resolve(m.result);
    });
  });
  const ask = <T>(op: string, args: Record<string, unknown> = {}): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ id, op, ...args });
    });
  return {
    issuer,
    idToken: (sub, claims = {}, clientId = 'bismarck') => ask('idToken', { sub, claims, clientId }),
    sign: (payload, expiresIn) => ask('sign', { payload, expiresIn }),
    rotate: () => ask('rotate'),
    fetches: () => ask('fetches'),
    hang: (on) => ask('hang', { on }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
