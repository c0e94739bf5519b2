import { referencedFrom, toAsyncApiSchema } from './asyncapi';

describe('toAsyncApiSchema (OpenAPI 3.0 → AsyncAPI 3 / JSON Schema draft 07)', () => {
  it('turns nullable into a null type, and null into the enum', () => {
    expect(toAsyncApiSchema({ type: 'string', enum: ['S', 'H'], nullable: true, example: 'H', description: 'trump' })).toEqual({
      type: ['string', 'null'],
      enum: ['S', 'H', null],
      examples: ['H'],
      description: 'trump',
    });
  });

  it('goes into properties, items, additionalProperties and unions', () => {
    const schema = {
      type: 'object',
      required: ['hands'],
      properties: {
        hands: { type: 'array', nullable: true, items: { type: 'array', items: { type: 'string', nullable: true } } },
        counts: { type: 'object', additionalProperties: { type: 'integer', nullable: true } },
        either: { oneOf: [{ type: 'string', example: 'a' }, { type: 'integer' }] },
      },
    };
    expect(toAsyncApiSchema(schema)).toEqual({
      type: 'object',
      required: ['hands'],
      properties: {
        hands: { type: ['array', 'null'], items: { type: 'array', items: { type: ['string', 'null'] } } },
        counts: { type: 'object', additionalProperties: { type: ['integer', 'null'] } },
        either: { oneOf: [{ type: 'string', examples: ['a'] }, { type: 'integer' }] },
      },
    });
  });

  it('puts a nullable reference or union beside null, its description outside', () => {
    expect(toAsyncApiSchema({ description: 'the view', nullable: true, type: 'object', allOf: [{ $ref: '#/components/schemas/X' }] })).toEqual({
      description: 'the view',
      anyOf: [{ type: 'object', allOf: [{ $ref: '#/components/schemas/X' }] }, { type: 'null' }],
    });
  });

  it('drops the discriminator object and makes exclusive bounds numbers', () => {
    const union = { oneOf: [{ $ref: '#/components/schemas/A' }], discriminator: { propertyName: 'type', mapping: { a: '#/components/schemas/A' } } };
    expect(toAsyncApiSchema(union)).toEqual({ oneOf: [{ $ref: '#/components/schemas/A' }] });
    expect(toAsyncApiSchema({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: false })).toEqual({
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
    });
  });
});

describe('referencedFrom', () => {
  it('lists a schema and all it references, once each, and fails on a missing one', () => {
    const schemas = {
      A: { properties: { b: { $ref: '#/components/schemas/B' }, c: { items: { $ref: '#/components/schemas/C' } } } },
      B: { allOf: [{ $ref: '#/components/schemas/C' }] },
      C: { properties: { a: { $ref: '#/components/schemas/A' } } },
      D: {},
    };
    expect(referencedFrom('A', schemas)).toEqual(['A', 'B', 'C']);
    expect(() => referencedFrom('A', { A: schemas.A })).toThrow(/no B/);
  });
});
