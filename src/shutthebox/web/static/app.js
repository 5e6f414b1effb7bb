// The page: renders what the server sends and sends what the player asks. No rule is decided here:
// the legal moves and the dice options come from the server, which rolls and checks every action.
// This module starts the page and wires its controls; each view is a module of its own (setup.js,
// game-view.js, result.js, rematch.js, review.js, hints.js, scores.js, profile.js…), the state is
// one store (state.js), and what is shown when is the room's timeline (room.js, timeline.js).

import { detectLang, loadLanguages, setLang, translatePage } from "./i18n.js";
import { $, $$, $button } from "./dom.js";
import { now, store, withPresentation } from "./state.js";
import { addBot, addSeat, chooseWho, joinRoom, loadCatalog, playSameDice, quickSolo, renderSetup, submitSetup } from "./setup.js";
import { startDemo } from "./demo.js";
import { checkProfile, closeProfileForm, openProfileForm, renderProfile, saveProfile } from "./profile.js";
import { gameInPlay, resumeCurrent, route, startAnyway, startNew, toggleMenu } from "./routes.js";
import { takeOver } from "./room.js";
import { chooseDice, clearSelection, onKey, roll, shut } from "./play.js";
import { askHint } from "./hints.js";
import { renderScores } from "./scores.js";
import { renderLanguages } from "./language.js";
import { switchPrivacy } from "./privacy.js";
import { practiceKey } from "./practice.js";
import { companionKey } from "./companion.js";
import { setReach, watchReach } from "./reach.js";

/** @param {string} selector @param {(event: Event) => void} handler @param {string} [type] */
function on(selector, handler, type = "click") {
  $(selector).addEventListener(type, handler);
}

function wireSetup() {
  for (const button of $$("#who button")) {
    button.addEventListener("click", () => chooseWho(/** @type {import("./state.js").Form["who"]} */ (button.dataset.who)));
  }
  for (const button of $$("[data-quick]")) button.addEventListener("click", () => startNew(() => quickSolo(Number(button.dataset.quick))));
  for (const button of $$("#board-tiles button")) {
    button.addEventListener("click", () => {
      store.update((state) => withPresentation(state, { boardTiles: Number(button.dataset.tiles) }));
      renderScores();
    });
  }
  on("#add-seat", addSeat);
  on("#add-bot", addBot);
  on("#offline-retry", () => loadCatalog());
  on("#demo-play", () => startDemo({ asked: true }));
  on("#menu-toggle", () => toggleMenu());
  on("#setup", submitSetup, "submit");
  on("#join", joinRoom, "submit");
  on("#profile-form", saveProfile, "submit");
  on("#profile-cancel", closeProfileForm);
  on("#profile-chip", openProfileForm);
  on("#start-anyway", startAnyway);
}

function wireGame() {
  on("#btn-roll", roll);
  on("#btn-one", () => chooseDice(1));
  on("#btn-two", () => chooseDice(2));
  on("#btn-shut", shut);
  on("#btn-clear", clearSelection);
  on("#btn-hint", askHint);
  on("#room-private", switchPrivacy, "change");
  $button("#btn-next").addEventListener("click", takeOver);
  on("#box", () => now().presentation.handover?.shown && takeOver()); // a tap on the board goes on
  window.addEventListener("beforeunload", (event) => {
    if (gameInPlay()) event.preventDefault(); // the game waits on the server, but leaving is asked first
  });
  document.addEventListener("keydown", onKey);
  document.addEventListener("keydown", practiceKey);
  document.addEventListener("keydown", companionKey);
}

async function main() {
  await loadLanguages();
  await setLang(detectLang());
  renderLanguages();
  translatePage();
  wireSetup();
  renderProfile();
  checkProfile();
  wireGame();
  window.addEventListener("hashchange", route);
  watchReach(loadCatalog);
  setReach(await loadCatalog()); // offline: the rules page still reads, and every Play button says why it cannot start
  renderSetup();
  route();
  startDemo({ asked: false }); // the first visit: the box shows how to play, once
  await resumeCurrent();
  playSameDice(); // a shared result's "Play the same dice"
  document.body.dataset.ready = "true";
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  }
}

main();
