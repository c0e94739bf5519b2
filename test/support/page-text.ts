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
