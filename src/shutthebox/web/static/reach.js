// Whether the server answers, said plainly on every screen: offline, the page names what still
// works here (practice, the companion beside a real box) and what needs the server (ranked and
// online games, the daily challenge, the leaderboards).

import { $ } from "./dom.js";
import { reach } from "./offline.js";

/** The server answered (true) or could not be reached (false). @param {boolean} reachable */
export function setReach(reachable) {
  reach.server = reachable;
  const offline = !reachable || !navigator.onLine;
  $("#reach").hidden = !offline;
  document.body.dataset.reach = offline ? "offline" : "online";
}

/** Follow the browser's connection: back online, `retry` asks the server again. @param {() => Promise<boolean>} [retry] */
export function watchReach(retry) {
  window.addEventListener("offline", () => setReach(false));
  window.addEventListener("online", () => {
    if (retry) retry().then(setReach);
    else setReach(true);
  });
}
