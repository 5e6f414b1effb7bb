// Building the page's elements: shared by the game (app.js) and the statistics (stats.js).

// An element with attributes (a `text`, a `class`, `on…` listeners) and children; a null, undefined
// or false attribute is left out.
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

// A table that may be wider than the screen, in a box that scrolls sideways: the box takes the
// focus, so a keyboard can scroll it too, and is a region named by `label`.
export function wide(table, label) {
  return el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": label }, table);
}
