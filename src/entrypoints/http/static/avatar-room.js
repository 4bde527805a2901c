// avatar-room.js: join an avatar_service conversation from any page. An ES module, no build step.
//
//   import { joinRoom } from "https://your-service/static/avatar-room.js";
//   const room = await joinRoom(conversation.room_url, conversation.room_token, {
//     video: document.querySelector("video"), audio: document.querySelector("audio"),
//     onTranscript: (line) => ..., onState: (state, info) => ..., onError: (error) => ...,
//   });
//   room.sendText("Hello"); room.talk(true); room.talk(false); room.mute(true); room.leave();
//
// or, with no code at all: <avatar-room room-url="..." token="..."></avatar-room>
//
// The room token is the only credential: the page talks to /rooms/{id}/... with it (join, offer, messages,
// leave, state). Media goes by WebRTC in one signaling exchange (ICE gathered before the offer is sent).

const ENDED = new Set(["ended", "failed"]);

function roomBase(roomUrl) {
  const url = new URL(roomUrl, location.href);
  url.search = ""; url.hash = "";
  return url.href.replace(/\/+$/, "");
}

function iceGathered(pc, timeoutMs = 3000) {
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const check = () => { if (pc.iceGatheringState === "complete") resolve(); };
    pc.addEventListener("icegatheringstatechange", check);
    setTimeout(resolve, timeoutMs);  // an interface with no STUN answer: go with what was found
  });
}

export class Room {
  constructor(roomUrl, token, options = {}) {
    this.base = roomUrl ? roomBase(roomUrl) : location.href.split("?")[0].replace(/\/+$/, "");
    this.token = token;
    this.options = options;
    this.state = "new";
    this.pushToTalk = false;
    this.interruption = true;
    this.conversation = null;
    this.pc = null; this.channel = null; this.microphone = null;
    this.muted = false;
    this._ended = null;
    // A closed tab ends the conversation within seconds (a reload, which joins again at once, does not).
    this._onPageHide = () => {
      if (!this._ended && navigator.sendBeacon) {
        navigator.sendBeacon(`${this.base}/leave?closing=true&token=${encodeURIComponent(this.token)}`);
      }
    };
    window.addEventListener("pagehide", this._onPageHide);
  }

  // --- what the page is told ------------------------------------------------------------------------------
  _set(state, info = {}) {
    this.state = state;
    if (this.options.onState) this.options.onState(state, {pushToTalk: this.pushToTalk, ...info});
  }
  _line(line) { if (this.options.onTranscript) this.options.onTranscript(line); }
  _error(error) {
    if (this.options.onError) this.options.onError(error instanceof Error ? error : new Error(String(error)));
  }

  async _call(path, {method = "POST", body = null} = {}) {
    const r = await fetch(`${this.base}/${path}?token=${encodeURIComponent(this.token)}`, {
      method, headers: body ? {"Content-Type": "application/json"} : {}, body: body ? JSON.stringify(body) : null});
    let data = null;
    try { data = await r.json(); } catch (_) { /* an empty or non-JSON answer */ }
    if (!r.ok) {
      const error = new Error(data && data.error ? data.error.message : r.statusText);
      error.status = r.status; error.code = data && data.error ? data.error.code : undefined;
      throw error;
    }
    return data;
  }

  // --- joining ---------------------------------------------------------------------------------------------
  async join() {
    this._set("joining");
    this.conversation = await this._call("join");
    if (ENDED.has(this.conversation.status)) { this._over(this.conversation); return this; }
    try {  // what was said before this page joined (the greeting, or the lines before a reload)
      const state = await this._call("state", {method: "GET"});
      for (const item of state.transcript || []) {
        if (item.role === "user" || item.role === "assistant") {
          this._line({role: item.role, content: item.content, interrupted: !!item.interrupted, metrics: item.metrics || null});
        }
      }
    } catch (e) { this._error(e); }
    if (!window.RTCPeerConnection) { this._set("text-only", {message: "This browser has no WebRTC: text only."}); return this; }
    this._set("connecting");
    try { await this._connect(); }
    catch (e) {
      this._set("text-only", {message: `Voice and video unavailable (${e.message}); text still works.`});
      this._error(e);
    }
    return this;
  }

