import { appConfig } from './app.config';
import { SettingError } from './env';

// OIDC_ISSUER and OIDC_AUDIENCE (docs/players.md, "Signing in with an identity provider"): a setting
// that would accept tokens it should not stops the start-up instead.
describe('the OpenID Connect settings', () => {
  const names = ['OIDC_ISSUER', 'OIDC_AUDIENCE', 'OIDC_JWKS_MAX_AGE_MS', 'OIDC_JWKS_COOLDOWN_MS'];
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  afterEach(() => {
    for (const n of names) if (saved[n] === undefined) delete process.env[n];
    else process.env[n] = saved[n];
  });
  const read = (env: Record<string, string>) => {
    for (const n of names) delete process.env[n];
    Object.assign(process.env, env);
    return appConfig().oidc;
  };

  it('are off without OIDC_ISSUER, and read with it (audiences comma-separated, the key cache defaults)', () => {
    expect(read({})).toBeNull();
    expect(read({ OIDC_ISSUER: 'https://id.example/realms/games', OIDC_AUDIENCE: 'bismarck, bismarck-cli' })).toEqual({
      issuer: 'https://id.example/realms/games',
      audience: ['bismarck', 'bismarck-cli'],
      jwksMaxAgeMs: 600_000,
      jwksCooldownMs: 1_000,
    });
    expect(read({ OIDC_ISSUER: 'http://localhost:8080', OIDC_AUDIENCE: 'x' })?.issuer).toBe('http://localhost:8080');
  });

  it('refuse to start without an audience, with an audience alone, over plain HTTP to another host, or with a URL that is none', () => {
    for (const env of <Record<string, string>[]>[
      { OIDC_ISSUER: 'https://id.example' },
      { OIDC_AUDIENCE: 'bismarck' },
      { OIDC_ISSUER: 'http://id.example', OIDC_AUDIENCE: 'bismarck' },
      { OIDC_ISSUER: 'id.example', OIDC_AUDIENCE: 'bismarck' },
      { OIDC_ISSUER: 'https://id.example?tenant=1', OIDC_AUDIENCE: 'bismarck' },
      { OIDC_ISSUER: 'https://id.example', OIDC_AUDIENCE: 'bismarck', OIDC_JWKS_MAX_AGE_MS: '10' },
    ]) {
      expect(() => read(env)).toThrow(SettingError);
    }
  });
});
