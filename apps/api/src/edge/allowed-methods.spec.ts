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
    ['case-insensitive, as Express matches', '/API/Matches', ['GET', 'HEAD', 'POST', 'OPTIONS']],
    ['a trailing slash, as Express matches', '/api/matches/', ['GET', 'HEAD', 'POST', 'OPTIONS']],
    ['one of several paths of a route', '/play/abc', ['GET', 'HEAD', 'OPTIONS']],
    ['a mount, at its root', '/docs', ['GET', 'HEAD', 'OPTIONS']],
    ['a mount, below it', '/docs/swagger-ui.css', ['GET', 'HEAD', 'OPTIONS']],
    ['a bad escape in a parameter (not decoded, so no throw)', '/api/matches/%zz', ['GET', 'HEAD', 'OPTIONS']],
  ])('%s: %s allows %j', (_name, path, allowed) => {
    expect(table.allowed(path)).toEqual(allowed);
  });

  it.each([['/nothing'], ['/api/matches/abc/unknown'], ['/api'], ['/docsx'], ['/play/a/b']])('an unknown path (%s) has no methods: it stays 404', (path) => {
    expect(table.allowed(path)).toBeNull();
  });

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

  it('refuses a path it cannot read, at start-up rather than with wrong answers', () => {
    expect(() => new RouteTable().add('GET', /^\/x$/)).toThrow(/string paths only/);
  });
});