  async _connect() {
    const pc = this.pc = new RTCPeerConnection();
    if (this.options.microphone !== false) {
      try {
        this.microphone = await navigator.mediaDevices.getUserMedia({audio: {
          echoCancellation: true, noiseSuppression: true, autoGainControl: true}});
      } catch (e) {
        this._error(new Error(`No microphone (${e.message}): you can still listen and type.`));
      }
    }
    if (this.microphone) this.microphone.getTracks().forEach((t) => pc.addTrack(t, this.microphone));
    else pc.addTransceiver("audio", {direction: "recvonly"});
    pc.addTransceiver("video", {direction: "recvonly"});
    const channel = this.channel = pc.createDataChannel("control");
    channel.onmessage = (m) => { try { this._onEvent(JSON.parse(m.data)); } catch (e) { this._error(e); } };
    pc.ontrack = (ev) => this._attach(ev);
    pc.onconnectionstatechange = () => this._onConnection(pc.connectionState);
    await pc.setLocalDescription(await pc.createOffer());
    await iceGathered(pc);
    const answer = await this._call("offer", {body: {sdp: pc.localDescription.sdp, type: pc.localDescription.type}});
    await pc.setRemoteDescription(answer);
  }

  _attach(ev) {
    const stream = ev.streams[0] || new MediaStream([ev.track]);
    const target = ev.track.kind === "video" ? this.options.video : this.options.audio;
    if (!target) {
      if (ev.track.kind === "audio") {  // no element given: play the voice anyway
        this._voice = new Audio(); this._voice.srcObject = stream; this._play(this._voice);
      }
      return;
    }
    target.srcObject = stream;
    if (ev.track.kind === "video") target.muted = true;
    this._play(target);
  }

  _play(element) {
    const started = element.play();
    if (started && started.catch) {
      started.catch((e) => {
        if (e.name === "NotAllowedError") {  // the browser wants a click before sound
          this._blocked = element;
          this._set("blocked", {message: "Click to start the sound."});
        }
      });
    }
  }

  /** After a click (autoplay was blocked): start the sound. */
  async resume() {
    const element = this._blocked; this._blocked = null;
    if (element) await element.play();
    if (this.state === "blocked") this._set(this.pc && this.pc.connectionState === "connected" ? "connected" : "connecting");
  }

  _onConnection(state) {
    if (this._ended) return;
    if (state === "connected") {
      if (this.state !== "blocked") this._set("connected");
    } else if (state === "failed" || state === "closed" || state === "disconnected") {
      // The server tells the page why it ends; when the connection just goes, ask.
      this._refresh().catch(() => this._set("disconnected", {message: "The connection was lost; text still works."}));
    }
  }

  async _refresh() {
    const conversation = await this._call("state", {method: "GET"});
    if (ENDED.has(conversation.status)) this._over(conversation);
    else {
      this._set("disconnected", {message: "The connection was lost; text still works."});
      // The server may not know yet (a room worker that died is noticed within its heartbeat lease): ask again.
      clearTimeout(this._recheck);
      this._recheck = setTimeout(() => {
        if (!this._ended && this.state === "disconnected") this._refresh().catch(() => {});
      }, 2000);
    }
  }

  _onEvent(event) {
    if (this.options.onEvent) this.options.onEvent(event);
    if (event.type === "hello") {
      this.pushToTalk = !!event.push_to_talk; this.interruption = event.interruption !== false;
      if (this.state === "connected") this._set("connected");
    } else if (event.type === "transcript") {
      this._line({role: event.role, content: event.content, interrupted: !!event.interrupted,
                  metrics: event.metrics || null});
    } else if (event.type === "interrupted") {
      this._line({role: "note", content: "(interrupted)"});
    } else if (event.type === "ended") {
      this._over({status: event.status, end_reason: event.reason}, event.message);
    } else if (event.type === "error") {
      this._error(new Error(event.message));
    }
  }

  _over(conversation, message) {
    if (this._ended) return;
    this._ended = conversation;
    const reasons = {
      hung_up: "The conversation was ended by the service.", left: "You left the conversation.",
      idle: "The conversation ended after a long silence.", max_duration: "The conversation reached its time limit.",
      join_timeout: "Nobody joined the conversation in time.", media_failed: "The conversation's audio and video broke down.",
      host_lost: "The server hosting the conversation stopped.",
      at_capacity: "Every server that hosts conversations was full; try again shortly.",
    };
    const text = message || reasons[conversation.end_reason] ||
      (conversation.status === "failed" ? "The conversation failed." : "The conversation has ended.");
    this._stopMedia();
    this._set(conversation.status === "failed" ? "failed" : "ended", {reason: conversation.end_reason || null, message: text});
  }

  _stopMedia() {
    window.removeEventListener("pagehide", this._onPageHide);
    if (this.microphone) this.microphone.getTracks().forEach((t) => t.stop());
    if (this.pc) { try { this.pc.close(); } catch (_) { /* closed already */ } }
  }

