import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import type { EdgeConfig } from '../config/edge.config';
import { rateLimiter } from './rate-limit';

/**
 * What every request meets before the routes: security headers (helmet), CORS when configured, and
 * the rate limits on /api. Called once from createApp, before the body parser.
 */
export function applyEdge(app: NestExpressApplication, config: EdgeConfig): void {
  const cors = config.corsOrigins;
  // JSON answers need no content policy of their own; /docs (Swagger UI) and HTML pages keep theirs.
  app.use(helmet({ contentSecurityPolicy: false, crossOriginResourcePolicy: { policy: cors ? 'cross-origin' : 'same-origin' } }));
  app.use('/api', helmet.contentSecurityPolicy({ useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } }));
  if (cors) {
    app.enableCors({
      origin: cors.includes('*') ? '*' : cors,
      methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
      allowedHeaders: ['Authorization', 'Content-Type', 'If-Match', 'Idempotency-Key', 'Last-Event-ID', 'X-Request-Id'],
      exposedHeaders: ['ETag', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'X-Request-Id', 'Location'],
      maxAge: 600,
    });
  }
  app.use('/api', rateLimiter({ perToken: config.rateLimitPerToken, perAddress: config.rateLimitPerAddress, windowMs: config.rateLimitWindowMs }));
}
