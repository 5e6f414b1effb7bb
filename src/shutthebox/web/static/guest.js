// A guest's own key and name (no profile): the key goes with every request as X-Guest-Key, so the
// server counts this player's games in play as theirs, not their address's; the name is their own
// ("Player 4821"), never one "Player" shared with every stranger.

/** @returns {string} */
export function guestKey() {
  let key = localStorage.getItem("stb.guest");
  if (!key) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    key = btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
    localStorage.setItem("stb.guest", key);
  }
  return key;
}

/** This guest's number, drawn once and kept (1000 to 9999). @returns {number} */
export function guestNumber() {
  let number = Number(localStorage.getItem("stb.guestNumber"));
  if (!(number >= 1000 && number <= 9999)) {
    number = 1000 + Math.floor(Math.random() * 9000);
    localStorage.setItem("stb.guestNumber", String(number));
  }
  return number;
}
