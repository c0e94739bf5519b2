import { SettingError } from './env';
import { parseTrustProxy } from './edge.config';

describe('TRUST_PROXY: a hop count or exact addresses, never a range a client can be inside', () => {
  it.each([
    ['unset', undefined, false],
    ['empty', ' ', false],
    ['false', 'false', false],
    ['0', '0', false],
    ['one proxy in front (nginx)', '1', 1],
    ['two (a cloud balancer, then nginx)', '2', 2],
    ['one IPv4 address', '172.18.0.5', ['172.18.0.5']],
    ['addresses, spaces around the commas', '10.0.0.5, 10.0.0.6,::1', ['10.0.0.5', '10.0.0.6', '::1']],
    ['an IPv6 address', '2001:db8::7', ['2001:db8::7']],
    ['an IPv4-mapped IPv6 address', '::ffff:10.0.0.5', ['::ffff:10.0.0.5']],
  ])('accepts %s: %j', (_name, value, expected) => {
    expect(parseTrustProxy(value)).toEqual(expected);
  });

  it.each([
    ['a name Express knows', 'loopback'],
    ['a name Express knows', 'uniquelocal'],
    ['a name Express knows', 'linklocal'],
    ['a subnet', '10.0.0.0/8'],
    ['an IPv6 subnet', 'fc00::/7'],
    ['a single-address subnet', '10.0.0.5/32'],
    ['an address beside a name', '10.0.0.5, loopback'],
    ['everything', 'true'],
    ['a host name', 'nginx'],
    ['an empty entry', '10.0.0.5,'],
    ['an address with a zone', 'fe80::1%eth0'],
    ['a negative count', '-1'],
    ['more hops than any chain', '11'],
  ])('refuses %s (%s), naming the variable and the value', (_name, value) => {
    expect(() => parseTrustProxy(value)).toThrow(SettingError);
    expect(() => parseTrustProxy(value)).toThrow(`TRUST_PROXY must be the number of proxies in front of the service`);
    expect(() => parseTrustProxy(value)).toThrow(`got "${value}"`);
  });

  it('says what to write instead of a range', () => {
    expect(() => parseTrustProxy('uniquelocal')).toThrow(
      'TRUST_PROXY must be the number of proxies in front of the service or a comma-separated list of their exact IP addresses, got "uniquelocal": ' +
        '"uniquelocal" is no IP address, and a range or a name (loopback, uniquelocal, a subnet) would trust every client inside it to name its ' +
        "own address in X-Forwarded-For. Write the hop count instead, e.g. TRUST_PROXY=1 behind one nginx, or the proxy's own address, e.g. TRUST_PROXY=10.0.0.5",
    );
  });
});
