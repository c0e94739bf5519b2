// DOM helpers of the table's scripts. Text goes in as text nodes only (`append` of a string): a
// player's name never reaches innerHTML.

/**
 * An element's attributes for `el`: `on…` are listeners; false, null and undefined leave one out, true
 * sets it empty.
 * @typedef {{ [name: string]: string | boolean | null | undefined | ((event: Event) => unknown) }} Attrs
 */
/** What `el` appends: a node, or a string as a text node. @typedef {Node | string} Child */

/**
 * The element `sel` finds, which the page has: of `type` (HTMLElement if not given), else an error
 * naming the selector (a page the script does not match).
 * @template {Element} [T=HTMLElement]
 * @param {string} sel
 * @param {{ new (): T, prototype: T }} [type]
 * @returns {T}
 */
export function $(sel, type) {
  const node = find(sel, type);
  if (!node) throw new Error(`The page has no ${type?.name ?? 'element'} ${sel}.`);
  return node;
}

/**
 * The element `sel` finds, of `type` (HTMLElement if not given), or null: one the page draws only at
 * times.
 * @template {Element} [T=HTMLElement]
 * @param {string} sel
 * @param {{ new (): T, prototype: T }} [type]
 * @returns {T | null}
 */
export function find(sel, type) {
  const node = document.querySelector(sel);
  const want = /** @type {{ new (): Element }} */ (type ?? HTMLElement);
  return node instanceof want ? /** @type {T} */ (node) : null;
}

/**
 * An element with attributes and children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === 'function') {
      if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    } else if (k === 'class') node.className = v === true ? '' : v;
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) node.append(c);
  return node;
};

/**
 * A read-only field holding `value` and a button that copies it (the field is selected either way); `copied` is the button's word after.
 * @param {Attrs} fieldAttrs @param {string} value @param {string} buttonId @param {string} label @param {string} [copied]
 */
export function copyRow(fieldAttrs, value, buttonId, label, copied = 'Copied') {
  const field = el('input', { readonly: true, spellcheck: 'false', ...fieldAttrs, value });
  const button = el('button', { id: buttonId, type: 'button', onclick: () => {
    field.select();
    navigator.clipboard?.writeText(field.value).then(() => { button.textContent = copied; }, () => undefined);
  } }, label);
  return { field, button, row: el('div', { class: 'row' }, field, button) };
}
