import { Client, type ClientConfig } from 'pg';

/**
 * Following the primary of a replicated PostgreSQL (docs/operations.md, "A replicated database").
 *
 * libpq takes a URL with several hosts and `target_session_attrs=read-write`, tries them in order and
 * keeps the first that accepts writes; that is what pg_auto_failover's `pg_autoctl show uri` hands
 * out. node-postgres takes one host only, so this is the missing piece, kept small: a pg `Client`
 * class that connects to the host believed to be the primary, and refuses a session on a hot standby
 * (PostgreSQL 14+ reports `in_hot_standby` in the startup, so knowing costs no query). A refused or
 * failed connection moves the belief on and probes every host in the background; the request that met
 * it fails as "database unavailable" (503 with Retry-After), and the next connection goes to the new
 * primary. pg-pool drops a client whose connection broke, so the pool refills on the new primary.
 */

export interface DatabaseHost {
  readonly host: string;
  readonly port: number;
}

/** What `target_session_attrs` asks for; libpq's other values (standby, read-only…) have no use here. */
export type SessionTarget = 'any' | 'read-write';

export interface HostList {
  readonly hosts: readonly DatabaseHost[];
  readonly target: SessionTarget;
  /** The same URL with the first host only and without target_session_attrs: what pg and TypeORM parse. */
  readonly firstHostUrl: string;
}

const DEFAULT_PORT = 5432;
/** A dead host on a real network would hold a connection attempt for minutes without it. */
export const FAILOVER_CONNECT_TIMEOUT_MS = 5000;

/**
 * The hosts of a libpq-style URL (`postgres://user@h1:5432,h2:5433/db?target_session_attrs=read-write`),
 * or undefined for an ordinary URL (one host, no target), which pg handles alone.
 */
export function parseHosts(url: string): HostList | undefined {
  const m = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/i.exec(url.trim());
  if (!m) return undefined;
  const [, scheme, userInfo = '', authority, rest] = m;
  const query = new URLSearchParams(rest.includes('?') ? rest.slice(rest.indexOf('?') + 1).split('#')[0] : '');
  const rawTarget = query.get('target_session_attrs');
  const hosts = authority.split(',').map(parseHost);
  if (hosts.length < 2 && rawTarget === null) return undefined;
  let target: SessionTarget;
  if (rawTarget === null || rawTarget === 'any') target = 'any';
  else if (rawTarget === 'read-write' || rawTarget === 'primary') target = 'read-write';
  else throw new Error(`DATABASE_URL: target_session_attrs=${rawTarget} is not supported (any, read-write or primary)`);
  if (hosts.some((h) => h.host === '')) throw new Error('DATABASE_URL: an empty host in the host list');
  query.delete('target_session_attrs');
  const path = rest.includes('?') ? rest.slice(0, rest.indexOf('?')) : rest;
  const search = query.toString();
  const first = hosts[0];
  const firstAuthority = `${first.host.includes(':') ? `[${first.host}]` : first.host}:${first.port}`;
  return { hosts, target, firstHostUrl: `${scheme}${userInfo}${firstAuthority}${path}${search ? `?${search}` : ''}` };
}

function parseHost(part: string): DatabaseHost {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(part);
  if (v6) return { host: v6[1], port: v6[2] ? Number(v6[2]) : DEFAULT_PORT };
  const [host, port] = part.split(':');
  if (port !== undefined && !/^\d+$/.test(port)) throw new Error(`DATABASE_URL: bad port in host "${part}"`);
  return { host: decodeURIComponent(host), port: port ? Number(port) : DEFAULT_PORT };
}

const key = (h: DatabaseHost): string => `${h.host}:${h.port}`;

/** The error of a session that reached a standby while a writable one was asked for. */
export class StandbyReachedError extends Error {
  constructor(readonly at: DatabaseHost) {
    super(`connection to ${key(at)}: server is in hot standby mode, and target_session_attrs asks for read-write; looking for the primary`);
  }
}

/** Which host to try first; one per host list in a process, shared by every pool and LISTEN connection. */
export class PrimaryFinder {
  private preferred = 0;
  private probing: Promise<void> | undefined;

  constructor(
    readonly list: HostList,
    /** A session's read-write check, replaceable in tests. */
    private readonly probeHost: (host: DatabaseHost) => Promise<boolean> = (host) => probe(list, host),
  ) {}

  current(): DatabaseHost {
    return this.list.hosts[this.preferred];
  }

