import type { ProblemException } from '../problem/problem';
import { assertJsonShape, MAX_JSON_DEPTH } from './json-body';

const nested = (depth: number): unknown => {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};

describe('assertJsonShape', () => {
  it.each([
    ['a command body', { card: 'QH' }],
    ['a match creation', { players: ['A', null, 'C'], options: { schedule: 'quick' }, seed: 's' }],
    [`${MAX_JSON_DEPTH} levels`, nested(MAX_JSON_DEPTH)],
    ['a constructor *value*', { name: 'constructor' }],
    ['no body', undefined],
  ])('accepts %s', (_name, body) => {
    expect(() => assertJsonShape(body)).not.toThrow();
  });

  it.each([
    ['7,000 nested arrays', nested(7000)],
    [`${MAX_JSON_DEPTH + 1} levels`, nested(MAX_JSON_DEPTH + 1)],
    ['an own __proto__ key', JSON.parse('{"card":"QH","__proto__":{"admin":true}}')],
    ['a constructor key', JSON.parse('{"constructor":{"prototype":{}}}')],
    ['a prototype key deep inside', JSON.parse('{"options":{"x":[{"prototype":1}]}}')],
  ])('refuses %s as VALIDATION_FAILED', (_name, body) => {
    expect(() => assertJsonShape(body)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });
});

describe('the errors of a refused shape', () => {
  const errorsOf = (body: unknown): unknown => {
    try {
      assertJsonShape(body);
    } catch (error) {
      return (error as ProblemException).extensions.errors;
    }
    throw new Error('accepted');
  };

  it('points at every prototype key, escaped as a JSON Pointer', () => {
    expect(errorsOf(JSON.parse('{"__proto__":1,"a/b":{"x~":[{"constructor":2}]}}'))).toEqual(
      expect.arrayContaining([
        { pointer: '/__proto__', detail: 'property __proto__ should not exist' },
        { pointer: '/a~1b/x~0/0/constructor', detail: 'property constructor should not exist' },
      ]),
    );
  });

  it('points at the first value past the depth limit', () => {
    expect(errorsOf({ players: nested(40) })).toEqual([{ pointer: `/players${'/0'.repeat(MAX_JSON_DEPTH - 1)}`, detail: expect.stringContaining('deeper than') }]);
  });
});
