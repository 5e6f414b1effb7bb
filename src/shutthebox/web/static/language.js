// The page's language: a button per language there is a catalog for, each named in itself; a switch
// redraws every screen in the new words, and the room's socket reconnects so the server's refusals
// come in them too.

import { htmlLang, lang, languages, saveLang, setLang, shortNames, translatePage } from "./i18n.js";
import { $, $$, el } from "./dom.js";
import { renameAuto } from "./setup-model.js";
import { now, store, withForm } from "./state.js";
import { playerName } from "./saved.js";
import { renderStats } from "./stats.js";
import { renderProfile } from "./profile.js";
import { renderSetup } from "./setup.js";
import { redrawDemo } from "./demo.js";
import { renderScores } from "./scores.js";
import { showDaily, showTrain } from "./routes.js";
import { reconnect } from "./room.js";
import { renderGame } from "./game-view.js";
import { finish } from "./result.js";
import { showReview, showVerify } from "./review.js";

export function renderLanguages() {
  const shorts = shortNames(languages().map(({ code }) => code));
  const buttons = languages().map(({ code, name }) =>
    el("button", { type: "button", class: "lang", "data-lang": code, "data-short": shorts.get(code), lang: htmlLang(code), "aria-pressed": String(code === lang()), onclick: () => switchLang(code) },
      el("span", { class: "lang-name", text: name })),
  );
  $("#langs").replaceChildren(...buttons);
}

/** @param {string} code */
async function switchLang(code) {
  if (await setLang(code) === code) saveLang(code);
  for (const button of $$(".lang")) button.setAttribute("aria-pressed", String(button.dataset.lang === lang()));
  translatePage();
  store.update((state) => withForm(state, renameAuto(state.form, playerName())));
  renderProfile();
  renderSetup();
  redrawDemo();
  const { presentation, server } = now();
  if (presentation.view === "scores") renderScores();
  if (presentation.view === "stats") renderStats($("#view-stats"));
  if (presentation.view === "daily") showDaily();
  if (presentation.view === "train") showTrain();
  reconnect(); // the server says its refusals in the language the socket connected with
  const room = server.room;
  if (room) {
    renderGame();
    if (room.status === "over" && !$("#result").hidden) finish(room).then(() => ($("#review").hidden ? null : showReview()));
    if (!$("#verify").hidden) showVerify();
  }
}
