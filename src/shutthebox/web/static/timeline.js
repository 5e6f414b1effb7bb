// What is shown when. The room's states are shown one after the other, in the order they came; a
// state may hold the next ones back: another player's dice land and their total is read (a hold),
// or a turn's end stays on screen with its banner (the dice land, then the banner shows, until its
// time is up or the next player takes over). The clock is injected, so tests run it by hand.

/**
 * @typedef {object} Clock
 * @property {() => number} now milliseconds, on any steady scale
 * @property {(run: () => void, ms: number) => unknown} setTimeout
 * @property {(handle: unknown) => void} clearTimeout
 */

/**
 * A turn's end held on screen: `landingMs` while the dice land, then `onShow`; then `heldMs` (null:
 * until `release`), then `onEnd`, and the states that waited go on.
 * @typedef {object} Banner
 * @property {number} landingMs
 * @property {number | null} heldMs
 * @property {() => void} onShow
 * @property {() => void} onEnd
 */

/**
 * @template T
 * @typedef {object} Timeline
 * @property {(item: T) => void} push a state: shown now if nothing holds it back, else once that is over
 * @property {(ms: number) => void} hold the next states wait at least `ms` from now
 * @property {(banner: Banner) => void} banner hold the next states until the banner is over
 * @property {() => void} release the banner ends now (the next player took over)
 * @property {(ms: number, run: () => void) => void} after run `run` in `ms`, holding nothing back
 * @property {() => void} clear forget every state waiting and every timer (another room)
 * @property {() => number} waiting how many states wait
 * @property {() => "open" | "holding" | "landing" | "banner"} phase what holds the states now
 */

/** The browser's clock (performance.now, the window's timers). */
export const browserClock = {
  now: () => performance.now(),
  setTimeout: (/** @type {() => void} */ run, /** @type {number} */ ms) => setTimeout(run, ms),
  clearTimeout: (/** @type {unknown} */ handle) => clearTimeout(/** @type {number} */ (handle)),
};

/**
 * A timeline that shows each state with `show` (which may call `hold` or `banner` for what follows).
 * @template T
 * @param {(item: T) => void} show
 * @param {Clock} [clock]
 * @returns {Timeline<T>}
 */
export function createTimeline(show, clock = browserClock) {
  /** @type {T[]} */
  const queue = [];
  let holdUntil = -Infinity;
  /** @type {unknown} */
  let holdTimer = null;
  /** @type {{ shown: boolean, timer: unknown, onEnd: () => void } | null} */
  let current = null;
  /** @type {Set<unknown>} */
  const moments = new Set();

  const open = () => current === null && clock.now() >= holdUntil;

  // Show what waits while nothing holds it; when only a hold does, come back when it is over.
  function pump() {
    while (queue.length && open()) show(/** @type {T} */ (queue.shift()));
    if (queue.length && current === null && holdTimer === null) {
      holdTimer = clock.setTimeout(() => {
        holdTimer = null;
        pump();
      }, Math.max(0, holdUntil - clock.now()));
    }
  }

  function release() {
    const ended = current;
    if (!ended) return;
    clock.clearTimeout(ended.timer);
    current = null;
    ended.onEnd();
    pump();
  }

  return {
    push(item) {
      queue.push(item);
      pump();
    },
    hold(ms) {
      holdUntil = Math.max(holdUntil, clock.now() + ms);
    },
    banner({ landingMs, heldMs, onShow, onEnd }) {
      if (current) clock.clearTimeout(current.timer);
      const banner = { shown: false, timer: /** @type {unknown} */ (null), onEnd };
      current = banner;
      banner.timer = clock.setTimeout(() => {
        banner.shown = true;
        onShow();
        if (heldMs !== null && current === banner) banner.timer = clock.setTimeout(release, heldMs);
      }, landingMs);
    },
    release,
    after(ms, run) {
      const handle = clock.setTimeout(() => {
        moments.delete(handle);
        run();
      }, ms);
      moments.add(handle);
    },
    clear() {
      queue.length = 0;
      holdUntil = -Infinity;
      for (const handle of [holdTimer, current?.timer, ...moments]) if (handle !== null) clock.clearTimeout(handle);
      holdTimer = null;
      current = null;
      moments.clear();
    },
    waiting: () => queue.length,
    phase() {
      if (current) return current.shown ? "banner" : "landing";
      return clock.now() < holdUntil ? "holding" : "open";
    },
  };
}
