import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';

/**
 * A whole number from the query string, from `min` to `max`, written in decimal digits only, as the
 * headers' versions are. `Number()` alone would read '0x10', '1e1', ' 5', '5.0' and '' as numbers; here
 * they stay text and are refused with one message.
 */
export const QueryInteger = (min: number, max: number): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }) => (typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value)),
    ValidateBy({
      name: 'queryInteger',
      validator: {
        validate: (value: unknown) => Number.isInteger(value) && (value as number) >= min && (value as number) <= max,
        defaultMessage: (args) => `${args?.property} must be a whole number from ${min} to ${max}, in decimal digits`,
      },
    }),
  );
