import { ConfigModule } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { pino, type Logger as Pino } from 'pino';
import { appConfig } from '../config/app.config';
import { LoggerModule, PINO, PinoNestLogger } from './logger.module';

function capture(): { logger: PinoNestLogger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const out = pino({ level: 'trace', base: undefined, timestamp: false }, { write: (s: string) => void lines.push(JSON.parse(s)) });
  return { logger: new PinoNestLogger(out), lines };
}

describe('PinoNestLogger', () => {
  it('writes Nest messages as pino lines with their context', () => {
    const { logger, lines } = capture();
    logger.log('Starting Nest application...', 'NestFactory');
    logger.verbose('detail', 'Ctx');
    logger.warn('no context');
    logger.debug({ matches: 3 }, 'Ctx');
    logger.log('%d players', 3, 'Ctx');
    expect(lines).toEqual([
      { level: 30, context: 'NestFactory', msg: 'Starting Nest application...' },
      { level: 10, context: 'Ctx', msg: 'detail' },
      { level: 40, msg: 'no context' },
      { level: 20, context: 'Ctx', matches: 3 },
      { level: 30, context: 'Ctx', msg: '3 players' },
    ]);
  });

  it('logs errors under err, also when Nest passes (message, stack, context)', () => {
    const { logger, lines } = capture();
    logger.error(new Error('lost'), 'Ctx');
    logger.error('boom', 'Error: boom\n    at handler (x.js:1:1)', 'ExceptionsHandler');
    logger.fatal('bye', 'Ctx');
    expect(lines[0]).toMatchObject({ level: 50, context: 'Ctx', err: { type: 'Error', message: 'lost' } });
    expect(lines[1]).toMatchObject({ level: 50, context: 'ExceptionsHandler', err: { message: 'boom', stack: 'Error: boom\n    at handler (x.js:1:1)' } });
    expect(lines[2]).toEqual({ level: 60, context: 'Ctx', msg: 'bye' });
  });
});

describe('LoggerModule', () => {
  const pinoAt = async (level?: string): Promise<Pino> => {
    const module = await Test.createTestingModule({
      imports: [ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [appConfig] }), LoggerModule.forRoot({ level })],
    }).compile();
    return module.get<symbol, Pino>(PINO);
  };

  it('uses the given level, else LOG_LEVEL', async () => {
    expect((await pinoAt('silent')).level).toBe('silent');
    expect((await pinoAt()).level).toBe(process.env.LOG_LEVEL || 'info');
  });
});
