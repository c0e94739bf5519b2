// axe-core (Deque's accessibility rules) run in a page: the violations a person would meet first.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The rules of impact "serious" or "critical" that the page as shown now breaks, with the elements that break them. */
export async function seriousAxe(page: Page): Promise<{ id: string; nodes: string[] }[]> {
  // Evaluated, not added as a script tag: the pages' Content-Security-Policy (script-src 'self') refuses an inline script.
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
}
