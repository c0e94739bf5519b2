import 'reflect-metadata';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsString, Matches, ValidateNested, validate } from 'class-validator';
import { plainToInstance, Type } from 'class-transformer';
import { resolveOptions, RuleViolation } from '@bismarck/rules';
import { describeValidationErrors, pointerOf, ruleFieldErrors, validationFieldErrors, type InputLocation } from './field-errors';

class Seat {
  @IsString() readonly name!: string;
}

class Body {
  @IsArray()
  @ArrayMaxSize(3)
  @Matches(/^[A-Z]{2}$/, { each: true, message: 'each card must be two capitals' })
  readonly cards!: string[];

  @ValidateNested({ each: true })
  @Type(() => Seat)
  readonly seats!: Seat[];

  @IsIn(['a', 'b']) readonly mode!: string;
}

class Query {
  @Type(() => Number)
  @IsInt()
  readonly limit!: number;
}

const fieldErrors = async (cls: new () => object, plain: object, location: InputLocation = 'body') => {
  const errors = await validate(plainToInstance(cls, plain), { whitelist: true, forbidNonWhitelisted: true });
  return { entries: validationFieldErrors(errors, location), detail: describeValidationErrors(errors) };
};

describe('pointerOf', () => {
  it('escapes ~ and / (RFC 6901) and spells the whole body as ""', () => {
    expect(pointerOf(['options', 'a/b', 'x~y', 2])).toBe('/options/a~1b/x~0y/2');
    expect(pointerOf([])).toBe('');
  });
});

describe('validationFieldErrors', () => {
  it('one entry per invalid field: unknown keys, nested objects in arrays, items that fail an each-constraint', async () => {
    const { entries, detail } = await fieldErrors(Body, { cards: ['AS', 'x', 'KD', 'q'], seats: [{ name: 'a' }, { name: 3, extra: 1 }], mode: 'c', 'we/ird': 1 });
    expect(entries).toEqual(
      expect.arrayContaining([
        { pointer: '/cards', detail: 'cards must contain no more than 3 elements' },
        { pointer: '/cards/1', detail: 'each card must be two capitals' },
        { pointer: '/cards/3', detail: 'each card must be two capitals' },
        { pointer: '/seats/1/name', detail: 'name must be a string' },
        { pointer: '/seats/1/extra', detail: 'property extra should not exist' },
        { pointer: '/mode', detail: expect.stringContaining('mode must be one of') },
        { pointer: '/we~1ird', detail: 'property we/ird should not exist' },
      ]),
    );
    expect(entries).toHaveLength(7);
    // The detail stays one sentence naming the same fields.
    expect(detail).toContain('seats.1.name must be a string');
    expect(detail).toContain('cards: each card must be two capitals');
  });

  it('an each-constraint on a value that is no array stays at the field', async () => {
    const { entries } = await fieldErrors(Body, { cards: 'x', seats: [], mode: 'a' });
    expect(entries).toEqual([{ pointer: '/cards', detail: expect.stringContaining('each card must be two capitals') }]);
  });

  it('names parameters instead of pointing into a body', async () => {
    const { entries } = await fieldErrors(Query, { limit: 'ten', cursor: 'x' }, 'parameter');
    expect(entries).toEqual(
      expect.arrayContaining([
        { parameter: 'limit', detail: 'limit must be an integer number' },
        { parameter: 'cursor', detail: 'property cursor should not exist' },
      ]),
    );
    expect(entries).toHaveLength(2);
  });
});

describe('ruleFieldErrors', () => {
  const refusal = (work: () => unknown): string => {
    try {
      work();
    } catch (error) {
      if (error instanceof RuleViolation) return error.message;
    }
    throw new Error('not refused');
  };

  it.each([
    [{ schedule: 'weekly' }, '/options/schedule'],
    [{ mustTrump: 'yes' }, '/options/mustTrump'],
    [{ 'jo/kers': true }, '/options/jo~1kers'],
    [{ fourthRound: 'freeTrump' }, '/options/fourthRound'],
  ])('the rules\' refusal of the options %j points at %s', (options, pointer) => {
    const message = refusal(() => resolveOptions(options as never));
    expect(ruleFieldErrors(message)).toEqual([{ pointer, detail: message }]);
  });

  // Refused by the rules only in a match in play: test/bad-input.e2e-spec.ts sends them for real.
  it.each([
    ['name the trump suit (S, H, D or C)', { pointer: '/trump' }],
    ['a trump suit is named only with the contract trump', { pointer: '/trump' }],
    ['lay away 4 different cards', { pointer: '/cards' }],
    ['seat must be 0, 1 or 2', { parameter: 'seat' }],
  ])('%s: %j', (message, field) => {
    expect(ruleFieldErrors(message)).toEqual([{ ...field, detail: message }]);
  });

  it('names nothing for what the service itself supplies', () => {
    expect(ruleFieldErrors('the deck must be the 52 card codes')).toEqual([]);
    expect(ruleFieldErrors('firstDealer must be 0, 1 or 2')).toEqual([]);
  });
});
