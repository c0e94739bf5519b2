import { getMetadataStorage, ValidationTypes, type ValidationArguments, type ValidationError } from 'class-validator';

/**
 * One invalid part of a request, as an entry of a problem's `errors` (RFC 9457 §3): a body field by
 * its JSON Pointer (RFC 6901, e.g. `/cards/2`; `""` is the whole body), or a parameter (query, path,
 * or a header) by its name as the OpenAPI document spells it (`limit`, `seat`). Exactly one of
 * `pointer` and `parameter`.
 */
export type FieldError = { pointer: string; detail: string } | { parameter: string; detail: string };

/** Where a validated value came from: the JSON body, or a parameter (query, path, header). */
export type InputLocation = 'body' | 'parameter';

/** The JSON Pointer of a path of keys and indices (`~` and `/` escaped as RFC 6901 asks). */
export function pointerOf(path: readonly (string | number)[]): string {
  return path.map((key) => `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * One entry per invalid field of class-validator's error tree: nested objects and arrays through
 * `children`, unknown properties (forbidNonWhitelisted) at their own key, and a constraint checked on
 * each item of an array (`{ each: true }`) at the items that fail it (`/cards/2`), which
 * class-validator itself reports only at the array.
 */
export function validationFieldErrors(errors: readonly ValidationError[], location: InputLocation): FieldError[] {
  const out: FieldError[] = [];
  const at = (path: string[], detail: string): FieldError =>
    location === 'body' ? { pointer: pointerOf(path), detail } : { parameter: path.join('.'), detail };
  const walk = (list: readonly ValidationError[], parent: string[]): void => {
    for (const error of list) {
      const path = [...parent, error.property];
      const constraints = { ...error.constraints };
      const items = failingItems(error, constraints);
      const own = Object.values(constraints);
      if (own.length > 0) out.push(at(path, own.join('; ')));
      for (const [index, messages] of items) out.push(at([...path, String(index)], messages.join('; ')));
      if (error.children?.length) walk(error.children, path);
    }
  };
  walk(errors, []);
  return out;
}

/**
 * The items of an array that fail its `{ each: true }` constraints, each with those constraints'
 * messages; the constraints placed on items are taken out of `constraints` (what is left concerns the
 * array itself, e.g. its length). Needs the error's `target` (the instance validated).
 */
function failingItems(error: ValidationError, constraints: Record<string, string>): Map<number, string[]> {
  const items = new Map<number, string[]>();
  const { target, value, property } = error;
  if (!target || !Array.isArray(value) || Object.keys(constraints).length === 0) return items;
  const storage = getMetadataStorage();
  for (const meta of storage.getTargetValidationMetadatas(target.constructor, '', true, false)) {
    if (!meta.each || meta.propertyName !== property || meta.type !== ValidationTypes.CUSTOM_VALIDATION) continue;
    for (const constraint of storage.getTargetValidatorConstraints(meta.constraintCls)) {
      const message = constraints[constraint.name];
      if (message === undefined) continue;
      const args: ValidationArguments = { value, constraints: meta.constraints, targetName: target.constructor.name, object: target, property };
      let found = false;
      value.forEach((item: unknown, index: number) => {
        if (constraint.instance.validate(item, args) === false) {
          items.set(index, [...(items.get(index) ?? []), message]);
          found = true;
        }
      });
      if (found) delete constraints[constraint.name];
    }
  }
  return new Map([...items].sort(([a], [b]) => a - b));
}

/** The problem's `detail` for class-validator errors: every message, with the dotted path of nested ones. */
export function describeValidationErrors(errors: readonly ValidationError[], path = ''): string {
  return errors
    .flatMap((e) => {
      const at = path ? `${path}.${e.property}` : e.property;
      const own = Object.values(e.constraints ?? {}).map((m) => (m.startsWith(e.property) ? `${path ? `${path}.` : ''}${m}` : `${at}: ${m}`));
      return [...own, ...(e.children?.length ? [describeValidationErrors(e.children, at)] : [])];
    })
    .join('; ');
}

/**
 * The field a VALIDATION_FAILED refusal of the rules (libs/rules) names, read from its message: the
 * rules know commands, not HTTP bodies, so the few messages about something a client sends are mapped
 * here to where it sends it. Messages about what the service itself supplies (match id, first dealer,
 * deck) name no field of the request.
 */
const RULE_FIELDS: [RegExp, (m: RegExpExecArray) => { pointer: string } | { parameter: string }][] = [
  [/^option (\S+) must be/, (m) => ({ pointer: pointerOf(['options', m[1]]) })],
  [/^unknown option (.+)$/, (m) => ({ pointer: pointerOf(['options', m[1]]) })],
  [/^options must be an object/, () => ({ pointer: '/options' })],
  [/^a fourth round exists only/, () => ({ pointer: '/options/fourthRound' })],
  [/^players must be/, () => ({ pointer: '/players' })],
  [/^contract must be/, () => ({ pointer: '/contract' })],
  [/^name the trump suit|^a trump suit is named only/, () => ({ pointer: '/trump' })],
  [/^lay away/, () => ({ pointer: '/cards' })],
  [/^a card is/, () => ({ pointer: '/card' })],
  [/^a cut is/, () => ({ pointer: '/cut' })],
  [/^name must be/, () => ({ pointer: '/name' })],
  [/^seat must be/, () => ({ parameter: 'seat' })],
];

export function ruleFieldErrors(message: string): FieldError[] {
  for (const [pattern, field] of RULE_FIELDS) {
    const m = pattern.exec(message);
    if (m) return [{ ...field(m), detail: message }];
  }
  return [];
}
