import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { describeValidationErrors, validationFieldErrors } from './field-errors';
import { ProblemException } from './problem';

/** What the exception factory hands to `transform`, which alone knows where the value came from. */
class InvalidInput {
  constructor(readonly errors: ValidationError[]) {}
}

/**
 * The global validation: unknown properties refused, values transformed to their DTO classes, and a
 * failure answered 400 VALIDATION_FAILED with `errors`, one entry per invalid field (a JSON Pointer
 * into the body, or a parameter's name for query and path DTOs).
 */
export class ProblemValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      // Keep each error's instance: its class tells which items of an array failed (field-errors.ts).
      validationError: { target: true },
      exceptionFactory: (errors) => new InvalidInput(errors),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (!(error instanceof InvalidInput)) throw error;
      const errors = validationFieldErrors(error.errors, metadata.type === 'body' ? 'body' : 'parameter');
      throw new ProblemException('VALIDATION_FAILED', describeValidationErrors(error.errors), { errors });
    }
  }
}