  /** A connection to `host` failed or found a standby: try the next host, and look for the primary. */
  missed(host: DatabaseHost): void {
    const at = this.list.hosts.findIndex((h) => key(h) === key(host));
    if (at === this.preferred) this.preferred = (this.preferred + 1) % this.list.hosts.length;
    this.probing ??= this.probeAll().finally(() => (this.probing = undefined));
  }

  /** Resolves when a probe started by `missed` is over (tests, and the drill's logs). */
  async settled(): Promise<void> {
    await this.probing;
  }

  private async probeAll(): Promise<void> {
    const answers = await Promise.all(this.list.hosts.map((h) => this.probeHost(h).catch(() => false)));
    const found = answers.indexOf(true);
    if (found >= 0) this.preferred = found;
  }
}

/** True when `host` takes a session of the wanted kind (connects, and is writable for read-write). */
async function probe(list: HostList, host: DatabaseHost): Promise<boolean> {
  const client = new (primaryClientClass(new PrimaryFinder({ ...list, hosts: [host] }, async () => false)))({
    connectionString: list.firstHostUrl,
    connectionTimeoutMillis: FAILOVER_CONNECT_TIMEOUT_MS,
    application_name: 'bismarck-primary-probe',
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const finders = new Map<string, PrimaryFinder>();

/** The process's finder for a host list (pools and LISTEN connections share what they learn). */
export function primaryFinder(list: HostList): PrimaryFinder {
  const id = `${list.target}|${list.hosts.map(key).join(',')}`;
  let finder = finders.get(id);
  if (!finder) finders.set(id, (finder = new PrimaryFinder(list)));
  return finder;
}

interface ClientInternals {
  host: string;
  port: number;
  connectionParameters: { host: string; port: number };
  connection: NodeJS.EventEmitter;
}

type ConnectCallback = ((err: Error) => void) | ((err: null, client: Client) => void);

/**
 * A pg Client class bound to a finder: each instance connects to the host believed to be the primary,
 * and for read-write refuses a hot standby (in_hot_standby or default_transaction_read_only on).
 */
export function primaryClientClass(finder: PrimaryFinder): typeof Client {
  return class PrimaryClient extends Client {
    private readonly target: DatabaseHost;
    private readonly reported = new Map<string, string>();

    constructor(config?: string | ClientConfig) {
      super(config);
      this.target = finder.current();
      const self = this as unknown as ClientInternals;
      self.host = self.connectionParameters.host = this.target.host;
      self.port = self.connectionParameters.port = this.target.port;
      self.connection.on('parameterStatus', (msg: { parameterName: string; parameterValue: string }) => this.reported.set(msg.parameterName, msg.parameterValue));
    }

    // pg-pool calls connect(callback); everyone else awaits connect().
    override connect(): Promise<Client>;
    override connect(callback: ConnectCallback): void;
    override connect(callback?: ConnectCallback): Promise<Client> | void {
      const connected = this.connectToPrimary().then(() => this as Client);
      if (!callback) return connected;
      const done = callback as (err: Error | null, client?: Client) => void;
      connected.then((client) => done(null, client), (err: Error) => done(err));
    }

    private async connectToPrimary(): Promise<void> {
      try {
        await super.connect();
      } catch (err) {
        finder.missed(this.target);
        throw err;
      }
      if (finder.list.target === 'read-write' && !(await this.writable())) {
        finder.missed(this.target);
        await this.end().catch(() => undefined);
        throw new StandbyReachedError(this.target);
      }
    }

    private async writable(): Promise<boolean> {
      const standby = this.reported.get('in_hot_standby');
      const readOnly = this.reported.get('default_transaction_read_only');
      if (standby !== undefined && readOnly !== undefined) return standby === 'off' && readOnly === 'off';
      // PostgreSQL 13 reports neither: ask, as libpq does.
      const { rows } = await this.query<{ transaction_read_only: string }>('SHOW transaction_read_only');
      return rows[0]?.transaction_read_only === 'off';
    }
  };
}

/**
 * pg settings for a DATABASE_URL: nothing added for an ordinary URL; for a host list, the URL pg can
 * parse, a Client class that follows the primary, and a connect timeout.
 */
export function followPrimary(url: string): { url: string; Client?: typeof Client; connectionTimeoutMillis?: number } {
  const list = parseHosts(url);
  if (!list) return { url };
  return { url: list.firstHostUrl, Client: primaryClientClass(primaryFinder(list)), connectionTimeoutMillis: FAILOVER_CONNECT_TIMEOUT_MS };
}
