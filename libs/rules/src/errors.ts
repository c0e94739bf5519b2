import type { RuleErrorCode } from './shown';

/**
 * The one error the rules throw. `code` is a stable string of the public HTTP contract; the HTTP layer maps codes to
 * statuses. The message is for humans and never names a card that another seat has not seen.
 */
export class RuleViolation extends Error {
  readonly code: RuleErrorCode;

  constructor(code: RuleErrorCode, message: string) {
    super(message);
    this.name = 'RuleViolation';
    this.code = code;
  }
}

export const refuse = (code: RuleErrorCode, message: string): never => {
  throw new RuleViolation(code, message);
};
