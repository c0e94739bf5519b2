// The examples of docs/notation.md are real: the whole match parses and writes back to exactly
// itself, and the in-progress views are what a spectator and seat 0 see of that match.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { visibleEvents } from '@bismarck/rules';
import { fromNotation, toNotation } from '../src';

const doc = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'notation.md'), 'utf8');
const blocks = [...doc.matchAll(/```text\n([^]*?)```/g)].map((m) => m[1]);

describe('docs/notation.md', () => {
  it('has the whole match and two views of it in progress', () => {
    expect(blocks).toHaveLength(3);
  });

  it('the whole match parses and writes back to exactly itself, and ends in its result', () => {
    const events = fromNotation(blocks[0]);
    expect(toNotation(events)).toBe(blocks[0]);
    expect(events.at(-1)?.type).toBe('MatchFinished');
  });

  it.each([
    ['a spectator', 1, 'spectator' as const],
    ['seat 0', 2, 0 as const],
  ])('the match in progress is what %s sees of it', (_who, block, viewer) => {
    const whole = fromNotation(blocks[0]);
    // The deals before the one in progress are scored: the same for everyone, as in the whole match.
    const before = blocks[0].slice(0, blocks[0].search(new RegExp(`^${blocks[block].split('\n')[0].split(':')[0]}:`, 'm')));
    const text = before + blocks[block];
    const events = fromNotation(text);
    expect(toNotation(events)).toBe(text);
    expect(events).toStrictEqual(visibleEvents(whole.slice(0, events.length), viewer));
  });
});
