// axe-core (Deque's accessibility rules) run in a page: the violations a person would meet first.
import type { Page } from 'playwright-core';

/** The rules of impact "serious" or "critical" that the page as shown now breaks, with the elements that break them. */
export async function seriousAxe(page: Page): Promise<{ id: string; nodes: string[] }[]> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
}