  // --- what the page can do ----------------------------------------------------------------------------------
  get connected() { return !!(this.channel && this.channel.readyState === "open"); }
  get ended() { return !!this._ended; }

  /** A typed message. Spoken rooms interrupt the reply being spoken and speak the answer; returns the result. */
  async sendText(text) {
    text = String(text || "").trim();
    if (!text || this._ended) return null;
    const viaChannel = this.connected;  // the room then sends both lines on the channel, in the order heard
    if (!viaChannel) this._line({role: "user", content: text, interrupted: false, metrics: null});
    try {
      const result = await this._call("messages", {body: {content: text}});
      if (!viaChannel) this._line({role: "assistant", content: result.reply.content,
                                   interrupted: !!result.reply.interrupted, metrics: result.reply.metrics || null});
      return result;
    } catch (e) {
      if (e.status === 409) { await this._refresh().catch(() => {}); }
      this._error(e);
      return null;
    }
  }

  /** Push to talk: true while the button is held. */
  talk(pressed) {
    if (this.connected) this.channel.send(JSON.stringify({type: "talk", state: pressed ? "start" : "stop"}));
  }

  mute(muted = true) {
    this.muted = !!muted;
    if (this.microphone) this.microphone.getAudioTracks().forEach((t) => { t.enabled = !this.muted; });
  }

  /** Leaves: the conversation ends (for everyone), and the media stops. */
  async leave() {
    if (this._ended) return this._ended;
    let conversation = {status: "ended", end_reason: "left"};
    try { conversation = await this._call("leave"); } catch (e) { this._error(e); }
    this._over(conversation, "You left the conversation.");
    return conversation;
  }
}

/** Joins a conversation's room: `roomUrl` and `token` are the conversation's room_url and room_token. */
export async function joinRoom(roomUrl, token, options = {}) {
  const room = new Room(roomUrl, token, options);
  await room.join();
  return room;
}

// --- <avatar-room room-url="..." token="..."> ----------------------------------------------------------------

const STYLE = `
:host { display: block; height: 100%; min-height: 420px; font: 15px system-ui, sans-serif; color: #111; }
.room { box-sizing: border-box; height: 100%; display: grid; gap: 12px; padding: 12px;
        grid-template-columns: minmax(0, 3fr) minmax(280px, 2fr); grid-template-rows: auto minmax(0, 1fr); }
.status { grid-column: 1 / -1; margin: 0; color: #555; font-size: 0.95em; }
.status[data-state="ended"], .status[data-state="failed"] { color: #a10; font-weight: 600; }
.stage { position: relative; min-height: 0; display: flex; flex-direction: column; gap: 8px; }
video { width: 100%; flex: 1 1 auto; min-height: 0; object-fit: contain; background: #223; border-radius: 10px; }
.controls { display: flex; gap: 8px; flex-wrap: wrap; }
button { font: inherit; padding: 0.45em 0.9em; border-radius: 8px; border: 1px solid #bbb; background: #fff; cursor: pointer; }
button:disabled { opacity: 0.5; cursor: default; }
button.talk { display: none; } button.talk.shown { display: inline-block; } button.talk.held { background: #0a4; color: #fff; }
.side { min-height: 0; display: flex; flex-direction: column; gap: 8px; }
.log { flex: 1 1 auto; min-height: 0; overflow-y: auto; border: 1px solid #ddd; border-radius: 10px; padding: 10px; }
.log p { margin: 0 0 8px; } .user { text-align: right; color: #075; } .assistant { color: #134; }
.note { color: #777; font-size: 0.9em; } .interrupted::after { content: " …"; color: #999; }
form { display: flex; gap: 8px; } input { flex: 1; min-width: 0; font: inherit; padding: 0.45em; border-radius: 8px; border: 1px solid #bbb; }
.start { position: absolute; inset: 0; display: none; align-items: center; justify-content: center; background: rgba(0,0,0,0.45);
         border-radius: 10px; } .start.shown { display: flex; } .start button { font-size: 1.1em; }
@media (max-width: 760px) {
  .room { grid-template-columns: 1fr; grid-template-rows: auto auto minmax(0, 1fr); }
  video { aspect-ratio: 4 / 3; flex: none; max-height: 42vh; }
}`;

