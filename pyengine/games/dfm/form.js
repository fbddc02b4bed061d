// The Duel's part of the explorer's table builder (pyengine/web/static/explorer.js draws the rest): the chapter,
// whose turn, the Power tokens, coins, the Alliance tokens of the race stacks, each ally's state, the board (units per region, Fortresses,
// connections, open tiles), Alliance tokens, flags, and the actions in order. The explorer
// calls it with its helpers and this game's configuration (Dfm.web_extras).
"use strict";

ExplorerForms.dfm = ({el, numberField}, game, table, redraw) => {
  const state = table.state || (table.state = {});
  const chapter = el("select", {id: "chapter", onchange: (e) => { table.chapter = Number(e.target.value); redraw(); }},
    [1, 2, 3].map((n) => el("option", {value: n, text: `chapter ${n}`})));
  chapter.value = String(table.chapter || 1);
  // Whose turn, or left to the setup (the engine's: Sauron begins chapter 1, assumption setup_start; a later
  // chapter must say).
  const turn = el("select", {id: "turn", onchange: (e) => {
    if (e.target.value) table.turn = e.target.value; else delete table.turn;
    redraw();
  }}, el("option", {value: "", text: "turn left to the setup"}),
  game.factions.map((f) => el("option", {value: f, text: `${f} to play`})));
  turn.value = table.turn || "";
  const tokens = state.tokens || (state.tokens = {});
  const coins = state.coins || (state.coins = {});
  const stacks = state.stacks || (state.stacks = {});
  const allies = state.allies || (state.allies = {});
  const allyBlocks = game.factions.map((faction) => {
    const mine = allies[faction] || (allies[faction] = {});
    return el("div", {class: "allies", "data-faction": faction}, el("h4", {text: `${faction} allies`}),
      Object.entries(game.allies).filter(([, owner]) => owner === faction).map(([ally]) => {
        const now = game.ally_states.find((s) => (mine[s] || []).includes(ally)) || "";
        const select = el("select", {"data-ally": ally, onchange: (e) => {
          for (const s of game.ally_states) {
            if (mine[s]) { mine[s] = mine[s].filter((a) => a !== ally); if (!mine[s].length) delete mine[s]; }
          }
          if (e.target.value) (mine[e.target.value] = mine[e.target.value] || []).push(ally);
          redraw();
        }}, el("option", {value: "", text: "—"}), game.ally_states.map((s) => el("option", {value: s, text: s})));
        select.value = now;
        return el("label", {class: "ally"}, ally, " ", select);
      }));
  });
  // A list of names (tiles, a faction's Fortresses) as checkboxes over the board's names.
  const namesBlock = (title, names, holder, key, group) => el("div", {class: "holdings", "data-group": group},
    el("h4", {text: title}), names.map((name) => el("label", {class: "ally"}, el("input", {type: "checkbox",
      "data-name": name, checked: (holder[key] || []).includes(name), "aria-label": `${title}: ${name}`,
      onchange: (e) => {
        const now = (holder[key] || []).filter((n) => n !== name);
        if (e.target.checked) now.push(name);
        if (now.length) holder[key] = now; else delete holder[key];
        redraw();
      }}), " ", name)));
  const units = state.units || (state.units = {});
  const unitBlocks = game.factions.map((faction) => {
    const mine = units[faction] || (units[faction] = {});
    return el("div", {class: "holdings", "data-units": faction}, el("h4", {text: `${faction} units`}),
      game.regions.map((r) => numberField(r, mine, r, redraw, {"aria-label": `${faction} units in ${r}`})));
  });
  const alliance = state.alliance || (state.alliance = {});
  const allianceBlocks = game.factions.map((faction) => {
    const mine = alliance[faction] || (alliance[faction] = {});
    return el("div", {class: "holdings", "data-alliance": faction}, el("h4", {text: `${faction} Alliance tokens`}),
      game.races.map((r) => numberField(r, mine, r, redraw, {"aria-label": `${faction} Alliance tokens of ${r}`})));
  });
  const fortresses = state.fortresses || (state.fortresses = {});
  const connections = state.connections || (state.connections = []);
  const from = el("select", {id: "connection-from", "aria-label": "connection from"},
    game.regions.map((r) => el("option", {value: r, text: r})));
  const to = el("select", {id: "connection-to", "aria-label": "connection to"},
    game.regions.map((r) => el("option", {value: r, text: r})));
  const connectionBlock = el("div", {class: "holdings"}, el("h4", {text: "connections"}),
    connections.map((pair, index) => el("div", {class: "action"}, el("span", {text: pair.join(" – ")}),
      el("button", {type: "button", class: "remove", "aria-label": `remove the connection ${pair.join(" to ")}`, text: "×",
                    onclick: () => { connections.splice(index, 1); redraw(); }}))),
    el("div", {}, from, " – ", to, " ", el("button", {type: "button", id: "add-connection", text: "Add the connection",
      onclick: () => { if (from.value !== to.value) { connections.push([from.value, to.value]); redraw(); } }})));
  // A flag: a fluent and its arguments, written with spaces (e.g. `locked elves fellowship`).
  const flags = state.flags || (state.flags = []);
  const flagInput = el("input", {id: "new-flag", size: 30, placeholder: "a flag: fluent and arguments",
                                 "aria-label": "a flag: a fluent and its arguments, separated by spaces"});
  const flagBlock = el("div", {class: "holdings"}, el("h4", {text: "flags"}),
    flags.map((flag, index) => el("div", {class: "action"}, el("code", {text: flag.join(" ")}),
      el("button", {type: "button", class: "remove", "aria-label": `remove the flag ${flag.join(" ")}`, text: "×",
                    onclick: () => { flags.splice(index, 1); redraw(); }}))),
    el("div", {}, flagInput, " ", el("button", {type: "button", id: "add-flag", text: "Add the flag", onclick: () => {
      const words = flagInput.value.trim().split(/\s+/).filter(Boolean);
      if (words.length) { flags.push(words); redraw(); }
    }})));
  const actions = (table.actions = table.actions || []);
  const actionRows = actions.map((action, index) => el("div", {class: "action"}, el("span", {text: `${index + 1}. `}),
    el("code", {text: Object.entries(action).map(([k, v]) => `${k}: ${Array.isArray(v) ? `[${v}]` : v}`).join(", ")}),
    el("button", {type: "button", class: "remove", "aria-label": `remove action ${index + 1}`, text: "×",
                  onclick: () => { actions.splice(index, 1); redraw(); }})));
  const draft = {player: table.turn || "fellowship"};
  const player = el("select", {id: "action-player"}, game.factions.map((f) => el("option", {value: f, text: f})));
  const kind = el("select", {id: "action-kind"}, ["call", "take", "end_turn", "move_nazgul", "move_ring", "landmark", "alliance"]
    .map((k) => el("option", {value: k, text: k})));
  const ally = el("select", {id: "action-ally"}, Object.keys(game.allies).map((a) => el("option", {value: a, text: a})));
  const effect = el("select", {id: "action-effect"}, ["enter", "exit"].map((k) => el("option", {value: k, text: k})));
  const take = el("input", {id: "action-take", placeholder: "row, card", size: 6});
  const use = el("select", {id: "action-use"}, ["play", "discard"].map((k) => el("option", {value: k, text: k})));
  const choices = el("input", {id: "action-choices", placeholder: "race=elves region=gondor tile=bree alliance=pair", size: 30});
  const addAction = el("button", {type: "button", id: "add-action", text: "Add the action", onclick: () => {
    draft.player = player.value;
    if (kind.value === "call") { draft.call = ally.value; draft.effect = effect.value; }
    if (kind.value === "take") { draft.take = take.value.split(/\s*[,.]\s*/).map(Number); draft.use = use.value; }
    if (["end_turn", "move_nazgul", "move_ring"].includes(kind.value)) draft[kind.value] = true;
    for (const pair of choices.value.trim().split(/\s+/).filter(Boolean)) {
      const [key, value] = pair.split("=");
      const parts = (value || "").split(",");
      draft[key] = parts.length > 1 ? parts.map((v) => (/^\d+$/.test(v) ? Number(v) : v)) : value;
    }
    // A Landmark take names its tile (tile=...); an Alliance token its trigger (alliance=pair|three) and race.
    if (kind.value === "landmark") { draft.landmark = draft.tile; delete draft.tile; }
    if (kind.value === "alliance") draft.alliance = draft.alliance || "pair";
    actions.push(draft);
    redraw();
  }});
  return [
    el("fieldset", {class: "dfm-table"}, el("legend", {text: "Chapter and holdings"}), chapter, turn,
      el("div", {class: "holdings"}, el("h4", {text: "Power tokens"}),
        game.token_places.map((p) => numberField(p, tokens, p, redraw))),
      el("div", {class: "holdings"}, el("h4", {text: "coins"}),
        game.factions.map((f) => numberField(f, coins, f, redraw, {placeholder: "setup"}))),
      el("div", {class: "holdings"}, el("h4", {text: "Alliance tokens in the race stacks"}),
        game.races.map((r) => numberField(r, stacks, r, redraw))),
      ...allyBlocks),
    el("fieldset", {class: "dfm-board"}, el("legend", {text: "The board"}), ...unitBlocks,
      ...game.factions.map((f) => namesBlock(`${f} Fortresses`, game.regions, fortresses, f, `fortresses-${f}`)),
      namesBlock("open tiles", game.tiles, state, "tiles", "tiles"), connectionBlock, ...allianceBlocks, flagBlock),
    el("fieldset", {class: "actions"}, el("legend", {text: "Actions, in order"}), ...actionRows,
      el("div", {class: "add-action"}, player, kind, ally, effect, take, use, choices, addAction)),
  ];
};
