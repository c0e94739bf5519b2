import { DatabaseError } from 'pg';
import { isDatabaseUnavailable } from './database-unavailable';

// Which failures are "the database is away" (503, send again) and which are this request's (500 or a
// problem of its own): by pg's SQLSTATE, Node's socket codes, and the words pg and pg-pool use.
const serverError = (code: string): DatabaseError => Object.assign(new DatabaseError('server says no', 0, 'error'), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a connection exception (class 08)', serverError('08006'), true],
    ['admin_shutdown (a restart)', serverError('57P01'), true],
    ['cannot_connect_now (in recovery)', serverError('57P03'), true],
    ['too_many_connections', serverError('53300'), true],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), true],
    ['pg-pool in words', new Error('timeout exceeded when trying to connect'), true],
    ["TypeORM's wrapping of one", { message: 'query failed', driverError: serverError('57P01') }, true],
    ['the event store\'s cause', new Error('append failed', { cause: serverError('08003') }), true],
    ['a unique violation', serverError('23505'), false],
    ['a serialization failure (send again, but the database is there)', serverError('40001'), false],
    ['an operator intervention that is no shutdown (query_canceled)', serverError('57014'), false],
    ['a code that only starts like class 08', serverError('0800'), false],
    ['a plain error', new Error('boom'), false],
  ])('%s: %s', (_, error, unavailable) => {
    expect(isDatabaseUnavailable(error)).toBe(unavailable);
  });
});
