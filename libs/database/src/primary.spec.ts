import { parseHosts, PrimaryFinder, type DatabaseHost } from './primary';

describe('a DATABASE_URL with several hosts', () => {
  it('lists the hosts and the session target, and gives pg a URL with the first host only', () => {
    expect(parseHosts('postgres://u:p%40ss@10.0.0.1:5433,db2,[::1]:6000/bismarck?target_session_attrs=read-write&sslmode=prefer')).toEqual({
      hosts: [
        { host: '10.0.0.1', port: 5433 },
        { host: 'db2', port: 5432 },
        { host: '::1', port: 6000 },
      ],
      target: 'read-write',
      firstHostUrl: 'postgres://u:p%40ss@10.0.0.1:5433/bismarck?sslmode=prefer',
    });
    expect(parseHosts('postgresql://h1:1,h2:2/db')?.target).toBe('any');
    expect(parseHosts('postgres://h/db?target_session_attrs=primary')?.target).toBe('read-write');
  });

  it('leaves an ordinary URL to pg, and refuses what it cannot honour', () => {
    expect(parseHosts('postgres://postgres@127.0.0.1:5432/test')).toBeUndefined();
    expect(() => parseHosts('postgres://h1,h2/db?target_session_attrs=standby')).toThrow(/not supported/);
    expect(() => parseHosts('postgres://h1,,h2/db')).toThrow(/empty host/);
    expect(() => parseHosts('postgres://h1:x,h2/db')).toThrow(/bad port/);
  });
});

describe('finding the primary', () => {
  const list = parseHosts('postgres://a:1,b:2,c:3/db?target_session_attrs=read-write')!;
  const host = (name: string): DatabaseHost => list.hosts.find((h) => h.host === name)!;

  it('moves to the next host when one fails, and to the primary a probe finds', async () => {
    let primary = 'c';
    const finder = new PrimaryFinder(list, async (h) => h.host === primary);
    expect(finder.current()).toEqual(host('a'));
    finder.missed(host('a'));
    expect(finder.current()).toEqual(host('b'));
    await finder.settled();
    expect(finder.current()).toEqual(host('c'));
    // A miss on a host no longer preferred changes nothing at once; the probe still decides.
    primary = 'b';
    finder.missed(host('a'));
    expect(finder.current()).toEqual(host('c'));
    await finder.settled();
    expect(finder.current()).toEqual(host('b'));
  });

  it('keeps going round when no host answers', async () => {
    const finder = new PrimaryFinder(list, async () => false);
    finder.missed(host('a'));
    await finder.settled();
    expect(finder.current()).toEqual(host('b'));
    finder.missed(host('b'));
    finder.missed(host('c'));
    await finder.settled();
    expect(finder.current()).toEqual(host('a'));
  });
});
