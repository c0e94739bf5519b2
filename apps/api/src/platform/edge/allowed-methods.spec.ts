import { ALL, RouteTable } from './allowed-methods';

const table = new RouteTable();
table.add('GET', '/api/matches');
table.add('POST', '/api/matches');
table.add('GET', '/api/matches/:id');
table.add('POST', '/api/matches/:id/play');
table.add('GET', ['/play', '/play/:id']);
table.add('GET', '/docs{/*asset}');
table.add(ALL, '/anything/:x');

describe('RouteTable: the methods a path answers, as Express routes them', () => {
  it.each([
    ['a path with two routes', '/api/matches', ['GET', 'HEAD', 'POST', 'OPTIONS']],
    ['a parameter', '/api/matches/abc', ['GET', 'HEAD', 'OPTIONS']],
    ['a command (no GET, so no HEAD)', '/api/matches/abc/play', ['POST', 'OPTIONS']],
    ['one of several paths of a route', '/play/abc', ['GET', 'HEAD', 'OPTIONS']],
    ['a mount, at its root', '/docs', ['GET', 'HEAD', 'OPTIONS']],
    ['a mount, below it', '/docs/swagger-ui.css', ['GET', 'HEAD', 'OPTIONS']],
    ['a bad escape in a parameter (not decoded, so no throw)', '/api/matches/%zz', ['GET', 'HEAD', 'OPTIONS']],
  ])('%s: %s allows %j', (_name, path, allowed) => {
    expect(table.allowed(path)).toEqual(allowed);
  });

  it.each([['/nothing'], ['/api/matches/abc/unknown'], ['/api'], ['/docsx'], ['/play/a/b'], ['/API/Matches'], ['/api/Matches'], ['/api/matches/'], ['/play/'], ['/api/matches/abc/Play']])(
    'an unknown path (%s) has no methods: it stays 404 (routing is case-sensitive and strict, as Express is told)',
    (path) => {
      expect(table.allowed(path)).toBeNull();
    },
  );

  it.each([
    ['GET', '/api/matches/abc', true],
    ['HEAD', '/api/matches/abc', true],
    ['DELETE', '/api/matches/abc', false],
    ['HEAD', '/api/matches/abc/play', false],
    ['OPTIONS', '/api/matches', false],
    ['TRACE', '/anything/1', true],
  ])('%s %s is answered by a route: %s', (method, path, answered) => {
    expect(table.answers(method, path)).toBe(answered);
  });

  it.each([
    ['POST', '/api/matches', { method: 'POST', path: '/api/matches' }],
    ['POST', '/api/matches/abc/play', { method: 'POST', path: '/api/matches/:id/play' }],
    ['HEAD', '/api/matches/abc', { method: 'GET', path: '/api/matches/:id' }],
    ['PUT', '/anything/1', { method: ALL, path: '/anything/:x' }],
    ['POST', '/api/matches/', undefined],
    ['POST', '/api/Matches', undefined],
    ['DELETE', '/api/matches', undefined],
  ])('%s %s reaches the route %j', (method, path, route) => {
    expect(table.routeOf(method, path)).toEqual(route);
  });

  it('names the first route registered that matches, as Express tries them in order', () => {
    const ordered = new RouteTable();
    ordered.add('GET', '/players/me');
    ordered.add('GET', '/players/:id');
    expect([ordered.routeOf('GET', '/players/me')?.path, ordered.routeOf('GET', '/players/p1')?.path]).toEqual(['/players/me', '/players/:id']);
    expect([ordered.has({ method: 'GET', path: '/players/:id' }), ordered.has({ method: 'POST', path: '/players/:id' })]).toEqual([true, false]);
  });

  it('refuses a path it cannot read, at start-up rather than with wrong answers', () => {
    expect(() => new RouteTable().add('GET', /^\/x$/)).toThrow(/string paths only/);
  });
});
