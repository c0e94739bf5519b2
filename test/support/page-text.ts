// What a page shows a person, measured in the browser (the table's and the viewer's tests).
import type { Page } from 'playwright-core';

/** The words of these elements' text that are broken over two lines (a word drawn in more than one box). */
export function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (cells) => cells.flatMap((cell) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.textContent!.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index!);
        range.setEnd(node, word.index! + word[0].length);
        if (new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size > 1) broken.push(word[0]);
      }
    }
    return broken;
  }));
}

/**
 * WCAG contrast of each element's own text against the backgrounds it is drawn on (those of its
 * ancestors laid over one another, the page white at the bottom), for the table's tests (test/viewer.e2e-spec.ts measures its own way).
 */
export function lowContrast(page: Page): Promise<{ text: string; ratio: number }[]> {
  return page.$$eval('body *', (all) => {
    const rgba = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).map(Number).concat(1).slice(0, 4);
    const over = (top: number[], under: number[]): number[] => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
    const lum = (c: number[]): number => {
      const [r, g, b] = c.slice(0, 3).map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const background = (el: Element): number[] => {
      const chain: Element[] = [];
      for (let e: Element | null = el; e; e = e.parentElement) chain.unshift(e);
      return chain.reduce((under, e) => over(rgba(getComputedStyle(e).backgroundColor), under), [255, 255, 255, 1]);
    };
    return all
      .filter((e) => Array.from(e.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== ''))
      .filter((e) => (e as HTMLElement).offsetParent !== null && getComputedStyle(e).backgroundImage === 'none' && getComputedStyle(e).visibility !== 'hidden')
      .map((e) => {
        const fg = over(rgba(getComputedStyle(e).color), background(e));
        const [hi, lo] = [lum(fg), lum(background(e))].sort((a, b) => b - a);
        return { text: `${e.tagName.toLowerCase()}#${e.id}.${e.className}: ${(e.textContent ?? '').trim().slice(0, 40)}`, ratio: (hi + 0.05) / (lo + 0.05) };
      })
      .filter((c) => c.ratio < 4.5);
  });
}
