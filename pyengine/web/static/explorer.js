// The pages' script: the table builder, the answers, the disagreements. The table is a scenario as JSON data; it
// travels between pages in the URL (#t=base64url of its JSON), so every link holds the whole state. All text
// from a table or an answer reaches the page as text nodes, never as markup.
"use strict";

// A game whose table needs a form of its own registers it here (from its package's form.js, loaded after this
// file): ExplorerForms[game] = (helpers, config, table, redraw) => [blocks].
const ExplorerForms = {};

const Explorer = (() => {
  const CONFIG = JSON.parse(document.getElementById("config").textContent);
  const GAMES = CONFIG.games;

  // -- small helpers ----------------------------------------------------------------------------------------
  // The accessible names of the form's controls that carry no visible label of their own, by class.
  const CONTROL_NAMES = {"inst-id": "instance id", "q-id": "question id", "q-ask": "what the question asks",
                         "q-expect": "expected verdict", "inst-active": "active or not", "inst-face": "face up"};

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    // Every control gets a name a screen reader can say: its title, its kind, its placeholder or its field.
    if (["input", "select", "textarea"].includes(tag) && attrs && !attrs["aria-label"]) {
      const name = attrs.title || CONTROL_NAMES[attrs.class] || attrs.placeholder || attrs["data-field"] ||
        attrs["data-reading"] || attrs["data-ally"] || (attrs.id && attrs.id.replace(/-/g, " "));
      if (name) node.setAttribute("aria-label", name);
    }
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function encodeTable(table) {
    const bytes = new TextEncoder().encode(JSON.stringify(table));
    let binary = "";
    bytes.forEach((b) => { binary += String.fromCharCode(b); });
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function decodeTable(text) {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  }

  function blank(game) {
    return {game, ...structuredClone(GAMES[game].blank)};
  }

  // A link holds the whole table (#t=...) and, on the answers page, the readings and profile chosen (&r=...).
  function linkParts() {
    return location.hash.match(/^#t=([A-Za-z0-9_-]+)(?:&r=([A-Za-z0-9_-]+))?$/);
  }

  function tableFromUrl() {
    const match = linkParts();
    if (match) {
      try { return decodeTable(match[1]); } catch (e) { showErrors(["the link's table cannot be read: " + e.message]); }
    } else if (location.hash) {
      showErrors(["the link holds no table this explorer can read (it should end in #t=...): a blank table instead"]);
    }
    return blank(CONFIG.default_game);
  }

  function choiceFromUrl() {
    const match = linkParts();
    if (match && match[2]) {
      try { return decodeTable(match[2]); } catch (e) { showErrors(["the link's readings cannot be read: " + e.message]); }
    }
    return {readings: {}, profile: ""};
  }

  // A link opened in a tab that already shows a table (pasted into the address bar) shows the new table.
  window.addEventListener("hashchange", () => location.reload());

  async function call(path, body) {
    const response = await fetch(path, body === undefined ? {} : {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    const data = await response.json();
    if (!response.ok) {
      const error = new Error(data.error || response.statusText);
      error.errors = data.errors || [error.message];
      throw error;
    }
    return data;
  }

  function showErrors(messages) {
    const box = document.getElementById("errors");
    if (!box) return;
    box.replaceChildren(...messages.map((m) => el("li", {text: m})));
  }

  function debounce(fn, ms) {
    let timer = null;
    return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
  }

  // A pointer pressed: a form redrawn under it would take the button away before the click lands (the change
  // event of a field left by that press fires between the press and the release), so redraws wait for the release.
  let pressed = false;
  const waiting = new Set();
  document.addEventListener("pointerdown", () => { pressed = true; }, true);
  for (const release of ["pointerup", "pointercancel"]) {
    document.addEventListener(release, () => setTimeout(() => {
      pressed = false;
      const due = [...waiting];
      waiting.clear();
      due.forEach((draw) => draw());
    }), true);
  }
  function afterRelease(draw) {
    return () => { if (pressed) waiting.add(draw); else draw(); };
  }

  // Where focus was, said so that the same control of a redrawn form can be found again: the control's id, or its
  // kind and name with the data- attributes of the blocks around it (its player, zone, question, ally).
  function focusKey(node) {
    if (!node || node === document.body) return null;
    if (node.id) return `#${node.id}`;
    const places = [];
    for (let up = node; up && up !== document.body; up = up.parentElement) {
      for (const attr of up.attributes) if (attr.name.startsWith("data-")) places.push(`${attr.name}=${attr.value}`);
    }
    return [node.tagName, node.className, node.getAttribute("aria-label") || node.textContent.slice(0, 40),
            ...places].join("|");
  }
  function refocus(container, key) {
    if (!key || container.contains(document.activeElement) && focusKey(document.activeElement) === key) return;
    const found = key.startsWith("#") ? document.getElementById(key.slice(1))
      : [...container.querySelectorAll("input, select, textarea, button, a")].find((n) => focusKey(n) === key);
    if (found) found.focus();
  }

  function slug(text) {
    return String(text).toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
      .replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 24) || "card";
  }

  // -- the table builder ------------------------------------------------------------------------------------
  // The name of each card a table names, by game, catalog and reference: its name (title, subtitle, a dot where it
  // is unique) and, beside it, its collector's info and id, as the catalog gave them when the card was picked or
  // looked up.
  const names = {};
  const asked = new Set();  // the keys of the cards whose names were asked of the catalog
  // Where a card's name is kept: its game, its table's catalog and the reference the table gives it.
  function nameKey(table, ref) {
    return `${table.game} ${table.catalog || "builtin"} ${ref}`;
  }
  // A card the catalog gave (a search's pick, a lookup) kept under the reference the table gives it.
  function remember(table, ref, card) {
    const info = card.collinfo && card.collinfo !== card.id ? `${card.collinfo}, ${card.id}` : card.id;
    names[nameKey(table, ref)] = {name: `${card.unique ? "\u2022" : ""}${card.title}` +
      (card.subtitle ? `, ${card.subtitle}` : ""), info};
  }

  // A card as the builder writes it in a list: its name first, its collector's info and id beside it (the reference
  // alone until the catalog has answered for it).
  function cardWords(table, ref) {
    const known = names[nameKey(table, ref)];
    return known ? `${known.name} (${known.info})` : String(ref);
  }
  // The same as the builder shows it beside a placed card: the name in bold, the collector's info and id in grey.
  function cardParts(table, ref) {
    const known = names[nameKey(table, ref)];
    return known ? [el("span", {class: "card-name", text: known.name}), " ",
      el("span", {class: "card-info", text: `(${known.info})`})] : [el("span", {class: "card-info", text: ref})];
  }
  // A card's label, marked with its reference so that a name the catalog sends later is written into it.
  function cardLabel(table, ref) {
    return el("span", {class: "card-label", "data-names": ref}, ...cardParts(table, ref));
  }
  // A placed card in a list of the builder's (borne by, a question's instance, the current site): its id, then its card.
  function instanceOption(table, item) {
    return el("option", {value: item.id, "data-names": item.card, "data-instance": item.id,
                         text: `${item.id} — ${cardWords(table, item.card)}`});
  }

  // The cards of the table the builder has no name for (a table opened from a link or a file), each asked of the
  // catalog once; a name that comes back is written where `form` shows that card, without redrawing the form.
  function askNames(table, form) {
    const game = GAMES[table.game];
    if (!game.catalogs.length) return;
    const refs = instances(table).map((i) => i.item.card);
    for (const deck of Object.values(table.decks || {})) {
      if (game.deck && deck[game.deck.leader]) refs.push(deck[game.deck.leader]);
      refs.push(...(deck.cards || []).map((e) => e.card));
    }
    for (const ref of new Set(refs.filter((r) => typeof r === "string" || typeof r === "number"))) {
      const key = nameKey(table, ref);
      if (names[key] || asked.has(key)) continue;
      asked.add(key);
      const params = new URLSearchParams({game: table.game, card: String(ref), catalog: table.catalog || "builtin"});
      call(`/api/cards?${params}`).then(({cards}) => {
        if (!cards.length) return;
        remember(table, ref, cards[0]);
        for (const node of form.querySelectorAll(`[data-names="${CSS.escape(String(ref))}"]`)) {
          if (node.tagName === "OPTION") node.textContent = `${node.dataset.instance} — ${cardWords(table, ref)}`;
          else node.replaceChildren(...cardParts(table, ref));
        }
      }, () => asked.delete(key));
    }
  }

  function instances(table) {
    const found = [];
    for (const [player, zones] of Object.entries(table.players || {})) {
      for (const [zone, items] of Object.entries(zones || {})) {
        const list = Array.isArray(items) ? items : [items];
        for (const item of list) if (item && typeof item === "object" && item.id) found.push({player, zone, item});
      }
    }
    return found;
  }

  function freshId(table, player, title) {
    const taken = new Set(instances(table).map((i) => i.item.id));
    const base = `${player}-${slug(title)}`;
    let id = base;
    for (let n = 2; taken.has(id); n += 1) id = `${base}-${n}`;
    return id;
  }

  // A card search: suggestions ranked by the server (best match first), picked with the mouse or the keyboard
  // (arrows move, Enter picks, Escape closes), with a hint when more cards match and the closest names when none does.
  let searchCount = 0;
  // An instance renamed is renamed wherever the table names it: its questions and the cards borne by or stacked on it.
  function renameInstance(table, from, to) {
    if (!from || from === to) return;
    const swap = (value) => (value === from ? to : value);
    for (const question of table.questions || []) {
      for (const [key, value] of Object.entries(question)) {
        if (typeof value === "string" && key !== "id" && key !== "ask") question[key] = swap(value);
      }
    }
    for (const {item} of instances(table)) {
      for (const key of ["on", "borne_by"]) if (item[key] === from) item[key] = to;
    }
  }

  function cardSearch(table, onPick, placeholder, types) {
    const listId = `card-suggestions-${++searchCount}`;
    const input = el("input", {type: "search", class: "card-search", placeholder: placeholder || "add a card…",
                               autocomplete: "off", role: "combobox", "aria-autocomplete": "list",
                               "aria-expanded": "false", "aria-controls": listId,
                               "aria-label": placeholder || "add a card: type a title, an id or a collector's number"});
    const list = el("ul", {class: "suggestions", id: listId, role: "listbox"});
    const status = el("p", {class: "search-status hint", "aria-live": "polite"});
    let options = [];
    let active = -1;

    function close() {
      list.replaceChildren(); options = []; active = -1;
      input.setAttribute("aria-expanded", "false"); input.removeAttribute("aria-activedescendant");
    }
    function pick(card) {
      remember(table, card.id, card); input.value = ""; close(); status.textContent = `added ${card.label}`; onPick(card);
    }
    function highlight(index) {
      options.forEach((o, i) => o.node.setAttribute("aria-selected", String(i === index)));
      active = index;
      if (index >= 0) {
        input.setAttribute("aria-activedescendant", options[index].node.id);
        options[index].node.scrollIntoView({block: "nearest"});
      }
    }
    const search = debounce(async () => {
      const q = input.value.trim();
      if (!q) { close(); status.textContent = ""; return; }
      const params = new URLSearchParams({game: table.game, q, catalog: table.catalog || "builtin", limit: "12"});
      if (types) params.set("types", types.join(","));
      try {
        const {cards, more, suggestions} = await call(`/api/cards?${params}`);
        options = cards.map((card, i) => ({card, node: el("li", {
          class: "suggestion", "data-id": card.id, id: `${listId}-${i}`, role: "option", "aria-selected": "false",
          onmousedown: (e) => { e.preventDefault(); pick(card); },
        }, card.label, card.alter_ego ? el("span", {class: "alias", text: ` alter ego ${card.alter_ego}`}) : null,
        card.aliases.length ? el("span", {class: "alias", text: ` ${card.aliases.join(", ")}`}) : null,
        el("span", {class: "type", text: ` ${card.type}`}), card.official === false
          ? el("span", {class: "type", text: " unofficial"}) : null)}));
        const extra = [];
        if (more > 0) extra.push(el("li", {class: "more", text: `${more} more: type more of the name to narrow`}));
        if (!cards.length) {
          extra.push(el("li", {class: "no-match"}, `no card matches “${q}”`, suggestions.length ? [". Did you mean ",
            ...suggestions.flatMap((name, i) => [i ? ", " : "", el("button", {type: "button", class: "did-you-mean",
              text: name, onmousedown: (e) => { e.preventDefault(); input.value = name; search(); }})]), "?"] : ""));
        }
        list.replaceChildren(...options.map((o) => o.node), ...extra);
        input.setAttribute("aria-expanded", String(options.length > 0));
        status.textContent = cards.length ? `${cards.length + more} cards match` : `no card matches ${q}`;
        highlight(options.length ? 0 : -1);
      } catch (e) { showErrors(e.errors || [e.message]); }
    }, 150);
    input.addEventListener("input", search);
    input.addEventListener("keydown", (e) => {
      if (e.key === "ArrowDown" && options.length) { e.preventDefault(); highlight((active + 1) % options.length); }
      else if (e.key === "ArrowUp" && options.length) {
        e.preventDefault(); highlight((active - 1 + options.length) % options.length);
      } else if (e.key === "Enter" && active >= 0) { e.preventDefault(); pick(options[active].card); }
      else if (e.key === "Escape") { e.preventDefault(); close(); }
    });
    input.addEventListener("blur", () => setTimeout(close, 150));
    return el("div", {class: "card-picker"}, input, list, status);
  }

  function instanceRow(table, player, zone, item, items, redraw) {
    const game = GAMES[table.game];
    const remove = el("button", {type: "button", class: "remove", title: `remove ${item.id}`,
                                 "aria-label": `remove ${item.id}`, text: "×", onclick: () => {
      items.splice(items.indexOf(item), 1);
      if (!items.length) delete table.players[player][zone];
      redraw();
    }});
    const idInput = el("input", {class: "inst-id", value: item.id, size: 14, onchange: (e) => {
      renameInstance(table, item.id, e.target.value); item.id = e.target.value; redraw();
    }});
    const cells = [idInput, cardLabel(table, item.card)];
    if (game.instance_extras) {
      cells.push(el("label", {}, "wounds ", el("input", {type: "number", min: 0, max: 99, class: "inst-wounds",
        value: item.wounds ?? "", onchange: (e) => {
          if (e.target.value === "") delete item.wounds; else item.wounds = Number(e.target.value);
          redraw();
        }})));
      if (game.in_play.includes(zone)) {
        const active = el("select", {class: "inst-active", onchange: (e) => {
          if (e.target.value === "") delete item.active; else item.active = e.target.value === "yes";
          redraw();
        }}, el("option", {value: "", text: "active?"}), el("option", {value: "yes", text: "active"}),
        el("option", {value: "no", text: "inactive"}));
        active.value = item.active === undefined ? "" : (item.active ? "yes" : "no");
        cells.push(active);
      }
      // A stacked card names the card it is stacked on (on:); any other, the character bearing it (borne_by:).
      const field = zone === "stacked" ? "on" : "borne_by";
      const on = el("select", {class: "inst-on", title: zone === "stacked" ? "stacked on" : "borne by",
                               onchange: (e) => {
                                 if (e.target.value) item[field] = e.target.value; else delete item[field];
                                 redraw();
                               }},
        el("option", {value: "", text: zone === "stacked" ? "stacked on…" : "borne by…"}),
        instances(table).filter((i) => i.item !== item).map((i) => instanceOption(table, i.item)));
      on.value = item[field] || "";
      cells.push(on);
    }
    return el("div", {class: "instance", "data-id": item.id}, ...cells, remove);
  }

  function zoneBlock(table, player, zone, redraw) {
    const zones = table.players[player];
    const items = zones[zone] || [];
    const rows = items.filter((i) => typeof i === "object").map((item) => instanceRow(table, player, zone, item, items, redraw));
    const picker = cardSearch(table, (card) => {
      zones[zone] = items;
      items.push({id: freshId(table, player, card.title), card: card.id});
      redraw();
    }, `add to ${zone.replace("_", " ")}…`);
    return el("div", {class: "zone", "data-zone": zone}, el("h4", {text: zone.replace("_", " ")}), ...rows, picker);
  }

  function identityBlock(table, player, redraw) {
    const zones = table.players[player];
    const identity = zones.identity;
    const parts = [el("h4", {text: "identity"})];
    if (identity) {
      const face = el("input", {class: "inst-face", list: "faces", value: identity.face || "", placeholder: "face",
                                onchange: (e) => { if (e.target.value) identity.face = e.target.value; else delete identity.face; redraw(); }});
      parts.push(el("div", {class: "instance", "data-id": identity.id}, el("span", {text: identity.id}),
        cardLabel(table, identity.card), face,
        el("button", {type: "button", class: "remove", "aria-label": `remove ${player}'s identity`, text: "×",
                      onclick: () => { delete zones.identity; redraw(); }})));
    } else {
      parts.push(cardSearch(table, (card) => {
        zones.identity = {id: freshId(table, player, card.title), card: card.id};
        redraw();
      }, "choose the identity…"));
    }
    return el("div", {class: "zone", "data-zone": "identity"}, ...parts);
  }

  // A player's decklist (decks: in the scenario): its leading card (the game's deck.leader: an identity, a
  // ring-bearer), picked among the types that may lead, and its cards with their counts; a `deck` question asks
  // whether it is valid.
  function deckBlock(table, player, redraw) {
    const game = GAMES[table.game];
    const lead = game.deck.leader;
    const deck = (table.decks || {})[player];
    const parts = [el("h4", {text: "deck"})];
    if (!deck) {
      parts.push(el("button", {type: "button", class: "add-deck", text: "build a deck",
                               "aria-label": `build a deck for ${player}`, onclick: () => {
        table.decks = {...(table.decks || {}), [player]: {cards: []}};
        redraw();
      }}));
      return el("div", {class: "zone deck", "data-zone": "deck-list"}, ...parts);
    }
    const leadWords = lead.replace("_", " ");
    parts.push(el("div", {class: "deck-leader"}, `${leadWords}: `,
      deck[lead] ? cardLabel(table, deck[lead]) : el("span", {class: "card-label", text: "none"}),
      cardSearch(table, (card) => { deck[lead] = card.id; redraw(); }, `choose the ${leadWords}…`, game.deck.leader_types)));
    for (const entry of deck.cards) {
      const name = cardWords(table, entry.card);
      parts.push(el("div", {class: "instance deck-card", "data-card": entry.card},
        el("input", {type: "number", min: 1, max: 99, class: "deck-count", value: entry.count, "aria-label": `copies of ${name}`,
                     onchange: (e) => { entry.count = Math.max(1, Number(e.target.value) || 1); redraw(); }}),
        cardLabel(table, entry.card),
        el("button", {type: "button", class: "remove", "aria-label": `remove ${name} from the deck`, text: "×",
                      onclick: () => { deck.cards.splice(deck.cards.indexOf(entry), 1); redraw(); }})));
    }
    parts.push(cardSearch(table, (card) => {
      const found = deck.cards.find((e) => e.card === card.id);
      if (found) found.count += 1; else deck.cards.push({card: card.id, count: 1});
      redraw();
    }, "add to the deck…"));
    parts.push(el("button", {type: "button", class: "remove-deck", text: "remove the deck",
                             onclick: () => { delete table.decks[player]; if (!Object.keys(table.decks).length) delete table.decks; redraw(); }}));
    return el("div", {class: "zone deck", "data-zone": "deck-list"}, ...parts);
  }

  // The zones holding no card, folded into one line: the zone the next card goes into and a card search. The card
  // picked fills that zone, which then shows as a zone holding cards, and focus moves to that zone's card search.
  const chosenZones = {};  // player -> the empty zone chosen for the next card
  let focusNext = null;  // a selector of the control a redraw focuses, where a pick moved the card search
  function emptyZonesBlock(table, player, empty, redraw) {
    const zones = table.players[player];
    const select = el("select", {class: "empty-zone", "aria-label": `the zone of ${player}'s next card`,
                                 onchange: (e) => { chosenZones[player] = e.target.value; }},
      empty.map((zone) => el("option", {value: zone, text: zone.replace("_", " ")})));
    select.value = empty.includes(chosenZones[player]) ? chosenZones[player] : empty[0];
    const picker = cardSearch(table, (card) => {
      const zone = select.value;
      zones[zone] = [{id: freshId(table, player, card.title), card: card.id}];
      focusNext = `fieldset[data-player="${CSS.escape(player)}"] .zone[data-zone="${zone}"] input.card-search`;
      redraw();
    }, "add a card…");
    return el("div", {class: "zone empty-zones", "data-zone": "empty"},
      el("h4", {text: `empty zones (${empty.length})`}), el("label", {class: "empty-zone-choice"}, "add to ", select), picker);
  }

  function playerBlock(table, player, redraw) {
    const game = GAMES[table.game];
    const zones = table.players[player];
    const blocks = [];
    if (game.identity) blocks.push(identityBlock(table, player, redraw));
    const empty = game.zones.filter((zone) => !(zones[zone] || []).length);
    for (const zone of game.zones) if (!empty.includes(zone)) blocks.push(zoneBlock(table, player, zone, redraw));
    if (empty.length) blocks.push(emptyZonesBlock(table, player, empty, redraw));
    if (game.deck) blocks.push(deckBlock(table, player, redraw));
    return el("fieldset", {class: "player", "data-player": player},
      el("legend", {}, player, " ", el("button", {type: "button", class: "remove", title: `remove the player ${player}`,
                                                  "aria-label": `remove the player ${player}`, text: "×",
        onclick: () => { delete table.players[player]; redraw(); }})), ...blocks);
  }

  function fieldInput(table, question, name, redraw) {
    const set = (value) => { if (value === "" || value === undefined) delete question[name]; else question[name] = value; redraw(); };
    const value = question[name];
    if (name === "instance" || name === "discard") {
      const select = el("select", {"data-field": name, onchange: (e) => set(e.target.value)},
        el("option", {value: "", text: name + "…"}),
        instances(table).map((i) => instanceOption(table, i.item)));
      select.value = value || "";
      return select;
    }
    if (name === "player" && table.players) {
      const select = el("select", {"data-field": name, onchange: (e) => set(e.target.value)},
        el("option", {value: "", text: "player…"}), Object.keys(table.players || {}).map((p) => el("option", {value: p, text: p})));
      select.value = value || "";
      return select;
    }
    if (name === "end_turn" || name === "move_nazgul") {
      return el("label", {}, name, " ", el("input", {type: "checkbox", "data-field": name, checked: !!value,
                                                   onchange: (e) => set(e.target.checked ? true : undefined)}));
    }
    const numeric = ["step", "after", "at"].includes(name);
    const listy = ["cards", "of", "counts", "take", "card", "card2", "connection", "move1", "move2"].includes(name)
      && !(name === "card" && !GAMES[table.game].card_list);
    const separator = name === "cards" ? ";" : ",";
    const shown = Array.isArray(value) ? value.join(`${separator} `) : (typeof value === "object" && value ? JSON.stringify(value) : value ?? "");
    return el("input", {"data-field": name, placeholder: name, size: numeric ? 4 : 12, value: shown, onchange: (e) => {
      const text = e.target.value.trim();
      if (!text) return set(undefined);
      if (numeric) return set(Number(text));
      if (listy) return set(text.split(separator).map((v) => v.trim()).map((v) => (/^\d+$/.test(v) ? Number(v) : v)));
      if (name === "players" || name === "readings") { try { return set(JSON.parse(text)); } catch (err) { return set(text); } }
      return set(text);
    }});
  }

  function questionRow(table, question, redraw) {
    const game = GAMES[table.game];
    const ask = el("select", {class: "q-ask", onchange: (e) => {
      for (const key of Object.keys(question)) if (!["id", "ask"].includes(key)) delete question[key];
      question.ask = e.target.value; redraw();
    }}, Object.keys(game.questions).map((k) => el("option", {value: k, text: k})));
    ask.value = question.ask;
    const fields = (game.questions[question.ask] || []).map((name) => fieldInput(table, question, name, redraw));
    const verdicts = game.verdicts[question.ask];
    let expect = null;
    if (verdicts) {
      expect = el("select", {class: "q-expect", onchange: (e) => {
        if (e.target.value) question.expect = e.target.value; else delete question.expect; redraw();
      }}, el("option", {value: "", text: "expect…"}), verdicts.map((v) => el("option", {value: v, text: v})));
      expect.value = question.expect || "";
    }
    return el("div", {class: "question", "data-question": question.id},
      el("input", {class: "q-id", value: question.id, size: 14, onchange: (e) => { question.id = e.target.value; redraw(); }}),
      ask, ...fields, expect,
      el("button", {type: "button", class: "remove", "aria-label": `remove the question ${question.id}`, text: "×",
                    onclick: () => {
        table.questions.splice(table.questions.indexOf(question), 1); redraw();
      }}));
  }

  function questionsBlock(table, redraw) {
    table.questions = table.questions || [];
    const add = el("button", {type: "button", id: "add-question", text: "Add a question", onclick: () => {
      const kinds = Object.keys(GAMES[table.game].questions);
      let n = table.questions.length + 1;
      while (table.questions.some((q) => q.id === `q${n}`)) n += 1;
      table.questions.push({id: `q${n}`, ask: kinds.includes("play") ? "play" : kinds[0]});
      redraw();
    }});
    return el("fieldset", {class: "questions"}, el("legend", {text: "Questions"}), add,
      ...table.questions.map((q) => questionRow(table, q, redraw)));
  }

  // Whose turn and which phase it is, and the current site (a site on an adventure path), for a game that has them.
  function turnBlock(table, game, redraw) {
    const turn = table.turn || {};
    const setTurn = (key, value) => {
      const next = {...turn};
      if (value) next[key] = value; else delete next[key];
      if (Object.keys(next).length) table.turn = next; else delete table.turn;
      redraw();
    };
    const player = el("select", {id: "turn-player", "aria-label": "whose turn", onchange: (e) => setTurn("player", e.target.value)},
      el("option", {value: "", text: "whose turn…"}), Object.keys(table.players).map((p) => el("option", {value: p, text: p})));
    player.value = turn.player || "";
    const phase = el("select", {id: "turn-phase", "aria-label": "phase", onchange: (e) => setTurn("phase", e.target.value)},
      el("option", {value: "", text: "phase…"}), game.phases.map((p) => el("option", {value: p, text: p})));
    phase.value = turn.phase || "";
    const sites = instances(table).filter((i) => i.zone === "adventure_path").map((i) => i.item);
    const site = el("select", {id: "current-site", "aria-label": "current site", onchange: (e) => {
      if (e.target.value) table.current_site = e.target.value; else delete table.current_site;
      redraw();
    }}, el("option", {value: "", text: sites.length ? "current site…" : "no site on an adventure path"}),
    sites.map((item) => instanceOption(table, item)));
    site.value = table.current_site || "";
    return el("fieldset", {class: "turn"}, el("legend", {text: "Turn"}),
      el("label", {}, "Turn of ", player), " ", el("label", {}, "in the phase ", phase), " ",
      el("label", {}, "at the site ", site));
  }

  function numberField(label, object, key, redraw, attrs) {
    return el("label", {class: "number"}, label, " ", el("input", {type: "number", min: 0, max: 100, "data-field": key, ...attrs,
      value: object[key] ?? "", onchange: (e) => {
        if (e.target.value === "") delete object[key]; else object[key] = Number(e.target.value);
        redraw();
      }}));
  }

  function tablePage() {
    let table = tableFromUrl();
    const builder = document.getElementById("builder");
    const yamlBox = document.getElementById("yaml");

    const exportYaml = debounce(async () => {
      try {
        const {yaml, errors} = await call("/api/export", {scenario: table, name: "table"});
        yamlBox.value = yaml;
        showErrors(errors);
      } catch (e) { showErrors(e.errors || [e.message]); }
    }, 120);

    // The form drawn again from the table, focus kept on the control it was on (a card picked with Enter leaves
    // focus in that zone's card search, ready for the next card).
    const redraw = afterRelease(() => {
      const focused = builder.contains(document.activeElement) ? focusKey(document.activeElement) : null;
      const hash = `#t=${encodeTable(table)}`;
      history.replaceState(null, "", hash);
      document.getElementById("to-answers").href = `/answers${hash}`;
      document.getElementById("nav-answers").href = `/answers${hash}`;
      const game = GAMES[table.game];
      const gameSelect = el("select", {id: "game", onchange: (e) => { table = blank(e.target.value); redraw(); }},
        Object.keys(GAMES).map((g) => el("option", {value: g, text: g})));
      gameSelect.value = table.game;
      const head = [el("label", {}, "Game ", gameSelect)];
      if (game.catalogs.length) {
        const catalog = el("select", {id: "catalog", onchange: (e) => {
          if (e.target.value === "builtin") delete table.catalog; else table.catalog = e.target.value; redraw();
        }}, game.catalogs.map((c) => el("option", {value: c, text: c})));
        catalog.value = table.catalog || "builtin";
        head.push(el("label", {}, " Catalog ", catalog));
      }
      head.push(el("label", {}, " Title ", el("input", {id: "title", size: 40, value: table.title || "",
                                                       onchange: (e) => { table.title = e.target.value; redraw(); }})));
      // The questions come first, "Add a question" at their head: in reach however many cards the table holds.
      const parts = [el("div", {class: "table-head"}, ...head), questionsBlock(table, redraw)];
      if (game.form) {
        parts.push(...ExplorerForms[table.game]({el, numberField}, game, table, redraw));
      } else {
        table.players = table.players || {};
        parts.push(...Object.keys(table.players).map((p) => playerBlock(table, p, redraw)));
        const name = el("input", {id: "new-player", placeholder: "player name", size: 12});
        parts.push(el("div", {class: "add-player"}, name, el("button", {type: "button", id: "add-player", text: "Add a player",
          onclick: () => { const n = name.value.trim(); if (n && !table.players[n]) { table.players[n] = {}; redraw(); } }})));
        if (game.phases) parts.push(turnBlock(table, game, redraw));
      }
      if (game.faces) parts.push(el("datalist", {id: "faces"}, game.faces.map((f) => el("option", {value: f}))));
      builder.replaceChildren(...parts);
      const moved = focusNext && builder.querySelector(focusNext);
      focusNext = null;
      if (moved) moved.focus(); else refocus(builder, focused);
      askNames(table, builder);
      exportYaml();
    });

    async function applyYaml(text, name) {
      try {
        const {scenario} = await call("/api/parse", {yaml: text, name});
        table = scenario;
        showErrors([]);
        redraw();
      } catch (e) { showErrors(e.errors || [e.message]); }
    }

    document.getElementById("apply-yaml").addEventListener("click", () => applyYaml(yamlBox.value, "table"));
    document.getElementById("load-file").addEventListener("change", async (e) => {
      const file = e.target.files[0];
      if (file) await applyYaml(await file.text(), file.name);
    });
    document.getElementById("download").addEventListener("click", () => {
      const link = el("a", {href: URL.createObjectURL(new Blob([yamlBox.value], {type: "application/yaml"})),
                            download: `${slug(table.title || "table")}.yaml`});
      document.body.append(link);
      link.click();
      link.remove();
    });
    document.getElementById("copy-link").addEventListener("click", async (e) => {
      const button = e.currentTarget;
      try {
        await navigator.clipboard.writeText(location.href);
        button.textContent = "Link copied";
      } catch (err) {
        button.textContent = "Copy the address bar instead";
      }
      setTimeout(() => { button.textContent = "Copy link"; }, 2000);
    });
    redraw();
  }

  // -- the answers ------------------------------------------------------------------------------------------
  const documents = {};
  let rulesById = null;

  async function paragraphText(document, paragraph) {
    if (!documents[document]) documents[document] = call(`/api/documents/${encodeURIComponent(document)}`);
    const view = await documents[document];
    const found = view.paragraphs.find((p) => p.id === paragraph);
    return found ? (found.quote || found.text || found.paraphrase || "") : "";
  }

  async function explanation(reasons, restedOn) {
    if (!rulesById) rulesById = call("/api/rules").then((d) => Object.fromEntries(d.rules.map((r) => [r.rule, r])));
    const rules = await rulesById;
    const items = [];
    for (const reason of reasons) {
      const rule = rules[reason.rule];
      const sources = await Promise.all(reason.sources.map(async (s) =>
        el("li", {class: "source"}, el("strong", {text: `${s.document} ${s.paragraph}: `}),
          el("q", {text: await paragraphText(s.document, s.paragraph)}),
          el("a", {href: `/rulebook/${s.document}#${s.paragraph}`, text: " (in the rulebook)"}))));
      items.push(el("li", {class: "reason"}, el("code", {class: "rule", text: reason.rule}),
        rule ? el("span", {class: "statement", text: ` ${rule.statement}`}) : null,
        el("div", {class: "state", text: `state: ${reason.evidence}`}),
        el("details", {class: "evidence"}, el("summary", {text: "facts"}), el("code", {text: reason.facts})),
        el("ul", {class: "sources"}, ...sources)));
    }
    const rested = Object.entries(restedOn || {}).map(([r, c]) => `${r}=${c}`);
    return el("div", {class: "explanation"}, el("ul", {}, ...items),
      el("p", {class: "rested", text: rested.length ? `rested on the readings ${rested.join(", ")}` : "rested on no reading"}));
  }

  // "why?" opens the reasons under the row and closes them again; focus stays on the button (a button disabled
  // while the reasons load would drop focus to the page), which says whether they are shown (aria-expanded).
  function whyButton(row, about, reasons, restedOn, colspan) {
    let opening = false;
    return el("button", {type: "button", class: "why", text: "why?", "aria-label": `why ${about}?`,
                         "aria-expanded": "false", onclick: async (e) => {
      const button = e.currentTarget;
      const next = row.nextElementSibling;
      if (next && next.classList.contains("why-row")) {
        next.remove(); button.setAttribute("aria-expanded", "false"); return;
      }
      if (opening) return;
      opening = true;
      button.setAttribute("aria-busy", "true");
      const box = el("td", {colspan}, await explanation(reasons, restedOn));
      row.after(el("tr", {class: "why-row"}, box));
      button.setAttribute("aria-busy", "false");
      button.setAttribute("aria-expanded", "true");
      opening = false;
    }});
  }

  // The base-game assumptions an answer rested on (a game that keeps some), each in words.
  let answersGame = null;
  function assumed(names) {
    if (!names || !names.length) return null;
    const statements = (GAMES[answersGame] && GAMES[answersGame].assumptions) || {};
    return el("details", {class: "assumptions"}, el("summary", {text: `rests on ${names.length} base-game assumptions`}),
      el("ul", {}, names.map((n) => el("li", {text: statements[n] || n}))));
  }

  // A long list a page at a time (PAGE items, then a button for the next PAGE), with a filter on its words
  // where it runs past one page: `rows` are the items' nodes, put into `holder` (a tbody or a list); returns the
  // controls to show above it (the filter) and below it (the count, "show more"). Focus moves to the first item a
  // "show more" brings.
  const PAGE = 20;
  function paged(holder, rows, what) {
    const pages = pager(holder, rows, what);
    if (rows.length <= PAGE) return {above: [], below: []};
    return {above: [listFilter(rows, what, pages.show)], below: [pages.count, pages.more]};
  }

  // The pages of a list: `show` puts the first page of the rows it is given into `holder`; `count` says how many are
  // shown of how many, and `more` brings the next page.
  function pager(holder, rows, what) {
    let matching = rows;
    let shown = 0;
    const more = el("button", {type: "button", class: "show-more"});
    const count = el("p", {class: "hint page-count", "aria-live": "polite"});
    function page(fromStart) {
      if (fromStart) { holder.replaceChildren(); shown = 0; }
      const next = matching.slice(shown, shown + PAGE);
      holder.append(...next);
      shown += next.length;
      count.textContent = matching.length > PAGE || matching.length < rows.length
        ? `${shown} of ${matching.length} ${what} shown${matching.length < rows.length ? ` (of ${rows.length})` : ""}` : "";
      more.textContent = `show ${Math.min(PAGE, matching.length - shown)} more ${what}`;
      more.hidden = shown >= matching.length;
      return next;
    }
    more.addEventListener("click", () => {
      const [first] = page(false);
      if (first) { first.setAttribute("tabindex", "-1"); first.focus(); }
    });
    page(true);
    return {count, more, show: (found) => { matching = found; page(true); }};
  }

  // A filter on the words of `rows`: `show` is given the rows holding every word typed, and whether any was typed.
  // Words match without case or accents ("mumak" finds the Mûmak Commander).
  function listFilter(rows, what, show) {
    const filter = el("input", {type: "search", class: "list-filter", "aria-label": `filter the ${what}`,
                                placeholder: `filter the ${rows.length} ${what}…`});
    const fold = (text) => text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
    const texts = new Map(rows.map((row) => [row, fold(row.textContent)]));
    filter.addEventListener("input", debounce(() => {
      const words = fold(filter.value).split(/\s+/).filter(Boolean);
      show(rows.filter((row) => words.every((w) => texts.get(row).includes(w))), words.length > 0);
    }, 150));
    return filter;
  }

  // A long list folded under its summary on a phone (open on a wider screen), so that a page of several long
  // lists stays a few screens tall.
  function folded(summary, long, ...content) {
    if (!long) return [el("h3", {text: summary}), ...content];
    return [el("details", {class: "fold", open: !matchMedia("(max-width: 640px)").matches},
      el("summary", {}, el("h3", {class: "fold-title", text: summary})), ...content)];
  }

  // Each cell named by its column's heading (data-label), so that on a phone, where a row's cells stack, the
  // heading stays beside its value.
  function labelled(headings, rows) {
    for (const row of rows) {
      [...row.children].forEach((cell, i) => { if (headings[i]) cell.setAttribute("data-label", headings[i]); });
    }
    return rows;
  }

  function verdictText(verdict) {
    if (verdict === null || verdict === undefined) return "";
    if (typeof verdict !== "object") return String(verdict);
    return Object.entries(verdict).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") || "none" : v}`).join("; ");
  }

  function verdictCell(verdict) {
    const text = verdictText(verdict);
    return el("td", {class: `verdict ${typeof verdict === "string" ? verdict : ""}`, text});
  }

  // A play's kind: the words of its id before its first argument (a word holding "=" or starting with a digit), so
  // that "call x enter card=1.1" is a "call x enter" and "take 5.6 play" a "take".
  function playKind(play) {
    const words = String(play).split(" ");
    const cut = words.findIndex((w, i) => i > 0 && (w.includes("=") || /^\d/.test(w)));
    return (cut < 0 ? words : words.slice(0, cut)).join(" ");
  }

  // A count with its noun, "1 play" or "3 plays".
  function counted(n, noun) {
    return `${n} ${noun}${n === 1 ? "" : "s"}`;
  }

  // Each player's plays grouped by reason (the verdict and the rules that gave it), each group saying its rules and
  // its kinds with their counts over its plays; the groups of illegal plays folded under their summaries, the others
  // open. A filter over all of a player's plays opens the groups it finds plays in and hides the others. Each group
  // shows a page at a time.
  function playsTable(result) {
    const blocks = [];
    const headings = ["play", "in words", "verdict", ""];
    for (const q of result.questions) {
      const player = q.question.split(":").slice(1).join(":");
      const groups = new Map();
      const rows = [];
      for (const p of q.plays || []) {
        const row = el("tr", {"data-play": p.play, "data-player": player}, el("td", {}, el("code", {text: p.play})),
          el("td", {}, p.description, assumed(p.assumptions)), verdictCell(p.verdict));
        row.append(el("td", {}, whyButton(row, `${player}: ${p.play} is ${verdictText(p.verdict)}`, p.reasons, p.rested_on, 4)));
        const key = JSON.stringify([p.verdict, p.rules]);
        if (!groups.has(key)) groups.set(key, {verdict: p.verdict, rules: p.rules, rows: [], kinds: new Map()});
        const group = groups.get(key);
        const kind = playKind(p.play);
        group.rows.push(row);
        group.kinds.set(kind, (group.kinds.get(kind) || 0) + 1);
        rows.push(row);
      }
      labelled(headings, rows);
      const ordered = [...groups.values()].sort((a, b) => (a.verdict === "illegal") - (b.verdict === "illegal"));
      const shown = ordered.map((group) => playGroup(player, group, headings));
      const verdicts = new Map();
      for (const group of ordered) {
        verdicts.set(verdictText(group.verdict), (verdicts.get(verdictText(group.verdict)) || 0) + group.rows.length);
      }
      const filter = rows.length > PAGE ? listFilter(rows, `plays of ${player}`, (found, typed) => {
        for (const {node, group, pages} of shown) {
          const mine = found.filter((row) => group.rows.includes(row));
          pages.show(mine);
          node.hidden = !mine.length;
          node.open = typed ? mine.length > 0 : group.verdict !== "illegal";
        }
      }) : null;
      const summary = `${player}: ${counted(rows.length, "play")}` + (rows.length ? ": " + [...verdicts]
        .map(([v, n]) => `${n} ${v}`).join(", ") + ` (${counted(ordered.length, "reason")})` : "");
      blocks.push(...folded(summary, rows.length > PAGE, ...(filter ? [filter] : []),
        el("div", {class: "play-groups", "data-player": player}, shown.map((g) => g.node))));
    }
    return blocks;
  }

  // One reason's plays: its summary (count, verdict, rules, kinds) over its table, a page at a time.
  function playGroup(player, group, headings) {
    const body = el("tbody");
    const pages = pager(body, group.rows, `plays of ${player}`);
    const kinds = [...group.kinds].map(([kind, n]) => (n > 1 ? `${kind} ×${n}` : kind)).join(", ");
    const verdict = verdictText(group.verdict);
    const node = el("details", {class: "play-group", "data-verdict": verdict, open: group.verdict !== "illegal"},
      el("summary", {}, el("span", {class: `verdict ${typeof group.verdict === "string" ? group.verdict : ""}`,
                                    text: `${counted(group.rows.length, "play")} ${verdict}`}),
        group.rules.length ? [" by ", el("span", {class: "rules", text: group.rules.join(", ")})] : "",
        el("span", {class: "kinds", text: `: ${kinds}`})),
      el("table", {class: "answers", "data-player": player},
        el("thead", {}, el("tr", {}, headings.map((h) => el("th", {text: h})))), body), pages.count, pages.more);
    return {node, group, pages};
  }

  // A verdict with the rules that gave it in parentheses, where there are any.
  function withRules(verdict, rules) {
    return rules && rules.length ? `${verdict} (${rules.join(", ")})` : String(verdict);
  }

  // Whether a question's answer meets its expectation; a question without one is answered, not checked.
  function checkCell(q) {
    if (q.unchecked) return el("td", {class: "unchecked", text: "answered (no expectation)"});
    return el("td", {class: q.passed ? "pass" : "fail", text: q.passed ? "holds" : q.failures.join("; ")});
  }

  function questionsTable(result, table, choice) {
    const body = el("tbody");
    const headings = ["question", "ask", "verdict", "expected", "check", "rules", "", ""];
    const rows = [];
    for (const q of result.questions) {
      const row = el("tr", {"data-question": q.question}, el("td", {}, el("code", {text: q.question})),
        el("td", {}, q.ask, assumed(q.assumptions)), verdictCell(q.got), el("td", {text: verdictText(q.expected)}),
        checkCell(q),
        el("td", {text: q.rules.join(", ")}));
      const flip = el("button", {type: "button", class: "flip", text: "what would change it?", onclick: async () => {
        try {
          const found = await call("/api/flip", {scenario: table, question: q.question, ...choice});
          const text = found.flippable ? `${found.changes.join("; ")} → ${withRules(found.after.verdict, found.after.rules)}`
            : "no single change found that turns this answer around";
          row.after(el("tr", {class: "flip-row"}, el("td", {colspan: 8, text})));
        } catch (e) { showErrors(e.errors || [e.message]); }
      }});
      row.append(el("td", {}, whyButton(row, `${q.question} is ${verdictText(q.got)}`, q.reasons, q.rested_on, 8)), el("td", {}, typeof q.got === "string" ? flip : null));
      rows.push(row);
    }
    const controls = paged(body, labelled(headings, rows), "questions");
    return el("div", {}, ...controls.above, el("table", {class: "answers"}, el("thead", {}, el("tr", {},
      headings.map((h) => el("th", {text: h})))), body), ...controls.below);
  }

  // The table's questions answered; a question the server cannot read is marked with its errors, and the others
  // are answered without it.
  async function answeredQuestions(table, choice) {
    try {
      return questionsTable(await call("/api/answer", {scenario: table, name: "table", ...choice}), table, choice);
    } catch (err) {
      const messages = err.errors || [err.message];
      const bad = {};
      for (const message of messages) {
        const found = message.match(/questions\[(\d+)\]/);
        if (!found) throw err;
        (bad[Number(found[1])] = bad[Number(found[1])] || []).push(message);
      }
      const kept = table.questions.filter((_, i) => !(i in bad));
      const answered = kept.length ? questionsTable(await call("/api/answer",
        {scenario: {...table, questions: kept}, name: "table", ...choice}), {...table, questions: kept}, choice) : null;
      const rows = Object.entries(bad).map(([i, errors]) => el("tr", {class: "bad-question",
        "data-question": table.questions[i].id || `question ${Number(i) + 1}`},
        el("td", {}, el("code", {text: table.questions[i].id || `question ${Number(i) + 1}`})),
        el("td", {colspan: 9, class: "errors", text: `not answered: ${errors.join("; ")}`})));
      const marked = el("table", {class: "answers bad-questions"}, el("tbody", {}, rows));
      return el("div", {}, marked, answered);
    }
  }

  function compareTable(result) {
    // The default's column, then only the sides that change some verdict; the others are named below the table.
    const shown = result.sides.map((_, i) => i).filter((i) => i === 0 || result.rows.some((r) => r.verdicts[i] !== r.verdicts[0]));
    const agree = result.sides.filter((_, i) => !shown.includes(i)).map((s) => s.label);
    const headings = ["verdict of", ...shown.map((i) => result.sides[i].label)];
    const head = el("tr", {}, headings.map((h) => el("th", {text: h})));
    const body = el("tbody");
    const rows = labelled(headings, result.rows.map((row) => el("tr", {class: row.differs ? "differs" : "", "data-key": row.key},
      el("td", {}, el("code", {text: row.key}), el("div", {class: "about", text: row.about})),
      shown.map((i) => {
        const v = row.verdicts[i];
        let text = v;
        try { text = verdictText(JSON.parse(v)); } catch (e) { text = v; }
        return el("td", {class: `verdict ${v}${i > 0 && v !== row.verdicts[0] ? " changed" : ""}`, text});
      }))));
    // The rows whose verdict changes first: they are what the table is for.
    rows.sort((a, b) => b.classList.contains("differs") - a.classList.contains("differs"));
    const controls = paged(body, rows, "rows");
    const changing = rows.filter((row) => row.classList.contains("differs")).length;
    return el("div", {class: "scroll", tabindex: "0", role: "region", "aria-label": "the verdicts under every reading"},
      ...folded(`${rows.length} verdicts, ${changing} of them changed by some side`, rows.length > PAGE,
        ...controls.above, el("table", {class: "compare"}, el("thead", {}, head), body), ...controls.below),
      el("p", {class: "hint", id: "agreeing-sides",
               text: agree.length ? `Agree with the default on every verdict: ${agree.join(", ")}.` : ""}));
  }

  // Which catalog the table's cards come from (its catalog:): a verdict on the built-in one says nothing of the rest
  // of the pool.
  function catalogWords(table, game) {
    if (table.catalog && table.catalog !== "builtin") return `cards: ${table.catalog} (a catalog imported into the store)`;
    if (!game.catalogs.length) {
      return "cards: built-in catalog (the table names no catalog: only the cards the rules documents and the table " +
        "itself describe)";
    }
    const imported = game.catalogs.filter((c) => c !== "builtin");
    return "cards: built-in catalog, only the cards the rules documents name" + (imported.length
      ? ` (the store also holds ${imported.join(", ")}: choose it in the table builder)`
      : " (pyengine import brings in the game's whole pool: see the card pools page of the docs)");
  }

  function answersPage() {
    const table = tableFromUrl();
    const game = GAMES[table.game];
    answersGame = table.game;
    const hash = `#t=${encodeTable(table)}`;
    document.getElementById("edit-table").href = `/table${hash}`;
    document.getElementById("nav-table").href = `/table${hash}`;
    document.getElementById("table-title").textContent = `Answers: ${table.title || "a table"}`;
    document.getElementById("catalog-used").textContent = catalogWords(table, game);
    const fromLink = choiceFromUrl();
    const chosen = {...(fromLink.readings || {})};
    let profile = fromLink.profile || "";
    // The link keeps the readings chosen, so that it reopens the answers as they are shown.
    function keepInLink() {
      const choice = Object.keys(chosen).length || profile ? `&r=${encodeTable({readings: chosen, profile})}` : "";
      history.replaceState(null, "", `#t=${encodeTable(table)}${choice}`);
    }
    const selects = game.readings.map((r) => {
      const select = el("select", {"data-reading": r.name, "aria-label": `${r.name}: ${r.question}`, onchange: (e) => {
        if (e.target.value) chosen[r.name] = e.target.value; else delete chosen[r.name];
        keepInLink();
        answer();
      }}, el("option", {value: "", text: `(table: ${(table.readings || {})[r.name] || r.default})`}),
      r.choices.map((c) => el("option", {value: c, text: c})));
      select.value = chosen[r.name] || "";
      return el("label", {class: "reading"}, el("code", {text: r.name}), " ", select,
        el("span", {class: "reading-question", text: r.question}));
    });
    const profiles = el("select", {id: "profile", onchange: (e) => { profile = e.target.value; keepInLink(); answer(); }},
      el("option", {value: "", text: "(none)"}), game.profiles.map((p) => el("option", {value: p, text: p})));
    profiles.value = profile;
    document.getElementById("reading-choices").replaceChildren(...selects, el("label", {class: "reading"}, "profile ", profiles));

    async function answer() {
      const choice = {readings: {...chosen}, profile: profile || undefined};
      if (refreshBoard) refreshBoard();
      const plays = document.getElementById("plays");
      const questions = document.getElementById("questions");
      plays.setAttribute("aria-busy", "true");
      try {
        // Plays need no questions, so a bad question cannot stop them (asked again without the questions).
        const result = await call("/api/plays", {scenario: table, name: "table", ...choice}).catch((err) => {
          if (!(err.errors || [err.message]).every((m) => /questions\[\d+\]/.test(m))) throw err;
          return call("/api/plays", {scenario: {...table, questions: []}, name: "table", ...choice});
        });
        plays.replaceChildren(...playsTable(result));
        if ((table.questions || []).length) {
          questions.replaceChildren(await answeredQuestions(table, choice));
        } else {
          questions.replaceChildren(el("p", {class: "hint", text: "The table asks no questions."}));
        }
        showErrors([]);
      } catch (e) {
        plays.replaceChildren();
        showErrors(e.errors || [e.message]);
      }
      plays.setAttribute("aria-busy", "false");
    }

    // A game that draws its board redraws it with the answers, under the same readings.
    const refreshBoard = game.board ? boardSteps(table, () => ({readings: {...chosen}, profile: profile || undefined}))
      : null;
    answer();
    call("/api/compare", {scenario: table, name: "table"}).then(
      (result) => document.getElementById("compare").replaceChildren(compareTable(result)),
      (e) => document.getElementById("compare").replaceChildren(el("p", {class: "errors", text: e.message})));
  }

  // The board of a game that draws one, moment by moment: the server draws each moment as SVG, shown as an image
  // whose text alternative says the moment, with the step that led to it and the assumptions drawn under.
  function boardSteps(table, choice) {
    document.getElementById("board-section").hidden = false;
    document.getElementById("board-about").textContent = GAMES[table.game].board.about;
    const select = document.getElementById("board-moment");
    const status = document.getElementById("board-status");
    const picture = document.getElementById("board-picture");
    const previous = document.getElementById("board-previous");
    const next = document.getElementById("board-next");
    async function show(moment) {
      try {
        const found = await call("/api/board", {scenario: table, name: "table", moment, ...choice()});
        const shown = found.board.moments[0];
        if (select.options.length !== found.steps.length) {
          select.replaceChildren(...found.steps.map((s) => el("option", {value: s.moment,
            text: s.moment ? `after step ${s.moment}: ${s.words} (${s.outcome})` : "the start"})));
        }
        select.value = String(shown.moment);
        previous.disabled = shown.moment === 0;
        next.disabled = shown.moment === found.steps.length - 1;
        const step = shown.step;
        const said = step ? `After step ${step.step}: ${step.words}, ${step.outcome}` +
          (step.rules.length ? ` by ${step.rules.join(", ")}` : "") : "At the start";
        status.textContent = `${said}. Chapter ${shown.chapter}${shown.turn ? `, ${shown.turn}'s turn` : ""}` +
          (shown.winner ? `; ${shown.winner} has won` : shown.drawn ? "; the game ended in a draw" : "") + ".";
        const label = `The board ${step ? `after step ${step.step}` : "at the start"}: ` +
          `Power tokens ${Object.entries(shown.tokens).map(([p, n]) => `${p} ${n}`).join(", ")}`;
        picture.replaceChildren(el("img", {alt: label, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(found.svg)}`}));
        document.getElementById("board-assumptions").replaceChildren(assumed(shown.assumptions) || "");
      } catch (e) {
        status.textContent = "";
        picture.replaceChildren(el("p", {class: "errors", text: (e.errors || [e.message]).join("; ")}));
      }
    }
    select.onchange = () => show(Number(select.value));
    previous.onclick = () => show(Math.max(0, Number(select.value) - 1));
    next.onclick = () => show(Number(select.value) + 1);
    // Drawn again at the moment shown (after the last step at first).
    return () => show(select.value === "" ? undefined : Number(select.value));
  }

  // -- the disagreements ------------------------------------------------------------------------------------
  function disagreementsPage() {
    const gameSelect = document.getElementById("dis-game");
    const sideA = document.getElementById("side-a");
    const sideB = document.getElementById("side-b");
    gameSelect.replaceChildren(...Object.keys(GAMES).map((g) => el("option", {value: g, text: g})));

    function fillSides() {
      const game = GAMES[gameSelect.value];
      const sides = ["default", ...game.profiles,
        ...game.readings.flatMap((r) => r.choices.filter((c) => c !== r.default).map((c) => `${r.name}=${c}`))];
      for (const select of [sideA, sideB]) select.replaceChildren(...sides.map((s) => el("option", {value: s, text: s})));
      sideB.value = sides[1] || sides[0];
    }
    gameSelect.addEventListener("change", fillSides);
    gameSelect.value = CONFIG.default_game;
    fillSides();

    const poolSelect = document.getElementById("dis-pool");
    function fillPools() {
      const pools = GAMES[gameSelect.value].catalogs.filter((c) => c !== "builtin");
      poolSelect.replaceChildren(...pools.map((c) => el("option", {value: c, text: `real cards: ${c}`})),
        el("option", {value: "", text: "abstract cards only"}));
    }
    gameSelect.addEventListener("change", fillPools);
    fillPools();

    document.getElementById("search-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const out = document.getElementById("findings");
      const sides = {a: sideA.value, b: sideB.value};
      out.replaceChildren(el("p", {class: "hint", text: poolSelect.value ? "Counting the real cards…" : "Searching…"}));
      try {
        const census = poolSelect.value ? await call("/api/census", {game: gameSelect.value, catalog: poolSelect.value,
                                                                     compare: [sides.a, sides.b]}) : null;
        const entry = census && census.pairs[0];
        const parts = entry ? [censusSummary(census, entry)] : [];
        if (!entry || entry.why_none) {
          const result = await call("/api/edge-cases", {game: gameSelect.value, compare: [sides.a, sides.b],
                                                        max_cards: Number(document.getElementById("max-cards").value)});
          parts.push(abstractFindings(result, sides, entry));
        }
        showErrors([]);
        out.replaceChildren(...parts);
      } catch (err) {
        out.replaceChildren();
        showErrors(err.errors || [err.message]);
      }
    });
  }

  // The census of one pair of sides: counts, and each class of real cards with its table.
  function censusSummary(census, entry) {
    const types = Object.entries(entry.by_type).map(([t, n]) => `${n} ${t}`).join(", ");
    const head = el("p", {id: "found-count"}, entry.why_none
      ? `On ${census.catalog} (${census.pool_cards} cards): no real card shows where side A (${entry.a}) and side B ` +
        `(${entry.b}) disagree: ${entry.why_none}.`
      : `On ${census.catalog} (${census.pool_cards} cards), side A (${entry.a}) and side B (${entry.b}) disagree on ` +
        `${entry.classes_found} classes of real cards, ${entry.cards} cards (${types})` +
        // The page's search is smaller than the command's, to answer within the server's bound: said, not hidden.
        ({bounds: ".",
          states: `: this page's search stops at ${census.states_bound} states, so there may be more ` +
            `(pyengine census --game ${census.game} --catalog ${census.catalog} --compare ${entry.a} ${entry.b} ` +
            "draws up to 40, --states, and counts more).",
          tries: `: the search stopped after ${census.tries_bound} states no real card shows; there may be more.`,
          time: ": the search stopped at the server's time limit; there may be more."}[entry.stopped_by] || "."));
    const items = entry.classes.map((found) => el("li", {class: "finding", "data-cards": found.cards.join(" ")},
      el("span", {class: "class-label", text: found.label}),
      found.table ? [" ", verdictWords(found.table),
        " ", el("a", {class: "open-table button", href: `/table#t=${encodeTable(found.table)}`,
                      "aria-label": `open ${found.label} in the table builder`, text: "open in the table builder"})] : []));
    const list = el("ul", {class: "census"});
    const controls = paged(list, items, "classes");
    return el("section", {"aria-label": "real cards"}, el("h2", {text: "Real cards"}), head,
      entry.question ? el("p", {class: "hint", text: `The question: ${entry.question}`}) : null,
      items.length ? [...controls.above, list, ...controls.below] : null);
  }

  // A real table's first disagreeing question, as each side answers it.
  function verdictWords(table) {
    const qs = table.questions;
    for (let i = 0; i + 1 < qs.length; i += 2) {
      if (qs[i].expect !== qs[i + 1].expect) {
        return el("span", {class: "hint", text: `${qs[i].ask} question: side A says ${withRules(qs[i].expect, qs[i].rules)}, ` +
          `side B says ${withRules(qs[i + 1].expect, qs[i + 1].rules)}`});
      }
    }
    return null;
  }

  // The search's abstract states, where no real card fits (or no pool is chosen): each shape in words.
  function abstractFindings(result, sides, entry) {
    const note = entry ? "Abstract cards: no real card of the pool fits these states." :
      "Abstract cards (choose a card pool above to see real ones).";
    return el("section", {"aria-label": "abstract states"}, el("h2", {text: "Abstract states"}),
      el("p", {class: "hint", text: `${note} ${result.states} states where side A (${result.a}) and side B ` +
        `(${result.b}) disagree.`}),
      ...result.findings.map((f, i) => el("div", {class: "finding"},
        el("h3", {text: `state ${i + 1}`}),
        el("p", {class: "hint", text: "cards: " + (f.scenario.cards || []).map((c) =>
          `${c.unique ? "•" : ""}${c.title}${c.subtitle ? ", " + c.subtitle : ""} (${c.type})`).join("; ")}),
        el("ul", {}, f.shapes.map(([kind, va, vb, rule], n) => el("li", {text:
          `${kind} question: side A (${sides.a}) says ${va}, side B (${sides.b}) says ${vb}; rule ${rule} ` +
          `(${{a: "side A's", b: "side B's", both: "both sides'"}[f.shape_sides[n]]}) decides`}))),
        el("a", {class: "open-table button", href: `/table#t=${encodeTable(f.scenario)}`,
                 "aria-label": `open state ${i + 1} in the table builder`, text: "open in the table builder"}))));
  }

  return {tablePage, answersPage, disagreementsPage, encodeTable, decodeTable};
})();
