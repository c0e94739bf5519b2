import { type DynamicModule, Inject, Injectable, type LoggerService, Module } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { pino, type Logger as Pino } from 'pino';
import { appConfig } from '../config/app.config';

/** The application's pino logger: Nest's own logs go through it, and so do the request lines (edge/request-log.ts). */
export const PINO = Symbol('pino');

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/**
 * Nest's LoggerService over pino (`app.useLogger`): one JSON line per message, Nest's context (the
 * last parameter it passes) under `context`, an Error or an object merged into the line. Nest's
 * `verbose` is pino's `trace`.
 */
@Injectable()
export class PinoNestLogger implements LoggerService {
  constructor(@Inject(PINO) private readonly pino: Pino) {}

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    const fields: Record<string, unknown> = {};
    let rest = params;
    if (params.length > 0) {
      fields.context = params[params.length - 1];
      rest = params.slice(0, -1);
    }
    const log = this.pino[level].bind(this.pino) as (fields: object, ...args: unknown[]) => void;
    if (typeof message === 'object') {
      if (message instanceof Error) fields.err = message;
      else Object.assign(fields, message);
      log(fields, ...rest);
    } else if (level === 'error' && typeof message === 'string' && rest.length === 1 && typeof rest[0] === 'string' && /\n\s*at /.test(rest[0])) {
      // Nest's exception handlers call error(message, stack, context): log it as an error with that stack.
      const err = new Error(message);
      err.stack = rest[0];
      log({ ...fields, err });
    } else {
      log(fields, message, ...rest);
    }
  }
}

/** Provides PINO (at LOG_LEVEL, or the given level) and PinoNestLogger. */
@Module({})
export class LoggerModule {
  static forRoot(options: { level?: string } = {}): DynamicModule {
    return {
      module: LoggerModule,
      providers: [
        {
          provide: PINO,
          inject: [appConfig.KEY],
          useFactory: (config: ConfigType<typeof appConfig>): Pino =>
            pino({
              level: options.level ?? config.logLevel,
              // Tokens never reach the logs (no line carries headers today; this keeps it so).
              redact: ['req.headers.authorization', 'req.headers.cookie'],
            }),
        },
        PinoNestLogger,
      ],
      exports: [PINO, PinoNestLogger],
    };
  }
}
