// The player profile: asked once, on the first visit, a name the server keeps unique (look-alikes
// refused) and a secret key this browser keeps. "Not now" plays as a guest, whose games count for no
// ranking.

import { _ } from "./i18n.js";
import { api, ApiError } from "./net.js";
import { $, $input, el } from "./dom.js";
import { renameAuto } from "./setup-model.js";
import { now, store, withForm, withPresentation } from "./state.js";
import { playerName, profile, saved } from "./saved.js";
import { showError, showMessage } from "./speech.js";
import { renderSetup } from "./setup.js";
import { showView } from "./routes.js";

/** A translated message with the name in bold, wherever the language puts {name}. @param {string} text @param {string} name */
function withName(text, name) {
  const [before, after = ""] = text.split("{name}");
  return el("span", {}, before, el("strong", { class: "profile-name", text: name }), after);
}

export function renderProfile() {
  const me = profile();
  const asking = now().presentation.renaming || (!me && !saved.get("profileLater", false));
  $("#profile-form").hidden = !asking;
  $("#profile-show").hidden = asking;
  $("#profile-title").textContent = me ? _("Rename yourself") : _("Choose your player name");
  $("#profile-cancel").textContent = me ? _("Cancel") : _("Not now");
  const show = me
    ? [withName(_("Playing as {name}"), me.name), el("button", { type: "button", class: "small", id: "profile-rename", text: _("Rename"), onclick: openProfileForm })]
    : [el("span", { text: _("Playing as a guest: your games count for no ranking.") }), el("button", { type: "button", class: "small", id: "profile-create", text: _("Choose a name"), onclick: openProfileForm })];
  $("#profile-show").replaceChildren(...show);
  const chip = $("#profile-chip");
  chip.hidden = !me;
  chip.textContent = me ? me.name : "";
  chip.setAttribute("aria-label", me ? _("Your player name: {name}. Rename", { name: me.name }) : "");
  $("#join-name-field").hidden = Boolean(me);
  $("#join-as").hidden = !me;
  if (me) $("#join-as").replaceChildren(withName(_("You join as {name}."), me.name));
}

/** @param {boolean} renaming */
function setRenaming(renaming) {
  store.update((state) => withPresentation(state, { renaming }));
}

/** @type {string | null} the page a name was asked from (the daily challenge, the trainer): shown again once answered */
let askedFrom = null;

export function openProfileForm() {
  setRenaming(true);
  askedFrom = null;
  if (now().presentation.view !== "setup") {
    askedFrom = location.hash;
    location.hash = "#/";
    showView("setup");
  }
  renderProfile();
  $("#profile-error").hidden = true;
  const input = $input("#profile-input");
  input.value = profile()?.name ?? (saved.get("name", "") || "");
  input.focus();
  input.select();
}

export function closeProfileForm() {
  if (!profile()) saved.set("profileLater", true);
  setRenaming(false);
  renderProfile();
  backToTheAsker();
}

// The player who was asked a name on the way to a page (the daily challenge) goes on to that page.
function backToTheAsker() {
  const back = askedFrom;
  askedFrom = null;
  if (back && /^#?\/?$/.test(location.hash)) location.hash = back; // not if the player went elsewhere meanwhile
}

// The seats the page names show the new name; the setup shows the profile's seat.
function profileChanged() {
  setRenaming(false);
  store.update((state) => withForm(state, renameAuto(state.form, playerName())));
  renderProfile();
  renderSetup();
}

/** @param {Event} event */
export async function saveProfile(event) {
  event.preventDefault();
  const name = $input("#profile-input").value.trim();
  const me = profile();
  $("#profile-error").hidden = true;
  if (!name) {
    showMessage("#profile-error", _("Type a name first."));
    return;
  }
  try {
    if (me) {
      const renamed = await api("/api/profiles/me", { method: "PATCH", body: { name }, token: me.key });
      saved.set("profile", { ...me, name: renamed.name });
    } else {
      const made = await api("/api/profiles", { method: "POST", body: { name } });
      saved.set("profile", { id: made.profile.id, name: made.profile.name, key: made.key });
    }
    profileChanged();
    backToTheAsker();
  } catch (error) {
    profileRefused(error);
    showError("#profile-error", error); // a name taken (or a look-alike of one): the server says which
    $input("#profile-input").select();
  }
}

// The server no longer knows this browser's profile (its database was reset): forget it, ask again.
/** @param {unknown} error */
export function profileRefused(error) {
  if (!(error instanceof ApiError) || error.code !== "no-profile") return;
  saved.set("profile", null);
  saved.set("profileLater", false);
  profileChanged();
}

// At the start: is the profile still known, under which name (renamed in another tab)?
export async function checkProfile() {
  const me = profile();
  if (!me) return;
  try {
    const known = await api("/api/profiles/me", { token: me.key });
    if (known.name !== me.name) {
      saved.set("profile", { ...me, name: known.name });
      profileChanged();
    }
  } catch (error) {
    profileRefused(error); // offline: the profile is kept as it is
  }
}
