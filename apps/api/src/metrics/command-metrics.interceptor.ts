import { HttpException, Injectable, SetMetadata, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { tap, type Observable } from 'rxjs';
import { RuleViolation } from '@bismarck/rules';
import { MetricsService } from './metrics.service';

const COMMAND = 'bismarck:command';

/** Marks a route that writes a command: it is counted and timed as `type` (bismarck_commands_total). */
export const MeasuredCommand = (type: string): MethodDecorator => SetMetadata(COMMAND, type);

/**
 * Every write measured the same way, around the handler: accepted, refused (the rules, validation,
 * a version or key conflict: any 4xx) or failed (anything else).
 */
@Injectable()
export class CommandMetricsInterceptor implements NestInterceptor {
  constructor(
    private readonly metrics: MetricsService,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const type = this.reflector.get<string | undefined>(COMMAND, context.getHandler());
    if (type === undefined) return next.handle();
    const stop = this.metrics.startCommand(type);
    return next.handle().pipe(
      tap({
        next: () => stop('accepted'),
        error: (error: unknown) => stop(error instanceof RuleViolation || (error instanceof HttpException && error.getStatus() < 500) ? 'refused' : 'failed'),
      }),
    );
  }
}
