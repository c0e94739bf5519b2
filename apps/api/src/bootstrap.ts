import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import type { Logger as Pino } from 'pino';
import swaggerUi from 'swagger-ui-express';
import { AppModule, type AppModuleOptions } from './app.module';
import { adminRoutesOff } from './platform/admin/admin.guard';
import { appConfig, type AppConfig } from './platform/config/app.config';
import { edgeConfig, type EdgeConfig } from './platform/config/edge.config';
import { CONTACT, LICENSE } from './web/docs/about';
import { methodNotAllowed } from './platform/edge/allowed-methods';
import { applyEdge, contentPolicy } from './platform/edge/edge';
import { PlayerCredentials } from './accounts/players/player-credentials.service';
import { GracefulExpressAdapter } from './platform/edge/http-adapter';
import { jsonBody } from './platform/edge/json-body';
import { requestLog } from './platform/edge/request-log';
import { completeOpenApi } from './platform/http/openapi';
import { PINO, PinoNestLogger } from './platform/logger/logger.module';
import { sendProblem } from './platform/problem/problem';
import { problemFor } from './platform/problem/problem.filter';
import { ProblemValidationPipe } from './platform/problem/validation.pipe';

export interface CreateAppOptions extends AppModuleOptions {
  /** No logs at all (tests). */
  quiet?: boolean;
  /**
   * Close the app on SIGTERM/SIGINT (Nest's hooks, which then re-raise the signal). `npm start` says
   * false and handles the signals itself: it must also stop the embedded database and release its lock.
   */
  shutdownHooks?: boolean;
  /** How long a stopping server waits for answers in flight before cutting connections (SHUTDOWN_GRACE_MS). */
  shutdownGraceMs?: number;
}

/** Builds the HTTP application: the same for `npm start`, the CLI and the end-to-end tests. */
export async function createApp(options: CreateAppOptions): Promise<NestExpressApplication> {
  const adapter = new GracefulExpressAdapter(options.shutdownGraceMs);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ ...options, logLevel: options.quiet ? 'silent' : options.logLevel }), adapter, {
    bufferLogs: true,
    bodyParser: false,
    // A failure (a bad setting) reaches the caller, which releases the embedded database first.
    abortOnError: false,
    logger: options.quiet ? false : undefined,
  });
  if (!options.quiet) app.useLogger(app.get(PinoNestLogger));
  app.disable('x-powered-by');
  app.use(requestLog(app.get<symbol, Pino>(PINO)));
  const players = app.get(PlayerCredentials);
  applyEdge(app, app.get<string | symbol, EdgeConfig>(edgeConfig.KEY), (token) => players.playerForLimits(token), adapter.routes);
  const config = app.get<string | symbol, AppConfig>(appConfig.KEY);
  if (config.adminToken === null) app.use('/api/admin', adminRoutesOff);
  // Before the body parser: a method the path does not have is refused with its body unread. The
  // table it reads is complete once the app is initialised, before the first request.
  app.use(methodNotAllowed(adapter.routes));
  app.use(jsonBody(config.bodyLimit));
  app.useGlobalPipes(new ProblemValidationPipe());
  // Errors raised by Express middleware (body parsing) never reach Nest's filters: answer them the same way.
  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    sendProblem(req, res, problemFor(err));
  });
  mountDocs(app, adapter, buildOpenApi(app));
  if (options.shutdownHooks !== false) app.enableShutdownHooks();
  return app;
}

export function buildOpenApi(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Bismarck')
    .setDescription(
      'Event-sourced service for Bismarck, the Nordic three-player trick-taking card game. ' +
        'Every match is one event stream; commands are decided by the rules engine and appended to the log. ' +
        'Errors are application/problem+json with a stable `code`.',
    )
    .setVersion('1')
    .setLicense(LICENSE.name, LICENSE.url)
    // Relative: the API is wherever this document was fetched from (localhost, a container, a load balancer).
    .addServer('/', 'this service')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A seat token from POST /api/matches.' }, 'seat')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The ADMIN_TOKEN of the deployment.' }, 'admin')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A player token from POST /api/players (or POST /api/players/me/tokens).' }, 'player')
    // Every tag an operation uses (@ApiTags), in the order Swagger UI lists them.
    .addTag('matches', "Create, list and read matches: public state, a seat's view, scorecard, the event log and its live stream, forks, the table.")
    .addTag('lobby', 'Fill the open seats of a waiting match, with people or bots.')
    .addTag('commands', 'What a seat does in a deal: cut, deal, contract, discard, play.')
    .addTag('replay and audit', 'Any moment of a match, its audit, export and notation, the replay viewer.')
    .addTag('players', 'Player accounts: a name, personal access tokens, a public profile (docs/players.md).')
    .addTag('analysis', 'The double-dummy value of every card of a scored deal.')
    .addTag('admin', 'Maintenance of a deployment (rebuilding the projections), with its ADMIN_TOKEN.')
    .addTag('operations', 'Health and metrics, for load balancers and monitoring.')
    .build();
  // setContact wants a URL and an address too, and there are none (docs/about.ts).
  config.info.contact = { ...CONTACT };
  return completeOpenApi(SwaggerModule.createDocument(app, config));
}

function mountDocs(app: NestExpressApplication, adapter: GracefulExpressAdapter, document: OpenAPIObject): void {
  adapter.get('/docs/openapi.json', (_req: Request, res: Response) => res.json(document));
  // Swagger UI answers GET on every path under /docs (its page and files) from a mount, which names
  // no method: the method table is told here.
  adapter.routes.add('GET', '/docs{/*asset}');
  const options = { customSiteTitle: 'Bismarck API' };
  // Swagger UI's page inlines two <style> blocks and one style attribute, and its top bar's logo
  // renders a <style> of its own (its scripts are all files): allowed by their hashes, each exactly as
  // generated or as the served script writes it, and nothing else inline.
  // The files swagger-ui-express serves: swagger-ui-dist as it resolves it.
  const dist = dirname(require.resolve('swagger-ui-dist/package.json', { paths: [dirname(require.resolve('swagger-ui-express'))] }));
  const scripts = ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js'].map((file) => readFileSync(join(dist, file), 'utf8'));
  const policy = docsPolicy(swaggerUi.generateHTML(document, options), scripts);
  app.use('/docs', (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Content-Security-Policy', policy);
    next();
  });
  app.use('/docs', swaggerUi.serve, swaggerUi.setup(document, options));
}

/**
 * HTML_POLICY plus the hashes of the inline styles of the Swagger UI page `html`, and of the <style>
 * elements its `scripts` render with a constant text (React's `createElement("style", null, "…")`).
 */
export function docsPolicy(html: string, scripts: string[] = []): string {
  const hash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const rendered = scripts.flatMap((js) => [...js.matchAll(/createElement\("style",null,("(?:[^"\\]|\\.)*")\)/g)].map((m) => JSON.parse(m[1]) as string));
  const blocks = [...new Set([...[...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]), ...rendered])].map(hash);
  const attributes = [...html.matchAll(/\sstyle="([^"]*)"/g)].map((m) => hash(m[1]));
  // 'unsafe-hashes' lets a hash allow a style attribute too: those listed, no other.
  return contentPolicy({ 'style-src': [...blocks, ...(attributes.length > 0 ? ["'unsafe-hashes'", ...attributes] : [])] });
}
