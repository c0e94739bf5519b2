// DOM helpers of the table's scripts. Text goes in as text nodes only (`append` of a string): a
// player's name never reaches innerHTML.

export const $ = (sel) => document.querySelector(sel);

/** An element with attributes (`on…` are listeners; false, null and undefined leave one out) and children. */
export const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) node.append(c);
  return node;
};

/** A read-only field holding `value` and a button that copies it (the field is selected either way); `copied` is the button's word after. */
export function copyRow(fieldAttrs, value, buttonId, label, copied = 'Copied') {
  const field = el('input', { readonly: true, spellcheck: 'false', ...fieldAttrs, value });
  const button = el('button', { id: buttonId, type: 'button', onclick: () => {
    field.select();
    navigator.clipboard?.writeText(field.value).then(() => { button.textContent = copied; }, () => undefined);
  } }, label);
  return { field, button, row: el('div', { class: 'row' }, field, button) };
}
