// A clock run by hand for the timeline's tests: time moves only when `advance` says so.

/** @returns {import("../../src/shutthebox/web/static/timeline.js").Clock & { advance: (ms: number) => void, pending: () => number }} */
export function fakeClock() {
  let now = 0;
  let next = 1;
  /** @type {Map<number, { at: number, run: () => void }>} */
  const timers = new Map();
  return {
    now: () => now,
    setTimeout(run, ms) {
      const id = next++;
      timers.set(id, { at: now + Math.max(0, ms), run });
      return id;
    },
    clearTimeout(id) {
      timers.delete(/** @type {number} */ (id));
    },
    // Move time on by `ms`, running each timer due on the way, in the order they fall due.
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].run();
      }
      now = end;
    },
    pending: () => timers.size,
  };
}
