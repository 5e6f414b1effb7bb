// The page's words. The code says them in English, `_("Roll the dice")`; each other language is a
// gettext catalog the server reads from its .po file and serves as JSON (/api/i18n/{lang}).
// A message the catalog lacks stays English. tools/catalogs.py (Babel) finds every _("…") and
// ngettext("…", "…", n) with literal words, template literals included.

const SAVED = "stb.lang";

let source = "en";
let known = [{ code: "en", name: "English" }];
let current = "en";
/** @type {Record<string, string | string[]>} */
let messages = {};
/** @type {(n: number) => number} */
let pluralIndex = englishPlural;

/** @param {number} n */
function englishPlural(n) {
  return n === 1 ? 0 : 1;
}

// A catalog's plural rule, gettext's C expression of n ("(n != 1)", "n%10==1 && n%100!=11 ? 0 : …"),
// as a function of n; read here, not by eval, which the page's Content-Security-Policy forbids.
// Numbers, n, parentheses, ! and the operators ?: || && == != < <= > >= + - * / %, by precedence.
const LEVELS = [["||"], ["&&"], ["==", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]];
/** @typedef {(n: number) => number} Rule */
/** @type {Record<string, (a: number, b: number) => number>} */
const OPERATORS = {
  "||": (a, b) => (a || b ? 1 : 0), "&&": (a, b) => (a && b ? 1 : 0),
  "==": (a, b) => (a === b ? 1 : 0), "!=": (a, b) => (a !== b ? 1 : 0),
  "<": (a, b) => (a < b ? 1 : 0), "<=": (a, b) => (a <= b ? 1 : 0),
  ">": (a, b) => (a > b ? 1 : 0), ">=": (a, b) => (a >= b ? 1 : 0),
  "+": (a, b) => a + b, "-": (a, b) => a - b, "*": (a, b) => a * b,
  "/": (a, b) => Math.trunc(a / b), "%": (a, b) => a % b,
};

/** @param {string} expression @returns {Rule} */
export function pluralRule(expression) {
  const tokens = expression.match(/\d+|n|&&|\|\||[=!<>]=|[-+*/%<>!?:()]/g) ?? [];
  if (tokens.join("") !== expression.replace(/\s+/g, "")) throw new SyntaxError(`not a plural rule: ${expression}`);
  let at = 0;
  const expect = (/** @type {string} */ token) => {
    if (tokens[at] !== token) throw new SyntaxError(`${token} expected in ${expression}`);
    at += 1;
  };
  /** @returns {Rule} */
  const ternary = () => {
    const test = binary(0);
    if (tokens[at] !== "?") return test;
    at += 1;
    const yes = ternary();
    expect(":");
    const no = ternary();
    return (/** @type {number} */ n) => (test(n) ? yes(n) : no(n));
  };
  /** @param {number} level @returns {Rule} */
  const binary = (level) => {
    if (level === LEVELS.length) return unary();
    let left = binary(level + 1);
    while (LEVELS[level].includes(tokens[at])) {
      const [operate, before, right] = [OPERATORS[tokens[at++]], left, binary(level + 1)];
      left = (/** @type {number} */ n) => operate(before(n), right(n));
    }
    return left;
  };
  /** @returns {Rule} */
  const unary = () => {
    const token = tokens[at++];
    if (token === "!") {
      const operand = unary();
      return (/** @type {number} */ n) => (operand(n) ? 0 : 1);
    }
    if (token === "(") {
      const inner = ternary();
      expect(")");
      return inner;
    }
    if (token === "n") return (/** @type {number} */ n) => n;
    if (/^\d+$/.test(token ?? "")) return () => Number(token);
    throw new SyntaxError(`unexpected ${token} in ${expression}`);
  };
  const rule = ternary();
  if (at !== tokens.length) throw new SyntaxError(`unexpected ${tokens[at]} in ${expression}`);
  return (/** @type {number} */ n) => Number(rule(n));
}

/** @param {string} path */
async function getJSON(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

// The languages there is a catalog for, each named in itself: [{code, name}], the source first.
export async function loadLanguages() {
  try {
    const data = await getJSON("/api/i18n");
    source = data.source;
    known = data.languages;
  } catch {
    /* offline before the list was ever cached: English only */
  }
  return known;
}

export function languages() {
  return known;
}

export function lang() {
  return current;
}

// A catalog code as an HTML lang attribute: pt_BR → pt-BR, en@pseudo → en-x-pseudo.
/** @param {string} code */
export function htmlLang(code) {
  return code.replace("_", "-").replace("@", "-x-");
}

/**
 * What the top bar shows of each language where its names take too much room (style.css): the
 * language's code in capitals (EN, ES), the button still named by the name. Where two catalogs share
 * a language (pt and pt_BR, en and en@pseudo), the one of a region or a variant keeps showing its name.
 * @param {string[]} codes
 * @returns {Map<string, string>}
 */
export function shortNames(codes) {
  const short = (/** @type {string} */ code) => code.split(/[_@]/)[0].toUpperCase();
  const counts = new Map();
  for (const code of codes) counts.set(short(code), (counts.get(short(code)) ?? 0) + 1);
  const plain = (/** @type {string} */ code) => counts.get(short(code)) === 1 || code === short(code).toLowerCase();
  return new Map(codes.filter(plain).map((code) => [code, short(code)]));
}

// The saved choice, else the first of the browser's languages there is a catalog for (the exact
// tag, else its base language), else the source.
export function detectLang() {
  const codes = known.map((language) => language.code);
  const saved = localStorage.getItem(SAVED);
  if (saved !== null && codes.includes(saved)) return saved;
  const find = (/** @type {string} */ tag) => codes.find((code) => code.toLowerCase() === tag);
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of wanted) {
    const exact = String(tag || "").replaceAll("-", "_").toLowerCase();
    const found = find(exact) || find(exact.split("_")[0]);
    if (found) return found;
  }
  return source;
}

