// Building and finding the page's elements: shared by every view.

/**
 * An element with attributes (a `text`, a `class`, `on…` listeners) and children; a null, undefined
 * or false attribute is left out.
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Node | string | null | undefined)} children
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/**
 * A table that may be wider than the screen, in a box that scrolls sideways: the box takes the
 * focus, so a keyboard can scroll it too, and is a region named by `label`.
 * @param {HTMLElement} table
 * @param {string} label
 */
export function wide(table, label) {
  return el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": label }, table);
}

/**
 * One of the page's own elements (index.html has it, or a view drew it).
 * @param {string} selector
 * @param {ParentNode} [root]
 */
export const $ = (selector, root = document) => /** @type {HTMLElement} */ (root.querySelector(selector));

/** An element that may not be there (a button of a card not drawn yet). @param {string} selector */
export const $maybe = (selector) => /** @type {HTMLElement | null} */ (document.querySelector(selector));

/** @param {string} selector */
export const $button = (selector) => /** @type {HTMLButtonElement} */ (document.querySelector(selector));

/** @param {string} selector */
export const $input = (selector) => /** @type {HTMLInputElement} */ (document.querySelector(selector));

/**
 * @param {string} selector
 * @param {ParentNode} [root]
 */
export const $$ = (selector, root = document) => /** @type {HTMLElement[]} */ ([...root.querySelectorAll(selector)]);
