import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { createHash } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * The contract, held to every answer: each response an end-to-end test's server sends is checked
 * against the OpenAPI document the same server serves, with strict JSON Schema semantics (Ajv in strict
 * mode, the document's own 3.1 schemas). Its status must be one the operation declares, its media type
 * one that status declares, and its body valid, problem+json and text answers included. One more check
 * than the document asks: no answer holds a field the document does not name (objects are closed here,
 * not in the document, so that clients stay free to meet new fields), so that a drift either way fails.
 *
 * Outside the document: a path it does not list answering 2xx (Swagger UI's and the pages' static
 * files), and the bodies of live event streams (the AsyncAPI document's; their status and media type
 * are checked). Any error answer, on any path, must be a valid problem.
 *
 * And no credential in any answer (docs/security.md): no body, on any path, holds the request's own
 * bearer token, anything shaped like a JWT, or the SHA-256 (hex) of a token the watch has seen, sent as
 * a bearer or handed out by an earlier answer. A token the answer hands out for the first time (a new
 * match's seat tokens, a new player's token) is neither.
 */
type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;
const MAX_BODY = 8 << 20;
/** A compact JWS or JWE anywhere in a text: base64url segments split by dots, the first a JSON header (`{"` is `eyJ`). */
const JWT_ANYWHERE = /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/;
/** The opaque tokens this service hands out (seat `bsk_`, player `bskp_`). */
const OPAQUE_TOKENS = /(?<![A-Za-z0-9_-])bskp?_[A-Za-z0-9_-]{32}(?![A-Za-z0-9_-])/g;
const HEX_64 = /(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])/gi;
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  literal: number;
  operation: Json;
}

export class ContractWatch {
  readonly violations: string[] = [];
  /** How many answers were checked, by operation (tests of the watch itself look at it). */
  readonly checked = new Map<string, number>();
  private readonly ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();
  /** The SHA-256 (hex) of every token seen: each request's bearer, each token an answer handed out. */
  private readonly tokenHashes = new Set<string>();

