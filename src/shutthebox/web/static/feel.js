// The game's feel: sounds made with the Web Audio API (no audio files), a mute switch this browser
// remembers, a buzz on phones, a short celebration when the box is shut, and the button that
// installs the page as an app where the browser offers it. Muted, the page makes no sound and no
// buzz; with "reduce motion" it neither buzzes nor animates its celebration.

import { _ } from "./i18n.js";

const MUTED = "stb.muted";
const CELEBRATED = "stb.celebrated"; // rooms whose shut box this tab celebrated: not again on a reload
const CONFETTI = 36;
const CELEBRATION_MS = 2600;

const $ = (/** @type {string} */ selector) => /** @type {HTMLElement | null} */ (document.querySelector(selector));

function motionless() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// -- the mute switch -------------------------------------------------------------------------
export function isMuted() {
  try {
    return JSON.parse(localStorage.getItem(MUTED) ?? "false") === true;
  } catch {
    return false;
  }
}

/** @param {boolean} muted */
export function setMuted(muted) {
  localStorage.setItem(MUTED, JSON.stringify(muted));
  if (muted && audio) audio.suspend().catch(() => {}); // a sound already under way stops too
  $("#mute")?.setAttribute("aria-pressed", String(muted));
}

/** @param {boolean} spoken */
function toggleMute(spoken) {
  setMuted(!isMuted());
  // The switch's own state is heard where it has the focus; from the key M it is said.
  const live = $("#feel-live");
  if (spoken && live) live.textContent = isMuted() ? _("Sounds off") : _("Sounds on");
}

// -- sounds ----------------------------------------------------------------------------------
/** @type {AudioContext | null} */
let audio = null;
/** @type {AudioBuffer | null} */
let noise = null;

