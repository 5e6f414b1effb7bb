// One store for the page's state: a value replaced (never mutated) by pure update functions, with
// listeners told after each change. Which slices it holds is the app's business (state.js).

/**
 * @template S
 * @typedef {(state: S, previous: S) => void} Listener
 */

/**
 * @template S
 * @typedef {object} Store
 * @property {() => S} get the state now
 * @property {(change: (state: S) => S) => S} update replace the state by `change(state)`; listeners hear of it
 * @property {(listener: Listener<S>) => () => void} subscribe told after every change; returns the unsubscribe
 */

/**
 * A store starting at `initial`. `settle`, a pure function, keeps the state's own rules after every
 * change (what one slice implies for another).
 * @template S
 * @param {S} initial
 * @param {(state: S) => S} [settle]
 * @returns {Store<S>}
 */
export function createStore(initial, settle = (state) => state) {
  let state = initial;
  /** @type {Set<Listener<S>>} */
  const listeners = new Set();
  return {
    get: () => state,
    update(change) {
      const previous = state;
      state = settle(change(previous));
      if (state !== previous) for (const listener of [...listeners]) listener(state, previous);
      return state;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