const TEMPLATE = `
<div class="room">
  <p class="status" id="status" data-state="joining" role="status" aria-live="polite">Joining…</p>
  <div class="stage">
    <video id="avatar" autoplay playsinline muted></video>
    <audio id="voice" autoplay></audio>
    <div class="start" id="start"><button type="button">Click to start the sound</button></div>
    <div class="controls">
      <button class="talk" id="talk" type="button">Hold to talk</button>
      <button id="mute" type="button" disabled>Mute microphone</button>
      <button id="leave" type="button" disabled>Leave</button>
    </div>
  </div>
  <div class="side">
    <div class="log" id="log" aria-live="polite"></div>
    <form id="form"><input id="text" autocomplete="off" placeholder="Type a message" disabled aria-label="Message"><button id="send" disabled>Send</button></form>
  </div>
</div>`;

export class AvatarRoomElement extends HTMLElement {
  static get observedAttributes() { return ["room-url", "token"]; }

  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({mode: "open"});
    root.innerHTML = `<style>${STYLE}</style>${TEMPLATE}`;
    const $ = (id) => root.getElementById(id);
    this.$ = $;
    $("form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = $("text").value.trim(); if (!text || !this.room) return;
      $("text").value = ""; this.room.sendText(text);
    });
    const talk = $("talk");
    const press = (on) => { if (this.room) this.room.talk(on); talk.classList.toggle("held", on); };
    talk.addEventListener("pointerdown", () => press(true));
    talk.addEventListener("pointerup", () => press(false));
    talk.addEventListener("pointerleave", () => { if (talk.classList.contains("held")) press(false); });
    this.addEventListener("keydown", (ev) => {  // the space bar as a talk button, outside the text box
      if (ev.code === "Space" && this.room && this.room.pushToTalk && ev.composedPath()[0] !== $("text") && !ev.repeat) { ev.preventDefault(); press(true); }
    });
    this.addEventListener("keyup", (ev) => {
      if (ev.code === "Space" && talk.classList.contains("held")) { ev.preventDefault(); press(false); }
    });
    $("mute").addEventListener("click", () => {
      if (!this.room) return; this.room.mute(!this.room.muted);
      $("mute").textContent = this.room.muted ? "Unmute microphone" : "Mute microphone";
    });
    $("leave").addEventListener("click", () => { if (this.room) this.room.leave(); });
    $("start").querySelector("button").addEventListener("click", () => { if (this.room) this.room.resume(); });
    this._join();
  }

  _join() {
    const url = this.getAttribute("room-url"), token = this.getAttribute("token");
    if (!this.shadowRoot || !url || !token || this.room) return;
    const $ = this.$;
    this.room = new Room(url, token, {
      video: $("avatar"), audio: $("voice"),
      onTranscript: (line) => this._add(line),
      onState: (state, info) => this._state(state, info),
      onError: (error) => { this._add({role: "note", content: error.message}); this._emit("error", {error}); },
    });
    this.room.join().then(() => {
      if (!this.room.ended) { $("text").disabled = $("send").disabled = false; }
    }).catch((e) => this._state("failed", {message: e.message}));
  }

  attributeChangedCallback() { this._join(); }

  _add(line) {
    const log = this.$("log"), p = document.createElement("p");
    p.className = line.role + (line.interrupted ? " interrupted" : "");
    p.textContent = line.content;
    log.appendChild(p); log.scrollTop = log.scrollHeight;
    this._emit("transcript", line);
  }

  _state(state, info = {}) {
    const $ = this.$, status = $("status");
    const connected = state === "connected";
    const words = {
      joining: "Joining…", connecting: "Connecting audio and video…",
      connected: info.pushToTalk ? "Connected: hold “Hold to talk” (or the space bar) to talk, or type below."
                                 : "Connected: just speak, or type below.",
      blocked: "Click to start the sound.", "text-only": "Text only.", disconnected: "Disconnected.",
    };
    status.dataset.state = state;
    status.textContent = info.message || words[state] || state;
    $("start").classList.toggle("shown", state === "blocked");
    $("talk").classList.toggle("shown", !!info.pushToTalk && !ENDED.has(state));
    const over = ENDED.has(state);
    $("mute").disabled = over || !(this.room && this.room.microphone);
    $("leave").disabled = over || state === "joining";
    if (over) { $("text").disabled = $("send").disabled = $("talk").disabled = true; }
    else if (connected || state === "text-only" || state === "blocked") { $("text").disabled = $("send").disabled = false; }
    this._emit("statechange", {state, ...info});
  }

  _emit(name, detail) { this.dispatchEvent(new CustomEvent(name, {detail})); }
}

if (window.customElements && !customElements.get("avatar-room")) customElements.define("avatar-room", AvatarRoomElement);