  constructor(private readonly document: Json) {
    addFormats(this.ajv);
    // OpenAPI's own annotations beside JSON Schema's.
    this.ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
    this.ajv.addSchema({ $id: 'openapi', $defs: closedSchemas(document) });
    this.routes = Object.entries(document.paths as Json)
      .flatMap(([template, item]) =>
        METHODS.filter((m) => (item as Json)[m]).map((method) => ({
          method,
          template,
          pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
          literal: template.replace(/\{[^}]+\}/g, '').length,
          operation: (item as Json)[method] as Json,
        })),
      )
      // `/api/matches/mine` before `/api/matches/{id}`: the most literal template wins.
      .sort((a, b) => b.literal - a.literal);
  }

  /** Checks every answer this server sends from now on. */
  observe(server: Server): void {
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => this.capture(req, res));
  }

  /** Throws when an answer broke the contract. */
  assertKept(): void {
    if (this.violations.length === 0) return;
    const shown = this.violations.slice(0, 20).join('\n\n');
    throw new Error(`${this.violations.length} answer(s) do not match the OpenAPI document or hold a credential:\n\n${shown}`);
  }

  /**
   * The credentials an answer's body holds (none: it holds none): the request's own bearer token, a
   * JWT, or the hash of a token seen before. Then remembers the tokens it hands out, so that their
   * hashes are caught in later answers.
   */
  credentialsIn(bearer: string | undefined, body: Buffer | null): string[] {
    if (bearer !== undefined) this.tokenHashes.add(sha256(bearer));
    if (body === null || body.length === 0) return [];
    const text = body.toString('utf8');
    const reasons: string[] = [];
    if (bearer !== undefined && bearer.length >= 8 && text.includes(bearer)) reasons.push("the answer repeats the request's bearer credential");
    const jwt = JWT_ANYWHERE.exec(text);
    if (jwt) reasons.push(`the answer holds a JWT (${jwt[0].slice(0, 24)}…)`);
    if ([...text.matchAll(HEX_64)].some(([hex]) => this.tokenHashes.has(hex.toLowerCase()))) reasons.push("the answer holds a token's hash");
    for (const [token] of text.matchAll(OPAQUE_TOKENS)) this.tokenHashes.add(sha256(token));
    return reasons;
  }

  /** The verdict on one answer: the reasons it breaks the contract (none: it keeps it). */
  judge(method: string, url: string, status: number, contentType: string | undefined, body: Buffer | null): string[] {
    const path = url.split('?')[0];
    const head = method.toLowerCase() === 'head';
    // A HEAD answer has its GET's status and headers, and no body.
    if (head) body = null;
    const verb = head ? 'get' : method.toLowerCase();
    const route = this.routes.find((r) => r.method === verb && r.pattern.test(path));
    const media = contentType?.split(';')[0].trim().toLowerCase();
    if (!route) {
      if (status < 400) return []; // static files, outside the document
      return media === 'application/problem+json' ? this.validBody(`${method} ${path}`, 'problem', { $ref: 'openapi#/$defs/ProblemDto' }, media, body) : [`${status} is not problem+json but ${media}`];
    }
    const id = `${route.operation.operationId} ${status}`;
    this.checked.set(route.operation.operationId, (this.checked.get(route.operation.operationId) ?? 0) + 1);
    const declared = route.operation.responses?.[String(status)] ?? route.operation.responses?.default;
    if (!declared) return [`status ${status} is not declared by ${route.operation.operationId} (${Object.keys(route.operation.responses ?? {}).join(', ')})`];
    const content = (declared.content ?? {}) as Json;
    if (Object.keys(content).length === 0) return body && body.length > 0 ? [`${id} declares no body, but one was sent (${media})`] : [];
    // A declared media type may carry parameters (`text/plain; charset=utf-8`): the type itself must match.
    const declaredMedia = Object.keys(content).find((m) => m.split(';')[0].trim().toLowerCase() === media);
    if (!media || !declaredMedia) return [`${id} answered ${media ?? 'no Content-Type'}; declared: ${Object.keys(content).join(', ')}`];
    if (media === 'text/event-stream' || body === null) return [];
    const schema = content[declaredMedia].schema;
    return schema ? this.validBody(id, `${id} ${media}`, schema, media, body) : [];
  }

  /** A validator of one of the document's schemas, closed as every answer is checked. */
  schema(name: string): ValidateFunction {
    return this.ajv.getSchema(`openapi#/$defs/${name}`) ?? this.ajv.compile({ $ref: `openapi#/$defs/${name}` });
  }

  /** The reasons why a value fails a validator of this watch (none: it is valid). */
  errorsOf(validate: ValidateFunction, value: unknown): string[] {
    return validate(value) ? [] : this.ajv.errorsText(validate.errors, { separator: '\n' }).split('\n');
  }

  private capture(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    let streaming = false;
    const keep = (chunk: unknown, encoding?: unknown): void => {
      if (streaming || chunk === undefined || chunk === null || typeof chunk === 'function') return;
      if (String(res.getHeader('content-type') ?? '').startsWith('text/event-stream')) {
        streaming = true;
        return;
      }
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
      size += buffer.length;
      if (size <= MAX_BODY) chunks.push(buffer);
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      return write(...args);
    }) as typeof res.write;
    res.end = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      return end(...args);
    }) as typeof res.end;
    res.once('finish', () => {
      const body = streaming || size > MAX_BODY ? null : Buffer.concat(chunks);
      const bearer = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const reasons = [
        ...this.judge(req.method ?? 'GET', req.url ?? '/', res.statusCode, res.getHeader('content-type') as string | undefined, body),
        ...this.credentialsIn(bearer, body),
      ];
      if (reasons.length > 0) {
        const shown = body === null ? '(not kept)' : body.toString('utf8').slice(0, 400);
        this.violations.push(`${req.method} ${req.url} → ${res.statusCode}\n  ${reasons.join('\n  ')}\n  body: ${shown}`);
      }
    });
  }

  private validBody(key: string, what: string, schema: Json, media: string, body: Buffer | null): string[] {
    if (body === null) return [];
    let value: unknown = body.toString('utf8');
    if (media === 'application/json' || media.endsWith('+json')) {
      try {
        value = JSON.parse(value as string);
      } catch {
        return [`${what}: the body is not JSON`];
      }
    }
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"openapi#/$defs/')));
      this.validators.set(key, validate);
    }
    if (validate(value)) return [];
    return [`${what}: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}`];
  }
}

/**
 * The document's schemas with their `$ref`s pointing into `$defs`, and every object closed to the fields
 * it names, except the members of a discriminated union of a schema with properties of its own: those
 * are checked beside their parent's properties, so only the parent is closed (unevaluatedProperties
 * sees through `oneOf`).
 */
function closedSchemas(document: Json): Json {
  const schemas = document.components.schemas as Json;
  const members = new Set(
    Object.values(schemas)
      .filter((s: Json) => s.properties && s.discriminator)
      .flatMap((s: Json) => Object.values(s.discriminator.mapping as Json)),
  );
  const close = (node: unknown, closed: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => close(n, true));
    if (!node || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || key === 'examples') out[key] = value;
      else if (key === 'properties') out[key] = Object.fromEntries(Object.entries(value as Json).map(([p, s]) => [p, close(s, true)]));
      else if (key === '$ref') out[key] = String(value).replace('#/components/schemas/', 'openapi#/$defs/');
      else out[key] = close(value, true);
    }
    if (closed && out.properties && out.additionalProperties === undefined) out.unevaluatedProperties = false;
    return out;
  };
  return Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, close(s, !members.has(`#/components/schemas/${name}`))]));
}

const watches = new WeakMap<Server, ContractWatch>();

/** The watch on this server (one per server, whoever asks first). */
export function watchContract(server: Server, document: Json): ContractWatch {
  let watch = watches.get(server);
  if (!watch) {
    watch = new ContractWatch(document);
    watch.observe(server);
    watches.set(server, watch);
  }
  return watch;
}