// The page's audio context, made at the first sound (a browser starts one only after a click or a
// key); null when muted or where there is no Web Audio.
/** @returns {AudioContext | null} */
function context() {
  if (isMuted()) return null;
  /** @type {typeof AudioContext | undefined} */
  const Context = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
  if (!Context) return null;
  audio ??= new Context();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

// A fading note, its pitch gliding from `freq` to `to`.
/**
 * @param {AudioContext} ctx
 * @param {{ at?: number, freq: number, to?: number, length: number, type?: OscillatorType, volume?: number }} note
 */
function tone(ctx, { at = 0, freq, to = freq, length, type = "triangle", volume = 0.15 }) {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  if (to !== freq) osc.frequency.exponentialRampToValueAtTime(to, start + length);
  envelope(gain, start, length, volume);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

// A knock of filtered noise around `band` Hz: wood and dice.
/**
 * @param {AudioContext} ctx
 * @param {{ at?: number, band: number, length?: number, volume?: number }} knock
 */
function knock(ctx, { at = 0, band, length = 0.05, volume = 0.3 }) {
  if (!noise || noise.sampleRate !== ctx.sampleRate) {
    noise = ctx.createBuffer(1, Math.round(ctx.sampleRate * 0.2), ctx.sampleRate);
    const samples = noise.getChannelData(0);
    for (let i = 0; i < samples.length; i += 1) samples[i] = Math.random() * 2 - 1;
  }
  const start = ctx.currentTime + at;
  const source = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const gain = ctx.createGain();
  source.buffer = noise;
  filter.type = "bandpass";
  filter.frequency.value = band;
  filter.Q.value = 4;
  envelope(gain, start, length, volume);
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(start);
  source.stop(start + length + 0.02);
}

/** @param {GainNode} gain @param {number} start @param {number} length @param {number} volume */
function envelope(gain, start, length, volume) {
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.004);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
}

/** @param {(ctx: AudioContext) => void} draw */
function play(draw) {
  const ctx = context();
  if (ctx) draw(ctx);
}

export const sound = {
  // The dice landing on the felt: each one knocks, then bounces once, softer.
  dice(count = 2) {
    play((ctx) => {
      for (let i = 0; i < count; i += 1) {
        knock(ctx, { at: i * 0.05, band: 2200 - i * 500, length: 0.06, volume: 0.35 });
        knock(ctx, { at: i * 0.05 + 0.09, band: 1900 - i * 400, length: 0.04, volume: 0.15 });
      }
    });
  },
  // A tile picked or put back: a short wooden tick.
  tile() {
    play((ctx) => {
      tone(ctx, { freq: 900, to: 650, length: 0.06, volume: 0.1 });
      knock(ctx, { band: 1400, length: 0.03, volume: 0.15 });
    });
  },
  // Tiles shut: one low clack for each, one after the other.
  tiles(count = 1) {
    play((ctx) => {
      for (let i = 0; i < count; i += 1) {
        tone(ctx, { at: i * 0.08, freq: 240, to: 140, length: 0.12, type: "sine", volume: 0.25 });
        knock(ctx, { at: i * 0.08, band: 700, length: 0.05, volume: 0.25 });
      }
    });
  },
  // The box shut: a rising fanfare.
  shut() {
    play((ctx) => {
      [523.25, 659.25, 783.99].forEach((freq, i) => tone(ctx, { at: i * 0.11, freq, length: 0.16 }));
      tone(ctx, { at: 0.33, freq: 1046.5, length: 0.6, volume: 0.18 });
    });
  },
};

// -- buzz ----------------------------------------------------------------------------------------
// A buzz where the device has one (phones), unless the page is muted or motion is reduced.
/** @param {number | number[]} pattern */
export function vibrate(pattern) {
  if (isMuted() || motionless() || typeof navigator.vibrate !== "function") return false;
  try {
    return navigator.vibrate(pattern);
  } catch {
    return false;
  }
}

// The dice have stopped: they are heard and felt.
/** @param {number[]} faces */
export function diceLanded(faces) {
  sound.dice(faces.length);
  vibrate(30);
}

// -- the celebration -----------------------------------------------------------------------------
// "The box is shut!" on the box itself for a moment, the box brought into view; with motion, confetti
// falls inside it and the shut tiles glow. The words are for the eyes: the page's live region already
// says the box is shut.
export function celebrate() {
  document.querySelector(".celebration")?.remove();
  const box = $("#box");
  const still = motionless();
  const layer = document.createElement("div");
  layer.className = still ? "celebration still" : "celebration";
  layer.setAttribute("aria-hidden", "true");
  const banner = document.createElement("p");
  banner.className = "celebration-banner";
  banner.textContent = _("The box is shut!");
  layer.append(banner);
  if (!still) {
    for (let i = 0; i < CONFETTI; i += 1) {
      const piece = document.createElement("span");
      const spread = (i * 0.618034) % 1; // evenly spread, not chance
      piece.className = "confetti";
      piece.style.setProperty("--x", `${(spread * 100).toFixed(1)}%`);
      piece.style.setProperty("--hue", String(Math.round((i * 47) % 360)));
      piece.style.setProperty("--delay", `${((i % 6) * 0.07).toFixed(2)}s`);
      piece.style.setProperty("--time", `${(1.3 + spread * 0.8).toFixed(2)}s`);
      piece.style.setProperty("--drift", `${Math.round((spread - 0.5) * 160)}px`);
      piece.style.setProperty("--spin", `${(i % 2 ? 1 : -1) * (360 + i * 20)}deg`);
      layer.append(piece);
    }
  }
  if (box && !box.closest("[hidden]")) {
    box.append(layer);
    box.classList.add("shut-box");
    box.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
  } else {
    layer.classList.add("over-page");
    document.body.append(layer);
  }
  setTimeout(() => {
    layer.remove();
    box?.classList.remove("shut-box");
  }, CELEBRATION_MS);
}

// A box shut by one of this page's own seats: an opponent's shut box is no party here.
/** @param {import("./types.js").Room} room */
function boxShut(room) {
  return Boolean(room.match?.history.some((turn) => turn.score !== null && turn.open.length === 0 && room.you.includes(turn.player)));
}

// Once per finished room in this tab (the result card is drawn again on a language switch or a
// reload): a shut box is celebrated, heard and felt.
/** @param {import("./types.js").Room} room */
export function gameOver(room) {
  if (!boxShut(room)) return;
  let seen = [];
  try {
    seen = JSON.parse(sessionStorage.getItem(CELEBRATED) ?? "null") ?? [];
  } catch {
    /* nothing kept */
  }
  if (seen.includes(room.code)) return;
  sessionStorage.setItem(CELEBRATED, JSON.stringify([...seen, room.code].slice(-30)));
  celebrate();
  sound.shut();
  vibrate([60, 40, 60, 40, 160]);
}

// -- installing the page as an app -----------------------------------------------------------
/** @typedef {Event & { prompt: () => Promise<void>, userChoice?: Promise<unknown> }} InstallPrompt */
/** @type {InstallPrompt | null} */
let installPrompt = null;

/** @param {Event} event */
function offerInstall(event) {
  event.preventDefault(); // the page's own button offers it, not the browser's banner
  installPrompt = /** @type {InstallPrompt} */ (event);
  const button = $("#install");
  if (button) button.hidden = false;
}

async function install() {
  const prompt = installPrompt;
  installPrompt = null;
  const button = $("#install");
  if (button) button.hidden = true;
  if (!prompt) return;
  await prompt.prompt();
  await prompt.userChoice?.catch(() => null);
}

// -- start: the header's switches and the key M ----------------------------------------------
/** @param {KeyboardEvent} event */
function onKey(event) {
  if (event.key !== "m" && event.key !== "M") return;
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
  if (/** @type {HTMLElement} */ (event.target).closest?.("input, select, textarea, [contenteditable]")) return;
  toggleMute(true);
  event.preventDefault();
}

function start() {
  const mute = $("#mute");
  if (mute) {
    mute.setAttribute("aria-pressed", String(isMuted()));
    mute.addEventListener("click", () => toggleMute(false));
  }
  $("#install")?.addEventListener("click", install);
  window.addEventListener("beforeinstallprompt", offerInstall);
  window.addEventListener("appinstalled", () => {
    installPrompt = null;
    const button = $("#install");
    if (button) button.hidden = true;
  });
  document.addEventListener("keydown", onKey);
}

start();
