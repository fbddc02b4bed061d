// The Duel's part of the explorer's table builder (pyengine/web/static/explorer.js draws the rest): the chapter,
// whose turn, the Power tokens, coins and race stacks, each ally's state, and the actions in order. The explorer
// calls it with its helpers and this game's configuration (Dfm.web_extras).
"use strict";

ExplorerForms.dfm = ({el, numberField}, game, table, redraw) => {
  const state = table.state || (table.state = {});
  const chapter = el("select", {id: "chapter", onchange: (e) => { table.chapter = Number(e.target.value); redraw(); }},
    [1, 2, 3].map((n) => el("option", {value: n, text: `chapter ${n}`})));
  chapter.value = String(table.chapter || 1);
  const turn = el("select", {id: "turn", onchange: (e) => { table.turn = e.target.value; redraw(); }},
    game.factions.map((f) => el("option", {value: f, text: `${f} to play`})));
  turn.value = table.turn || "fellowship";
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
      el("div", {class: "holdings"}, el("h4", {text: "coins"}), game.factions.map((f) => numberField(f, coins, f, redraw))),
      el("div", {class: "holdings"}, el("h4", {text: "Power tokens on race stacks"}),
        game.races.map((r) => numberField(r, stacks, r, redraw))),
      ...allyBlocks,
      el("p", {class: "hint", text: "Other holdings (units, connections, tiles, Alliance tokens, flags): edit the YAML beside."})),
    el("fieldset", {class: "actions"}, el("legend", {text: "Actions, in order"}), ...actionRows,
      el("div", {class: "add-action"}, player, kind, ally, effect, take, use, choices, addAction)),
  ];
};