/** @param {string} code */
export function saveLang(code) {
  localStorage.setItem(SAVED, code);
}

// Speak `code` from now on (its catalog fetched once); the source if that cannot be done.
/** @param {string} code @returns {Promise<string>} */
export async function setLang(code) {
  /** @type {{ messages: Record<string, string | string[]>, plural: string | null }} */
  let catalog = { messages: {}, plural: null };
  if (code !== source) {
    try {
      catalog = await getJSON(`/api/i18n/${encodeURIComponent(code)}`);
    } catch {
      code = source;
    }
  }
  current = code;
  messages = catalog.messages;
  try {
    pluralIndex = catalog.plural ? pluralRule(catalog.plural) : englishPlural;
  } catch {
    pluralIndex = englishPlural; // a rule this reader cannot read: the English forms' choice
  }
  document.documentElement.lang = htmlLang(current);
  return current;
}

/** @typedef {Record<string, unknown>} Values */

/** @param {string} text @param {Values} [values] */
function format(text, values = {}) {
  return text.replace(/\{(\w+)\}/g, (field, name) => (name in values ? String(values[name]) : field));
}

// A message in the language in use, its {fields} filled from `values`.
/** @param {string} message @param {Values} [values] */
export function _(message, values) {
  const text = messages[message];
  return format(typeof text === "string" && text ? text : message, values);
}

// The form of a message for `n` things; `{n}` is filled with `n`.
/** @param {string} singular @param {string} plural @param {number} n @param {Values} [values] */
export function ngettext(singular, plural, n, values = {}) {
  const forms = messages[singular];
  const form = Array.isArray(forms) ? forms[pluralIndex(n)] : null;
  return format(form || (n === 1 ? singular : plural), { n, ...values });
}

// Markup as a message: whitespace runs become one space, the ends are trimmed (as tools/catalogs.py).
/** @param {string} markup */
function normalize(markup) {
  return markup.replace(/\s+/g, " ").trim();
}

// Put every marked element in the language in use. The English of each is kept, the first time,
// in data-msgid (its inner HTML) and data-msgid-<attribute>, so it is found again at each switch.
/** @param {ParentNode} [root] */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    if (!node.hasAttribute("data-msgid")) node.setAttribute("data-msgid", normalize(node.innerHTML));
    const msgid = node.getAttribute("data-msgid") ?? "";
    const text = _(msgid);
    if (node.innerHTML !== text) node.innerHTML = text;
  }
  for (const node of root.querySelectorAll("[data-i18n-attrs]")) {
    for (const name of (node.getAttribute("data-i18n-attrs") ?? "").split(/\s+/).filter(Boolean)) {
      const kept = `data-msgid-${name}`;
      if (!node.hasAttribute(kept)) node.setAttribute(kept, node.getAttribute(name) ?? "");
      const message = node.getAttribute(kept);
      if (message) node.setAttribute(name, _(message));
    }
  }
}

// -- numbers and dates as the reader's language writes them -------------------------------------
/** The language in use as a BCP 47 tag for Intl (en@pseudo reads as English). */
function locale() {
  const tag = htmlLang(current);
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return "en";
  }
}

/**
 * A number with `digits` decimals (none by default), as the language writes it: 13.67, 13,67.
 * @param {number} value @param {number} [digits]
 */
export function number(value, digits = 0) {
  return new Intl.NumberFormat(locale(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/**
 * A share as a percentage with `digits` decimals, the sign where the language puts it: 99.2%, 99,2 %.
 * @param {number} share from 0 to 1 @param {number} [digits]
 */
export function percent(share, digits = 1) {
  return new Intl.NumberFormat(locale(), { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits }).format(share);
}

/**
 * A gain or a loss with its sign: +4, −3, 0.
 * @param {number} value @param {number} [digits]
 */
export function signed(value, digits = 0) {
  return new Intl.NumberFormat(locale(), { signDisplay: "exceptZero", minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/**
 * A day (YYYY-MM-DD) in words: "today, 1 December", "hoy, 1 de diciembre"; a day that is not today
 * or yesterday by its date alone ("30 November"), the year only when it is not this year's.
 * @param {string} day @param {string} [today] the server's today, YYYY-MM-DD
 */
export function dayInWords(day, today) {
  const date = new Date(`${day}T12:00:00Z`);
  const sameYear = !today || today.slice(0, 4) === day.slice(0, 4);
  const written = new Intl.DateTimeFormat(locale(), { day: "numeric", month: "long", ...(sameYear ? {} : { year: "numeric" }), timeZone: "UTC" }).format(date);
  if (!today) return written;
  const away = Math.round((Date.parse(`${day}T12:00:00Z`) - Date.parse(`${today}T12:00:00Z`)) / 86_400_000);
  if (away !== 0 && away !== -1) return written;
  const relative = new Intl.RelativeTimeFormat(locale(), { numeric: "auto" }).format(away, "day");
  return `${relative}, ${written}`;
}

/**
 * Names joined as the language joins a list: "Ana, Luis and Eva", "Ana, Luis y Eva".
 * @param {string[]} names
 */
export function list(names) {
  return new Intl.ListFormat(locale(), { style: "long", type: "conjunction" }).format(names);
}
